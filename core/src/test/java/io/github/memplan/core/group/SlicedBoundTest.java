package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlicedBoundTest {
  private static final RooflineCostModel MODEL = new RooflineCostModel();

  /**
   * The claim {@link SlicedBound#best} rests on: slicing at {@code (n, c, h, w)} succeeds exactly
   * when it succeeds on each axis alone, and gives every tensor the ranges of those slicings, axis
   * by axis; checked on every range and secs up to 4 x 2 x 8 x 8 of the fixtures, on bm1684x (W
   * split, hulls) and cv183x (restarts refused).
   */
  @Test
  void slicingTreatsTheAxesApart() {
    int compared = 0;
    for (Graph g :
        List.of(
            GroupFixtures.convStackS2(),
            GroupFixtures.convReluChain("chain", 8, 16, 3, 1),
            GroupingBoundTest.hiddenAndExposedWeights(),
            GroupTypeTest.layerNormAddMatMul(),
            GroupTypeTest.smallCSilu())) {
      for (Chip chip : List.of(Chips.get("bm1684x"), Chips.get("cv183x"))) {
        GroupProblem p = GroupProblem.of(g, chip, GroupOptions.DEFAULT);
        SliceRules rules = p.options().rules(SliceRules.TODAY);
        for (int[] bg : p.baseGroups()) {
          for (int i = bg[0]; i <= bg[1]; i++) {
            for (int j = i + 1; j <= bg[1]; j++) {
              List<Op> ops = p.order().subList(i, j + 1);
              for (int n = 1; n <= 4; n++) {
                for (int c = 1; c <= 2; c++) {
                  for (int h = 1; h <= 8; h++) {
                    for (int w = 1; w <= 8; w++) {
                      int[] secs = {n, c, h, w};
                      SliceResult all =
                          Slicing.slice(g, ops, chip, new ShapeSecs(n, c, h, w), rules);
                      SliceResult[] alone = new SliceResult[4];
                      boolean each = true;
                      for (Axis a : Axis.values()) {
                        int[] one = {1, 1, 1, 1};
                        one[a.ordinal()] = secs[a.ordinal()];
                        alone[a.ordinal()] =
                            Slicing.slice(
                                g, ops, chip, new ShapeSecs(one[0], one[1], one[2], one[3]), rules);
                        each &= alone[a.ordinal()] instanceof SliceResult.Sliced;
                      }
                      String what =
                          g.name() + " " + chip.name() + " " + i + ".." + j + " " + n + c + h + w;
                      assertThat(all instanceof SliceResult.Sliced).as(what).isEqualTo(each);
                      if (!(all instanceof SliceResult.Sliced s)) {
                        continue;
                      }
                      compared++;
                      for (var e : s.slices().entrySet()) {
                        for (Axis a : Axis.values()) {
                          SliceInfo one =
                              ((SliceResult.Sliced) alone[a.ordinal()]).slices().get(e.getKey());
                          assertThat(e.getValue().get(a))
                              .as(what + " " + e.getKey() + " " + a)
                              .isEqualTo(one.get(a));
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    assertThat(compared).isGreaterThan(1000);
  }

  /**
   * The least bound over every secs is the bound at one of them: at the secs it picks it equals
   * {@link SlicedBound#at} there (no LMEM limit on these small groups), and it is never above
   * {@link SlicedBound#at} at any secs that slices and that today's code may choose ({@link
   * ShapeSecsBounds#whyOutOfBounds}): on a chain of 16 x 16 f32 convs (W never split: 64 bytes a
   * row) and on two relus of x[1,8,8,160] f32, where can_split_w refuses W secs above 2 unless h·w
   * reaches 8.
   */
  @Test
  void theLeastBoundIsTheBoundAtTheBestSecs() {
    int refused = 0;
    for (Graph g :
        List.of(
            GroupFixtures.convReluChain("chain", 8, 16, 3, 1),
            GroupFixtures.reluPair(1, 8, 8, 160))) {
      Chip chip = Chips.get("bm1684x");
      GroupProblem p = GroupProblem.of(g, chip, GroupOptions.DEFAULT);
      SliceRules rules = p.options().rules(SliceRules.TODAY);
      SlicedBound bound = new SlicedBound(MODEL, g, chip);
      List<Op> ops = p.order();
      GroupBoundary io = GroupBoundary.of(g, ops);
      GroupingBound.Part best = bound.best(ops, rules);
      long least = Long.MAX_VALUE;
      for (int h = 1; h <= 16; h++) {
        for (int w = 1; w <= 160; w++) {
          ShapeSecs secs = new ShapeSecs(1, 1, h, w);
          if (ShapeSecsBounds.whyOutOfBounds(g, ops, chip, secs, rules).isPresent()) {
            refused++;
          } else if (Slicing.slice(g, ops, chip, secs, rules) instanceof SliceResult.Sliced s) {
            long at = bound.at(ops, io, s.slices()).cycles();
            assertThat(best.cycles()).as(g.name() + " " + secs).isLessThanOrEqualTo(at);
            least = Math.min(least, at);
          }
        }
      }
      assertThat(best.cycles()).as(g.name()).isEqualTo(least);
    }
    assertThat(refused).isGreaterThan(0);
  }

  /**
   * x[1,64,64,64] f32 → conv 3x3/p1 (w[64,64,3,3]) → relu, both outputs of the graph, on bm1684x at
   * 64 H slices (64 iterations, 62 middle steps). Today's table has two rows: the conv's (TIU
   * 147456 cycles in all) and the relu's (256). In every middle step the conv's store (stage 1,
   * after its op) and the next iteration's load of x with its halo rows (stage 0, after its last
   * reader) can only run beside the relu, whose TIU hides almost none of them, while the relu's
   * store of the iteration before (stage 2, before the last op) hides under the conv. So the group
   * costs 215040 cycles, far above both the TIU sum (147712) and the GDMA time of its bytes moved
   * once (51456): the bound counts each of the 62 steps' exposed transfers (by class: every middle
   * step here is alike) and gives 214263, never above the cost; counting only 32 of the steps it
   * gave 183919, 14.5% short.
   */
  @Test
  void everyMiddleStepCountsTheTransfersNoRowBesideThemCanHide() {
    Graph.Builder b = Graph.builder("storeBesideRelu");
    b.input("x", io.github.memplan.core.ir.DType.F32, 1, 64, 64, 64);
    b.weight("w", io.github.memplan.core.ir.DType.F32, 64, 64, 3, 3);
    b.op("conv", io.github.memplan.core.ir.OpKind.CONV, GroupFixtures.conv3x3(1), "x", "w");
    b.op(
        "relu",
        io.github.memplan.core.ir.OpKind.RELU,
        io.github.memplan.core.ir.Attributes.empty(),
        "conv");
    b.output("conv");
    b.output("relu");
    Graph g = b.build();
    Chip chip = Chips.get("bm1684x");
    List<Op> ops = g.ops();
    ShapeSecs secs = new ShapeSecs(1, 1, 64, 1);
    GroupCandidate.Built built =
        (GroupCandidate.Built)
            GroupCandidate.build("t", g, ops, chip, secs, SliceRules.TODAY, new Timesteps2026());
    long cost =
        MODEL.group(g, ops, chip, secs, built.slices().slices(), built.timesteps()).cycles();
    long at =
        new SlicedBound(MODEL, g, chip)
            .at(ops, GroupBoundary.of(g, ops), built.slices().slices())
            .cycles();
    long tiu = MODEL.tiuCycles(g, ops.get(0), chip) + MODEL.tiuCycles(g, ops.get(1), chip);
    long gdma = MODEL.gdmaCycles(g.tensor("x").bytes() * 3 + g.tensor("w").bytes(), chip);
    assertThat(cost)
        .as("the steps' exposed transfers")
        .isGreaterThan(Math.max(tiu, gdma) * 11 / 10);
    assertThat(at).isLessThanOrEqualTo(cost).isGreaterThanOrEqualTo(cost - cost / 100);
  }
}
