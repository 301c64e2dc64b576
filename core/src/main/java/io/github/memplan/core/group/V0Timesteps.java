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
 * v0's timestep assignment: {@code GroupOps::list_lmems}, {@code assign_timestep} and {@code
 * adjust_lmem_id} of {@code lib/Dialect/Tpu/Transforms/LayerGroup/GroupOps.cpp} ({@code
 * reference/tpu-mlir.md} §2.13; the v0 LayerGroup lived from 2022-08, commit 1cf8ff8c2, until the
 * rewrite cb86957f0 of 2022-12; the timestep rule is that of the stored version read for this
 * class, sophgo/tpu-mlir {@code GroupOps.cpp} with {@code lmem_type_t last_type}, see the
 * departures).
 *
 * <p>v0 lists the LMEM items of a group in op order: for each op its operands (a weight entry for
 * every use; a group input only the first time), then the op, then its results. It then walks that
 * list once with a counter {@code timestep} (from 0), the type of the last entry that moved it
 * ({@code last_type}) and whether the previous entry was a group output ({@code last_output}):
 *
 * <ul>
 *   <li>an op increments the counter unless {@code last_type} is already an op: consecutive ops
 *       with no load or store between them <b>share a timestep</b>;
 *   <li>a weight or a group input is loaded at the counter's value, one step before the op that
 *       reads it (the op then increments); right after a group output it first steps back one, so
 *       the load runs beside the op whose output is being stored;
 *   <li>a group output (a result read outside the group) increments the counter right after its op:
 *       it is stored one step after the op; a result read only inside the group changes nothing.
 * </ul>
 *
 * For conv → relu → conv2 (weights w, w2; conv2's output the group output) this gives: row 0 loads
 * x and w, row 1 runs conv and relu (relu has no load), w2 is loaded in row 1, row 2 runs conv2,
 * row 3 stores it. The table has as many rows as the counter's last value plus one.
 *
 * <p>Lifetimes in rows (v0's {@code timestep}, {@code start_timestep} and {@code end_timestep}):
 *
 * <ul>
 *   <li>a group input lives from its load row to the row of its last in-group user;
 *   <li>a weight use lives from its load row to its op's row; when the group is sliced ({@code
 *       nsecs·hsecs > 1}) it is held, resident in every row ({@code hold_in_lmem}, the end id
 *       {@code MAX_ID} of the 2022-08 code);
 *   <li>an op's scratch buffer lives in its op's row (none when its size is 0);
 *   <li>an op's result lives from its op's row to the row of its last in-group user, or to its
 *       store row when it is a group output.
 * </ul>
 *
 * These are v0's id intervals after {@code adjust_lmem_id} (a load's start id moves back to the op
 * that shares its timestep) expressed in rows, so that a buffer's lifetime in rows, which {@code
 * lmem-v0} orders by, is v0's timestep span. Sizes: activations the largest slice per axis with EU
 * alignment, weights whole ({@link OpSemantics#weightLmemBytes}), scratch {@link
 * OpSemantics#scratchBytes} of the largest slices. v0 has no software pipeline: every stage is 1.
 *
 * <p>Departures and what could not be read:
 *
 * <ul>
 *   <li>The version of {@code GroupOps.cpp} at 1cf8ff8c2 itself was not in the stored sources. Two
 *       versions were: an earlier one (namespace {@code tpu_mlir}, {@code LMEM_TENSOR}, Apache
 *       header) whose {@code assign_timestep} increments on every op and every group output, so no
 *       two ops share a timestep, and whose lifetimes are item ids; and a later one ({@code
 *       LMEM_ACTIVATION}, {@code BasicTimeStep}, after the 3-stage pipeline of ea470dcf1) with the
 *       {@code last_type} rule above. The rule above is the later one's, as issue 18's audit of
 *       1cf8ff8c2 read it; its software pipeline ({@code software_pipeline()}, stages 0 and 2) is
 *       left out, as 2022-08 had none.
 *   <li>A weight read twice by one op is one buffer; v0 lists one entry per operand.
 *   <li>A result no op reads (a graph output) is a group output and stored; v0 marks a result as an
 *       output when a user lies outside the group, which the function's return is.
 * </ul>
 */
public final class V0Timesteps implements TimestepMethod {

  @Override
  public String id() {
    return "v0";
  }

  /** What a v0 LMEM item is ({@code lmem_type_t} and the input/output marks). */
  private enum Item {
    WEIGHT,
    INPUT,
    OP,
    RESULT
  }

  /** One listed item: its kind, the op it belongs to, its tensor, whether it is a group output. */
  private record Entry(Item item, int op, String tensor, boolean output) {}

  /** The row of every entry of v0's list by {@code assign_timestep}'s walk. */
  private static int[] walk(List<Item> items, List<Boolean> outputs) {
    int[] ts = new int[items.size()];
    int timestep = 0;
    Item lastType = null;
    boolean lastOutput = false;
    for (int e = 0; e < items.size(); e++) {
      Item it = items.get(e);
      switch (it) {
        case OP -> {
          if (lastType != Item.OP) {
            timestep++;
            lastType = Item.OP;
          }
        }
        case WEIGHT, INPUT -> {
          if (lastOutput) {
            timestep--;
          }
          lastType = it;
        }
        case RESULT -> {
          if (outputs.get(e) && lastType == Item.OP) {
            timestep++;
            lastType = Item.RESULT;
          }
        }
      }
      lastOutput = it == Item.RESULT && outputs.get(e);
      ts[e] = timestep;
    }
    return ts;
  }

  @Override
  public GroupTimesteps build(
      String name,
      Graph graph,
      List<Op> ops,
      Chip chip,
      ShapeSecs secs,
      Map<String, SliceInfo> slices) {
    GroupBoundary io = GroupBoundary.of(graph, ops);
    Set<String> outs = new HashSet<>(io.outputs());
    int k = ops.size();
    boolean sliced = secs.loops() > 1;

    // list_lmems: per op its operands (weights every use, group inputs once), the op, its results
    List<Entry> list = new ArrayList<>();
    Set<String> listed = new HashSet<>();
    for (int i = 0; i < k; i++) {
      Op op = ops.get(i);
      for (String t : op.inputs()) {
        if (t.isEmpty()) {
          continue;
        }
        if (!GroupBoundary.isActivation(graph, t)) {
          list.add(new Entry(Item.WEIGHT, i, t, false));
        } else if (listed.add(t)) {
          list.add(new Entry(Item.INPUT, i, t, false));
        }
      }
      list.add(new Entry(Item.OP, i, "", false));
      for (String t : op.outputs()) {
        listed.add(t);
        list.add(new Entry(Item.RESULT, i, t, outs.contains(t)));
      }
    }
    int[] ts =
        walk(list.stream().map(Entry::item).toList(), list.stream().map(Entry::output).toList());
    int[] opRow = new int[k];
    int rows = 0;
    for (int e = 0; e < list.size(); e++) {
      rows = Math.max(rows, ts[e] + 1);
      if (list.get(e).item() == Item.OP) {
        opRow[list.get(e).op()] = ts[e];
      }
    }
    // the row of the last in-group reader of each activation
    Map<String, Integer> lastUse = new HashMap<>();
    for (int i = 0; i < k; i++) {
      for (String t : ops.get(i).inputs()) {
        if (GroupBoundary.isActivation(graph, t)) {
          lastUse.merge(t, opRow[i], Math::max);
        }
      }
    }

    List<LmemBuffer> buffers = new ArrayList<>();
    List<String> tensors = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    List<List<Integer>> gdma = new ArrayList<>();
    List<List<Timestep.TiuOp>> tiu = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      gdma.add(new ArrayList<>());
      tiu.add(new ArrayList<>());
    }
    List<List<Integer>> operands = new ArrayList<>();
    List<List<Integer>> results = new ArrayList<>();
    List<List<Integer>> scratch = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      operands.add(new ArrayList<>());
      results.add(new ArrayList<>());
      scratch.add(new ArrayList<>());
    }
    for (int e = 0; e < list.size(); e++) {
      Entry en = list.get(e);
      int i = en.op();
      Op op = ops.get(i);
      switch (en.item()) {
        case WEIGHT -> {
          String id = op.name() + "/" + en.tensor();
          boolean fresh = !index.containsKey(id);
          int b =
              add(
                  buffers,
                  tensors,
                  index,
                  id,
                  en.tensor(),
                  new LmemBuffer(
                      id,
                      LmemBuffer.Kind.WEIGHT,
                      ts[e],
                      opRow[i],
                      OpSemantics.weightLmemBytes(graph, op, en.tensor(), chip),
                      sliced));
          if (fresh) {
            gdma.get(ts[e]).add(b);
          }
        }
        case INPUT -> {
          int b =
              activation(
                  graph,
                  chip,
                  slices,
                  buffers,
                  tensors,
                  index,
                  en.tensor(),
                  ts[e],
                  lastUse.get(en.tensor()));
          gdma.get(ts[e]).add(b);
        }
        case OP -> {
          long sb = scratchBytes(graph, chip, op, slices);
          if (sb > 0) {
            String id = op.name() + "/scratch";
            scratch
                .get(i)
                .add(
                    add(
                        buffers,
                        tensors,
                        index,
                        id,
                        "",
                        new LmemBuffer(
                            id, LmemBuffer.Kind.SCRATCH, opRow[i], opRow[i], sb, false)));
          }
        }
        case RESULT -> {
          int end = Math.max(lastUse.getOrDefault(en.tensor(), opRow[i]), en.output() ? ts[e] : 0);
          int b =
              activation(graph, chip, slices, buffers, tensors, index, en.tensor(), opRow[i], end);
          results.get(i).add(b);
          if (en.output()) {
            gdma.get(ts[e]).add(b);
          }
        }
      }
    }
    for (int i = 0; i < k; i++) {
      Op op = ops.get(i);
      for (String t : op.inputs()) {
        if (t.isEmpty()) {
          continue;
        }
        String id = GroupBoundary.isActivation(graph, t) ? t : op.name() + "/" + t;
        operands.get(i).add(index.get(id));
      }
      tiu.get(opRow[i])
          .add(new Timestep.TiuOp(op.name(), operands.get(i), results.get(i), scratch.get(i)));
    }
    List<Timestep> table = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      table.add(new Timestep(tiu.get(r), gdma.get(r)));
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

  /** Per-lane bytes of {@code op}'s scratch buffer for its largest input and output slices. */
  static long scratchBytes(Graph graph, Chip chip, Op op, Map<String, SliceInfo> slices) {
    return OpSemantics.scratchBytes(
        graph,
        op,
        chip,
        maxSlice(graph, op.inputs().get(0), slices),
        maxSlice(graph, op.outputs().get(0), slices));
  }

  /** The largest slice of {@code tensor} per axis (the whole tensor when it is not sliced). */
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
