package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Tensor;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.Timestep;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * v0's timestep assignment ({@code assign_timestep} and the id adjustment of {@code GroupOps.cpp}
 * at 1cf8ff8c2, {@code reference/tpu-mlir.md} §2.13): the TIU ops take consecutive timesteps, every
 * load runs one step before its op (prefetch) and every store one step after. For {@code k} ops
 * that gives {@code k + 2} rows: op {@code i} computes in row {@code i + 1}, its group inputs and
 * weights are loaded in row {@code i} and its group outputs stored in row {@code i + 2}.
 *
 * <p>Buffers, listed as v0 lists LMEM items (per op: operands, a weight entry each time it is used
 * and group inputs once; then the op's scratch buffer; then its output):
 *
 * <ul>
 *   <li>a group input lives from its load row to its last in-group use;
 *   <li>a weight use lives in its load row and its op's row; when the group is sliced ({@code
 *       nsecs·hsecs > 1}) it is held, resident {@code [0, ∞)};
 *   <li>an op's scratch buffer lives in its op's row (none when its size is 0);
 *   <li>an op's output lives from its op's row to its last in-group use, or to its store row when
 *       it is a group output.
 * </ul>
 *
 * v0 expresses lifetimes in item ids and then extends weights, group inputs and group outputs over
 * the ids that share their timestep; in timesteps, as here, that extension is already implied.
 * Sizes: activations the largest slice per axis with EU alignment, weights whole ({@link
 * OpSemantics#weightLmemBytes}), scratch {@link OpSemantics#scratchBytes} of the largest slices. v0
 * has no software pipeline: every stage is 1.
 */
public final class V0Timesteps implements TimestepMethod {

  @Override
  public String id() {
    return "v0";
  }

  @Override
  public GroupTimesteps build(
      String name,
      Graph graph,
      List<Op> ops,
      Chip chip,
      ShapeSecs secs,
      Map<String, SliceInfo> slices) {
    GroupIo io = GroupIo.of(graph, ops);
    Set<String> outs = new HashSet<>(io.outputs());
    int k = ops.size();
    int rows = k + 2;
    boolean sliced = secs.loops() > 1;
    Map<String, Integer> lastUse = new HashMap<>();
    Map<String, Integer> producerIdx = new HashMap<>();
    for (int i = 0; i < k; i++) {
      for (String t : ops.get(i).inputs()) {
        if (GroupIo.isActivation(graph, t)) {
          lastUse.put(t, i);
        }
      }
      for (String t : ops.get(i).outputs()) {
        producerIdx.put(t, i);
      }
    }
    List<LmemBuffer> buffers = new ArrayList<>();
    List<String> tensors = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    List<List<Integer>> gdma = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      gdma.add(new ArrayList<>());
    }
    List<Timestep.TiuOp> tiu = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      Op op = ops.get(i);
      List<Integer> operands = new ArrayList<>();
      for (String t : op.inputs()) {
        if (t.isEmpty()) {
          continue;
        }
        if (!GroupIo.isActivation(graph, t)) {
          String id = op.name() + "/" + t;
          int b =
              add(
                  buffers,
                  tensors,
                  index,
                  id,
                  t,
                  new LmemBuffer(
                      id,
                      LmemBuffer.Kind.WEIGHT,
                      i,
                      i + 1,
                      OpSemantics.weightLmemBytes(graph, op, t, chip),
                      sliced));
          operands.add(b);
          if (!gdma.get(i).contains(b)) {
            gdma.get(i).add(b);
          }
          continue;
        }
        Integer b = index.get(t);
        if (b == null) {
          // a group input: loaded one step before its first user
          b = activation(graph, chip, slices, buffers, tensors, index, t, i, lastUse.get(t) + 1);
          gdma.get(i).add(b);
        }
        operands.add(b);
      }
      List<Integer> scratch = new ArrayList<>();
      long sb = scratchBytes(graph, chip, op, slices);
      if (sb > 0) {
        String id = op.name() + "/scratch";
        scratch.add(
            add(
                buffers,
                tensors,
                index,
                id,
                "",
                new LmemBuffer(id, LmemBuffer.Kind.SCRATCH, i + 1, i + 1, sb, false)));
      }
      List<Integer> results = new ArrayList<>();
      for (String t : op.outputs()) {
        int end = Math.max(lastUse.getOrDefault(t, i) + 1, outs.contains(t) ? i + 2 : i + 1);
        int b = activation(graph, chip, slices, buffers, tensors, index, t, i + 1, end);
        results.add(b);
        if (outs.contains(t)) {
          gdma.get(i + 2).add(b);
        }
      }
      tiu.add(new Timestep.TiuOp(op.name(), operands, results, scratch));
    }
    List<Timestep> table = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      List<Timestep.TiuOp> ts = r >= 1 && r <= k ? List.of(tiu.get(r - 1)) : List.of();
      table.add(new Timestep(ts, gdma.get(r)));
    }
    List<Integer> stages = new ArrayList<>();
    for (int i = 0; i < buffers.size(); i++) {
      stages.add(1);
    }
    return new GroupTimesteps(
        LmemInstance.of(name, chip, buffers, table, List.of()), tensors, stages);
  }

  private static int add(
      List<LmemBuffer> buffers,
      List<String> tensors,
      Map<String, Integer> index,
      String id,
      String tensor,
      LmemBuffer b) {
    Integer old = index.get(id);
    if (old != null) {
      return old;
    }
    buffers.add(b);
    tensors.add(tensor);
    index.put(id, buffers.size() - 1);
    return buffers.size() - 1;
  }

  private static int activation(
      Graph graph,
      Chip chip,
      Map<String, SliceInfo> slices,
      List<LmemBuffer> buffers,
      List<String> tensors,
      Map<String, Integer> index,
      String t,
      int start,
      int end) {
    long size = bytes(graph, chip, t, slices);
    return add(
        buffers,
        tensors,
        index,
        t,
        t,
        new LmemBuffer(t, LmemBuffer.Kind.ACTIVATION, start, end, size, false));
  }

  /** The largest slice of {@code tensor} per axis (the whole tensor when it is not sliced). */
  /** Per-lane bytes of {@code op}'s scratch buffer for its largest input and output slices. */
  static long scratchBytes(Graph graph, Chip chip, Op op, Map<String, SliceInfo> slices) {
    return OpSemantics.scratchBytes(
        graph,
        op,
        chip,
        maxSlice(graph, op.inputs().get(0), slices),
        maxSlice(graph, op.outputs().get(0), slices));
  }

  static Nchw maxSlice(Graph graph, String tensor, Map<String, SliceInfo> slices) {
    Nchw whole = Nchw.of(graph.tensor(tensor).shape());
    SliceInfo si = slices.get(tensor);
    if (si == null) {
      return whole;
    }
    return new Nchw(si.max(Axis.N), si.max(Axis.C), si.max(Axis.H), si.max(Axis.W));
  }

  /** Per-lane bytes of the largest slice of an activation, EU-aligned. */
  static long bytes(Graph graph, Chip chip, String tensor, Map<String, SliceInfo> slices) {
    Tensor t = graph.tensor(tensor);
    return OpSemantics.lmemBytes(chip, maxSlice(graph, tensor, slices), t.dtype(), true);
  }
}
