package io.github.memplan.core.gmem;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.Program;
import io.github.memplan.core.dsa.Step;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Schedule;
import io.github.memplan.core.ir.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Turns a graph and an op order into TPU-MLIR's GMEM problem (BM168x flow, {@code
 * reference/tpu-mlir.md} §1.1-1.5; the CV18xx alignments of §1.9 when the chip says so).
 *
 * <p><b>Weights</b> ({@code BMAddressAssign}, §1.1): every weight and constant in graph order,
 * sequentially, each starting on the chip's weight alignment (4 KiB on BM168x, 16 B on CV18xx):
 * {@code addr = align_up(addr + bytes, ALIGNMENT)}.
 *
 * <p><b>Positions.</b> As TPU-MLIR numbers every op of the function in walk order, each graph input
 * gets an {@code Input} step (like {@code top.InputOp}), then come the ops in schedule order, then
 * a {@code Return} step that reads the graph outputs.
 *
 * <p><b>Lifetimes</b> ({@code updateLiveRangeofBMOps}, §1.3): a value lives {@code [def, next
 * position after its last user)}, half-open; graph inputs live for the whole run unless {@link
 * GmemOptions#inputsLiveForever()} is off; graph outputs are read by the Return step and so live to
 * the end; a value nobody reads lives {@code [def, def + 1)}.
 *
 * <p><b>Sizes</b> ({@code getTensorGmemSize}, §1.4): bytes rounded up to the chip's GMEM alignment,
 * which is also each buffer's alignment.
 *
 * <p><b>In-place ops</b> (§1.5): the output of an alias op (Reshape and the like, see {@link
 * GmemOptions#aliasKinds()}) takes its input's address; the input's lifetime is extended over the
 * whole chain of in-place users ({@code findInPlaceOpMaxUsePosition}). An alias of a weight is a
 * weight (TPU-MLIR folds it).
 *
 * <p>Departures: BM1684's 4N storage of 8/16-bit activations, NNVLC compression, MD5 weight
 * de-duplication on CV18xx, and the address modes other than BASIC are not modelled.
 */
public final class GmemBuilder {
  private GmemBuilder() {}

  /** The problem for {@code graph} in its deterministic topological order. */
  public static GmemProblem build(Graph graph, Chip chip, GmemOptions options) {
    return build(graph, Schedule.topological(graph), chip, options);
  }

  /** The problem for {@code graph} run in {@code order}. */
  public static GmemProblem build(Graph graph, List<Op> order, Chip chip, GmemOptions options) {
    Schedule.check(graph, order);
    WeightLayout weights = layoutWeights(graph, chip.weightAlignment());

    // value -> buffer (root) id; stored tensors and aliases of them are not activations
    Map<String, String> rootOf = new HashMap<>();
    Map<String, String> aliasOf = new LinkedHashMap<>();
    List<Step> steps = new ArrayList<>();
    List<String> activationOrder = new ArrayList<>();
    for (String in : graph.inputs()) {
      rootOf.put(in, in);
      activationOrder.add(in);
      steps.add(new Step("input:" + in, "Input", List.of(), List.of(in), false));
    }
    for (Op op : order) {
      List<String> reads = new ArrayList<>();
      for (String in : op.inputs()) {
        if (rootOf.containsKey(in)) {
          reads.add(in);
        }
      }
      boolean alias = options.aliasKinds().contains(op.kind());
      boolean aliasOfStored =
          alias && !op.inputs().isEmpty() && !rootOf.containsKey(op.inputs().get(0));
      if (aliasOfStored) {
        continue; // a reshaped weight is a weight
      }
      for (String out : op.outputs()) {
        if (alias) {
          String root = rootOf.get(op.inputs().get(0));
          rootOf.put(out, root);
          aliasOf.put(out, root);
        } else {
          rootOf.put(out, out);
          activationOrder.add(out);
        }
      }
      steps.add(new Step(op.name(), op.kind().onnxName(), reads, op.outputs(), alias));
    }
    List<String> returned = new ArrayList<>(graph.outputs());
    if (options.inputsLiveForever()) {
      returned.addAll(graph.inputs());
    }
    steps.add(new Step("return", "Return", returned, List.of(), false));

    // lifetimes of roots: union over the alias chain of [def, last use + 1)
    Map<String, int[]> life = new HashMap<>();
    for (int t = 0; t < steps.size(); t++) {
      Step s = steps.get(t);
      for (String out : s.outputs()) {
        int[] l = life.computeIfAbsent(rootOf.get(out), k -> new int[] {Integer.MAX_VALUE, 0});
        l[0] = Math.min(l[0], t);
        l[1] = Math.max(l[1], t + 1);
      }
      for (String in : s.inputs()) {
        int[] l = life.get(rootOf.get(in));
        l[1] = Math.max(l[1], t + 1);
      }
    }
    long align = chip.gmemAlignment();
    List<Buffer> buffers = new ArrayList<>();
    for (String id : activationOrder) {
      Tensor t = graph.tensor(id);
      int[] l = life.get(id);
      buffers.add(
          new Buffer(
              id, l[0], l[1], alignUp(t.bytes(), align), align, List.of(), OptionalLong.empty()));
    }
    DsaInstance instance =
        new DsaInstance(
            graph.name() + "@" + chip.name(),
            buffers,
            DsaInstance.UNBOUNDED,
            new Program(steps, aliasOf));
    return new GmemProblem(graph.name(), chip, weights, instance);
  }

  /** TPU-MLIR's coefficient layout: stored tensors in graph order, bump pointer, aligned. */
  public static WeightLayout layoutWeights(Graph graph, long alignment) {
    List<WeightSlot> slots = new ArrayList<>();
    long addr = 0;
    long raw = 0;
    for (Tensor t : graph.tensors().values()) {
      if (t.role() == Role.WEIGHT || t.role() == Role.CONSTANT) {
        slots.add(new WeightSlot(t.name(), addr, t.bytes()));
        raw += t.bytes();
        addr = alignUp(addr + t.bytes(), alignment);
      }
    }
    return new WeightLayout(slots, addr, raw);
  }

  static long alignUp(long value, long alignment) {
    long r = value % alignment;
    return r == 0 ? value : Math.addExact(value, alignment - r);
  }
}
