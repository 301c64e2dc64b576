package io.github.memplan.baseline.tpumlir.gmem;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.gmem.GmemBuilder;
import io.github.memplan.core.gmem.GmemOptions;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every TPU-MLIR planner stays valid on GMEM problems with merged Concats and fused Slices, whose
 * buffers hold several values at different offsets.
 */
class InPlaceGmemTest {

  private static final List<Chip> CHIPS = List.of(Chips.get("bm1684x"), Chips.get("cv183x"));

  private static List<Planner<DsaInstance, DsaSolution>> planners() {
    return List.of(
        new TpuMlirDocPlanner(),
        new GmemAllocFitFirst(),
        new GmemAllocOpSizeOrder(),
        new GmemAllocator());
  }

  private static Attributes axis1() {
    return Attributes.builder().put("axis", 1).build();
  }

  private static Attributes channels(long start, long end) {
    return Attributes.builder().put("starts", start).put("ends", end).put("axes", 1).build();
  }

  /**
   * An Inception-like block: four branches of x, two of them fused Slices, merged by a Concat whose
   * output is sliced again (fused) and reshaped, then a second Concat of a reshape that cannot
   * merge.
   */
  static Graph inception() {
    Graph.Builder g = Graph.builder("inception");
    g.input("x", DType.F32, 1, 16, 14, 14);
    g.op("b1", OpKind.RELU, Attributes.empty(), "x");
    g.op("b2s", OpKind.SLICE, channels(0, 8), "b1");
    g.op("b2", OpKind.SIGMOID, Attributes.empty(), "b2s");
    g.op("b3", OpKind.TANH, Attributes.empty(), "x");
    g.op("b4s", OpKind.SLICE, channels(4, 12), "b3");
    g.op("b4", OpKind.RELU, Attributes.empty(), "b4s");
    g.op("b5", OpKind.RELU, Attributes.empty(), "b3");
    g.op("cat", OpKind.CONCAT, axis1(), "b2", "b4", "b5");
    g.op("mid", OpKind.SLICE, channels(8, 24), "cat");
    g.op("r", OpKind.RESHAPE, Attributes.builder().put("shape", 1, 16, 14, 14).build(), "mid");
    g.op("y1", OpKind.RELU, Attributes.empty(), "r");
    g.op("y2", OpKind.TANH, Attributes.empty(), "cat");
    g.op("cat2", OpKind.CONCAT, axis1(), "y1", "r");
    g.op("out", OpKind.ADD, Attributes.empty(), "cat2", "cat2");
    g.output("out");
    g.output("y2");
    return g.build();
  }

  @Test
  void allPlannersAreValidOnAnInceptionBlock() {
    for (Chip chip : CHIPS) {
      DsaInstance inst = GmemBuilder.build(inception(), chip, GmemOptions.defaults()).activations();
      // b2s and b4s (slices), b4 and b5 (merged operands), cat, mid and r are aliases; cat2 copies
      // because r is one
      assertThat(inst.program().aliasOf())
          .containsOnlyKeys("b2s", "b4s", "b4", "b5", "cat", "mid", "r");
      assertThat(inst.program().offsetOf("mid")).isEqualTo(8 * 14 * 14 * 4);
      for (Planner<DsaInstance, DsaSolution> p : planners()) {
        DsaPlannerContract.assertSolved(inst, p.solve(inst, SolveContext.unlimited()));
      }
    }
  }

  /**
   * A seeded random graph on [1, c, 6, 6] tensors: Relu, channel Slices (fused), row Slices (copies
   * unless c is 1), Concats of two or three tensors along the channels, Adds of two tensors of the
   * same shape, and same-shape Reshapes, reading random earlier tensors.
   */
  static Graph randomGraph(SplittableRandom r, String name) {
    Graph.Builder g = Graph.builder(name);
    List<String> pool = new ArrayList<>();
    List<Long> chans = new ArrayList<>();
    DType dtype = r.nextBoolean() ? DType.F32 : DType.I8;
    long c0 = 1 + r.nextInt(8);
    g.input("x", dtype, 1, c0, 6, 6);
    pool.add("x");
    chans.add(c0);
    int ops = 5 + r.nextInt(30);
    for (int i = 0; i < ops; i++) {
      String name0 = "v" + i;
      int k = r.nextInt(pool.size());
      String t = pool.get(k);
      long c = chans.get(k);
      long outC = c;
      switch (r.nextInt(6)) {
        case 0 -> g.op(name0, OpKind.RELU, Attributes.empty(), t);
        case 1 -> {
          if (c < 2) {
            g.op(name0, OpKind.RELU, Attributes.empty(), t);
          } else {
            long s = r.nextInt((int) c - 1);
            long e = s + 1 + r.nextInt((int) (c - s));
            g.op(name0, OpKind.SLICE, channels(s, e), t);
            outC = e - s;
          }
        }
        case 2 ->
            g.op(
                name0,
                OpKind.SLICE,
                Attributes.builder().put("starts", 1).put("ends", 5).put("axes", 2).build(),
                t);
        case 3 -> {
          // fresh operands (read by the Concat only) so that it can merge; sometimes a shared one
          List<String> full = new ArrayList<>();
          List<Long> fullC = new ArrayList<>();
          for (int j = 0; j < pool.size(); j++) {
            if (g.tensor(pool.get(j)).shape().dim(2) == 6) {
              full.add(pool.get(j));
              fullC.add(chans.get(j));
            }
          }
          int n = 2 + r.nextInt(2);
          String[] ins = new String[n];
          outC = 0;
          for (int j = 0; j < n; j++) {
            int kj = r.nextInt(full.size());
            if (r.nextInt(4) == 0) {
              ins[j] = full.get(kj);
            } else {
              ins[j] = name0 + "_" + j;
              g.op(ins[j], OpKind.TANH, Attributes.empty(), full.get(kj));
            }
            outC += fullC.get(kj);
          }
          g.op(name0, OpKind.CONCAT, axis1(), ins);
        }
        case 4 -> {
          String other = t;
          for (int j = 0; j < pool.size(); j++) {
            if (g.tensor(pool.get(j)).shape().equals(g.tensor(t).shape()) && r.nextBoolean()) {
              other = pool.get(j);
            }
          }
          g.op(name0, OpKind.ADD, Attributes.empty(), t, other);
        }
        default -> {
          long[] d = g.tensor(t).shape().dims();
          g.op(name0, OpKind.RESHAPE, Attributes.builder().put("shape", d).build(), t);
        }
      }
      pool.add(name0);
      chans.add(outC);
    }
    g.output(pool.get(pool.size() - 1));
    for (int i = 1; i < pool.size() - 1; i++) {
      if (r.nextInt(8) == 0) {
        g.output(pool.get(i));
      }
    }
    return g.build();
  }

  @TestFactory
  Stream<DynamicTest> allPlannersAreValidOnRandomGraphsWithConcatsAndSlices() {
    SplittableRandom master = new SplittableRandom(0x1C0CA7L);
    List<DsaInstance> instances = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      Graph graph = randomGraph(master.split(), "random-" + i);
      instances.add(
          GmemBuilder.build(graph, CHIPS.get(i % CHIPS.size()), GmemOptions.defaults())
              .activations());
    }
    // the family does exercise both kinds of in-place op, with offsets
    assertThat(instances)
        .anySatisfy(
            inst ->
                assertThat(inst.program().steps())
                    .anySatisfy(s -> assertThat(s.kind() + s.inPlace()).isEqualTo("Concattrue")))
        .anySatisfy(
            inst ->
                assertThat(inst.program().steps())
                    .anySatisfy(s -> assertThat(s.kind() + s.inPlace()).isEqualTo("Slicetrue")))
        .anySatisfy(inst -> assertThat(inst.program().aliasOffset()).isNotEmpty());
    return instances.stream()
        .map(
            inst ->
                DynamicTest.dynamicTest(
                    inst.name() + " (" + inst.size() + " buffers)",
                    () -> {
                      for (Planner<DsaInstance, DsaSolution> p : planners()) {
                        DsaPlannerContract.assertSolved(
                            inst, p.solve(inst, SolveContext.unlimited()));
                      }
                    }));
  }
}
