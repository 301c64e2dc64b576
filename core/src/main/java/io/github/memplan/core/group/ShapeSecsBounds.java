package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Tensor;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.Timestep;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The bounds of TPU-MLIR's shape-secs search for one candidate group ({@code get_group_max_secs},
 * {@code init_group_data_secs}; {@code reference/tpu-mlir.md} §2.6), shared by the quick search of
 * {@code tpumlir-greedy}/{@code tpumlir-dp} and the exhaustive secs space of {@code group-dp-best}.
 *
 * <pre>
 * every shape in the group type's layout ({@link GroupType#view})
 * max: nsecs = min(n of the first op's operand 0 (and 1 for Add/Sub/Mul/Div/Max/Min/MatMul),
 *      ceil(n / n_align) over op outputs), 1 if an op refuses N split; csecs = min ceil(c /
 *      NPU_NUM) over op outputs in MM and SMALL_C groups when every op splits C, else 1; hsecs =
 *      min h (1 if an op refuses H); wsecs = min w on the BM1684X family when W may be split and
 *      w · dtype_bytes &gt; DMA_ALGN_BYTES, else 1
 * init (per op): secs = ceil((in0 + out0 + scratch + other operands (weights whole) + other
 *      results) / LMEM_BYTES); nsecs = max(nsecs, min(secs, max n)); secs = ceil(secs / nsecs);
 *      MM/SMALL_C: csecs = max c if secs &gt; max c, else max(csecs, ceil(max c / (max c / secs)));
 *      secs = ceil(secs / csecs); hsecs = max(hsecs, secs); above max h: wsecs = ceil(hsecs /
 *      max h) (invalid when above max w), hsecs = max h
 * update_data_split: {@link #updateDataSplit}, from the peak live LMEM of the initial secs' table
 * </pre>
 *
 * <p>Read in {@code lib/Dialect/Tpu/Transforms/LayerGroup/LayerGroupUtil.cpp} of {@code
 * sophgo/tpu-mlir} (the stored version whose {@code update_data_split} takes {@code LgOptions};
 * {@code reference/tpu-mlir.md} reads 36e3c625a), and {@code LmemAllocator.cpp}'s {@code
 * assignLmemAddrWithSecs}, which keeps the initial secs when {@code update_data_split} fails.
 *
 * <p>Departures: GROUP_3D is not modelled, so D does not exist; {@code max_wsecs} also needs {@code
 * w · dtype_bytes > DMA_ALGN_BYTES}, a rule of {@code reference/tpu-mlir.md} §2.6 not in the stored
 * version read. {@code update_data_split} slices with the group's idx slicing ({@link Slicing}) and
 * sizes each buffer by its largest slice, which is what {@code stripe_mine_max_slice} gives; the
 * table whose lifetimes it reads is the one the timestep method built under the initial secs, as in
 * the source.
 */
public final class ShapeSecsBounds {
  private ShapeSecsBounds() {}

  /** {@code max_*secs} of the group {@code ops} under its {@link GroupType} (today's rules). */
  public static ShapeSecs maxSecs(Graph graph, List<Op> ops, Chip chip) {
    return maxSecs(graph, ops, chip, GroupType.of(graph, ops, chip));
  }

  /** {@code get_group_max_secs} of the group {@code ops} of type {@code type}. */
  public static ShapeSecs maxSecs(Graph graph, List<Op> ops, Chip chip, GroupType type) {
    Op first = ops.get(0);
    long n = type.view(graph, first.inputs().get(0), chip).n();
    if (FIRST_OP_TWO_OPERANDS.contains(OpSemantics.kind(first))
        && first.inputs().size() > 1
        && !first.inputs().get(1).isEmpty()) {
      n = Math.max(n, type.view(graph, first.inputs().get(1), chip).n());
    }
    long c = Long.MAX_VALUE;
    long h = Long.MAX_VALUE;
    long w = Long.MAX_VALUE;
    boolean splitC = type == GroupType.MM || type == GroupType.SMALL_C;
    boolean splitW = OpSemantics.bm1684xFamily(chip);
    for (Op op : ops) {
      for (String out : op.outputs()) {
        Tensor t = graph.tensor(out);
        Nchw s = type.view(t.shape(), chip);
        n =
            OpSemantics.allowSplit(graph, op, Axis.N, type)
                ? Math.min(n, OpSemantics.ceilDiv(s.n(), Slicing.nAlign(graph, out, chip)))
                : 1;
        c =
            splitC && OpSemantics.allowSplit(graph, op, Axis.C, type)
                ? Math.min(c, OpSemantics.ceilDiv(s.c(), chip.lanes()))
                : 1;
        h = OpSemantics.allowSplit(graph, op, Axis.H, type) ? Math.min(h, s.h()) : 1;
        boolean wOk =
            splitW
                && OpSemantics.allowSplit(graph, op, Axis.W, type)
                && t.dtype().bytes(s.w()) > chip.dmaAlignBytes();
        w = wOk ? Math.min(w, s.w()) : 1;
      }
    }
    return new ShapeSecs(clamp(n), clamp(c), clamp(h), clamp(w));
  }

  /**
   * The first op kinds whose operand 1 counts for the max nsecs ({@code Add, Sub, Mul, Div, Max,
   * Min, MatMul} in {@code get_group_max_secs}).
   */
  private static final Set<io.github.memplan.core.ir.OpKind> FIRST_OP_TWO_OPERANDS =
      java.util.EnumSet.of(
          io.github.memplan.core.ir.OpKind.ADD,
          io.github.memplan.core.ir.OpKind.SUB,
          io.github.memplan.core.ir.OpKind.MUL,
          io.github.memplan.core.ir.OpKind.DIV,
          io.github.memplan.core.ir.OpKind.MAX,
          io.github.memplan.core.ir.OpKind.MIN,
          io.github.memplan.core.ir.OpKind.MAT_MUL,
          io.github.memplan.core.ir.OpKind.GEMM);

  /**
   * {@code init_group_data_secs} of the group {@code ops} under its {@link GroupType}; empty when
   * one op does not fit even at the maximum split.
   */
  public static Optional<ShapeSecs> initialSecs(
      Graph graph, List<Op> ops, Chip chip, ShapeSecs max) {
    return initialSecs(graph, ops, chip, max, GroupType.of(graph, ops, chip));
  }

  /**
   * {@code init_group_data_secs} of the group {@code ops} of type {@code type}: per op, in the
   * type's layout, {@code total = in0 + out0 + scratch + other operands (weights whole) + other
   * results}, {@code secs = ceil(total / LMEM_BYTES)}; N takes what it can; in MM and SMALL_C
   * groups C takes {@code max c} when {@code secs} exceeds it, else {@code ceil(max c / (max c /
   * secs))} (every slice a whole number of channels per lane); H takes the rest; above the max h,
   * {@code wsecs = ceil(hsecs / max h)} (fails above the max w) and {@code hsecs = max h}, op by op
   * as the source does (so a later op's W need replaces an earlier one's).
   */
  public static Optional<ShapeSecs> initialSecs(
      Graph graph, List<Op> ops, Chip chip, ShapeSecs max, GroupType type) {
    long nsecs = 1;
    long csecs = 1;
    long hsecs = 1;
    long wsecs = 1;
    boolean splitC = type == GroupType.MM || type == GroupType.SMALL_C;
    for (Op op : ops) {
      long total = 0;
      for (String in : op.inputs()) {
        if (in.isEmpty()) {
          continue;
        }
        total +=
            GroupBoundary.isActivation(graph, in)
                ? whole(graph, chip, in, type)
                : OpSemantics.weightLmemBytes(graph, op, in, chip);
      }
      for (String out : op.outputs()) {
        total += whole(graph, chip, out, type);
      }
      total +=
          OpSemantics.scratchBytes(
              graph,
              op,
              chip,
              type.view(graph, op.inputs().get(0), chip),
              type.view(graph, op.outputs().get(0), chip));
      long secs = OpSemantics.ceilDiv(total, chip.lmemBytesPerLane());
      nsecs = Math.max(nsecs, Math.min(secs, max.nsecs()));
      secs = OpSemantics.ceilDiv(secs, nsecs);
      if (splitC) {
        if (secs > max.csecs()) {
          csecs = max.csecs();
        } else {
          long cslicePerNpu = max.csecs() / secs;
          csecs = Math.max(OpSemantics.ceilDiv(max.csecs(), cslicePerNpu), csecs);
        }
        secs = OpSemantics.ceilDiv(secs, csecs);
      }
      hsecs = Math.max(hsecs, secs);
      if (hsecs > max.hsecs()) {
        wsecs = OpSemantics.ceilDiv(hsecs, max.hsecs());
        if (wsecs > max.wsecs()) {
          return Optional.empty();
        }
        hsecs = max.hsecs();
      }
    }
    return Optional.of(new ShapeSecs((int) nsecs, (int) csecs, (int) hsecs, (int) wsecs));
  }

  /**
   * {@code get_split_max_secs} ({@code LayerGroupUtil.cpp}): per row of {@code table}, the bytes of
   * the buffers live in it, with {@code sizes} in place of the table's own ({@code
   * update_all_mem_buffer_size}); the largest row over the lane's LMEM, rounded up; 0 for a table
   * without rows. A buffer counts in the rows {@code start..end} of the table, wrapping when {@code
   * start > end}; a held weight too counts only there, as the source reads {@code start_ts} and
   * {@code end_ts} alone.
   */
  public static long splitMaxSecs(LmemInstance table, long[] sizes, Chip chip) {
    int rows = table.timestepCount();
    if (rows == 0) {
      return 0;
    }
    long[] req = new long[rows];
    List<LmemBuffer> buffers = table.buffers();
    for (int b = 0; b < buffers.size(); b++) {
      LmemBuffer buf = buffers.get(b);
      for (int ts = 0; ts < rows; ts++) {
        boolean live =
            buf.start() <= buf.end()
                ? ts >= buf.start() && ts <= buf.end()
                : ts >= buf.start() || ts <= buf.end();
        if (live) {
          req[ts] += sizes[b];
        }
      }
    }
    long peak = 0;
    for (long r : req) {
      peak = Math.max(peak, r);
    }
    return OpSemantics.ceilDiv(peak, chip.lmemBytesPerLane());
  }

  /**
   * Per buffer of {@code table}, its per-lane bytes under {@code slices} ({@code
   * update_all_mem_buffer_size} after {@code stripe_mine_max_slice}): an activation its largest
   * slice, EU-aligned; a weight its own size (weights are loaded whole); a scratch buffer its op's
   * scratch for the largest slices of the op's first input and output (the op read off the table's
   * TIU rows).
   */
  public static long[] bufferSizes(
      Graph graph, Chip chip, GroupTimesteps table, Map<String, SliceInfo> slices) {
    List<LmemBuffer> buffers = table.lmem().buffers();
    String[] scratchOf = new String[buffers.size()];
    for (Timestep row : table.lmem().timesteps()) {
      for (Timestep.TiuOp op : row.tiu()) {
        for (int b : op.scratch()) {
          scratchOf[b] = op.op();
        }
      }
    }
    long[] out = new long[buffers.size()];
    for (int b = 0; b < out.length; b++) {
      LmemBuffer buf = buffers.get(b);
      out[b] =
          switch (buf.kind()) {
            case WEIGHT -> buf.bytes();
            case ACTIVATION -> V0Timesteps.bytes(graph, chip, table.tensors().get(b), slices);
            case SCRATCH ->
                scratchOf[b] == null
                    ? buf.bytes()
                    : V0Timesteps.scratchBytes(graph, chip, graph.op(scratchOf[b]), slices);
          };
    }
    return out;
  }

  /**
   * {@code update_data_split} ({@code LayerGroupUtil.cpp}), called by {@code
   * assignLmemAddrWithSecs} before the quick search, on the table {@code table} that {@code
   * is_layer_group_valid} built under the initial secs:
   *
   * <pre>
   * secs = all 1
   * for nsec = 1 .. max n:
   *   secs.n = nsec; slice the group under secs (stripe_mine_max_slice): fails -&gt; false
   *   cdhw = get_split_max_secs(table with the buffers sized by these slices); 0 -&gt; false
   *   secs.c = max(secs.c, min(max c, cdhw)); dhw = ceil(cdhw / secs.c)
   *   if dhw &gt; 1: if nsec == max n: assign_dhwsecs(dhw) else: secs = all 1; next nsec
   *   if d, h, w within max: true (with secs)
   * false
   * </pre>
   *
   * The caller keeps its initial secs when this answers empty (false), as {@code
   * assignLmemAddrWithSecs} does. N is raised first: H and W are assigned only at the largest
   * nsecs; C (only in GROUP_MM and GROUP_SMALL_C groups, whose max c exceeds 1) takes what it can
   * at the current nsecs before N grows.
   */
  public static Optional<ShapeSecs> updateDataSplit(
      Graph graph, List<Op> ops, Chip chip, GroupTimesteps table, SliceRules rules, ShapeSecs max) {
    for (int nsec = 1; nsec <= max.nsecs(); nsec++) {
      ShapeSecs secs = new ShapeSecs(nsec, 1, 1, 1);
      SliceResult r = Slicing.slice(graph, ops, chip, secs, rules);
      if (!(r instanceof SliceResult.Sliced sliced)) {
        return Optional.empty();
      }
      long cdhw =
          splitMaxSecs(table.lmem(), bufferSizes(graph, chip, table, sliced.slices()), chip);
      if (cdhw == 0) {
        return Optional.empty();
      }
      int csecs = clamp(Math.min(max.csecs(), cdhw));
      long dhw = OpSemantics.ceilDiv(cdhw, csecs);
      secs = new ShapeSecs(nsec, csecs, 1, 1);
      if (dhw > 1) {
        if (nsec != max.nsecs()) {
          continue;
        }
        secs =
            assignDhw(graph, ops, chip, rules.groupType(graph, ops, chip), secs, clamp(dhw), max);
      }
      if (secs.hsecs() <= max.hsecs() && secs.wsecs() <= max.wsecs()) {
        return Optional.of(secs);
      }
    }
    return Optional.empty();
  }

  /**
   * {@code assign_dhwsecs}, 2-D case (D is not modelled), as the source computes it:
   *
   * <pre>
   * h = dhw, w = 1
   * Σh, Σw (floats) over the outputs of every op of the group that have a user
   * min = FLT_MAX
   * for i = max h down to 1: w' = ceil(dhw / i)
   *   len = (int) ((i - 1) + (w' - 1) · (Σh / Σw))       -- float, truncated toward 0
   *   if len &lt; min and can_split_w(dhw, max h, w') and w' &lt;= max w: min = len; h = i; w = w'
   * can_split_w: when dhw &lt; max h and w' &gt; 1, every group output needs ceil(w / w') ·
   *   dtype_bytes &gt;= 256
   * </pre>
   *
   * Scanning from the largest h with a strict {@code <}, the larger hsecs wins a tie. The caller
   * continues from {@code dhw = h · w} ({@code dhw_secs} is passed by reference); when no pair is
   * allowed, {@code h = dhw} may exceed the max h and the caller's loop ends.
   */
  public static ShapeSecs assignDhw(
      Graph graph,
      List<Op> ops,
      Chip chip,
      GroupType type,
      ShapeSecs secs,
      int dhw,
      ShapeSecs max) {
    float hLen = 0f;
    float wLen = 0f;
    Set<String> graphOutputs = new HashSet<>(graph.outputs());
    for (Op op : ops) {
      for (String out : op.outputs()) {
        if (graph.consumers(out).isEmpty() && !graphOutputs.contains(out)) {
          continue; // out.use_empty()
        }
        Nchw s = type.view(graph, out, chip);
        hLen += (float) s.h();
        wLen += (float) s.w();
      }
    }
    float ratio = wLen == 0f ? 0f : hLen / wLen;
    List<String> groupOuts = GroupBoundary.of(graph, ops).outputs();
    int bestH = dhw;
    int bestW = 1;
    float minLen = Float.MAX_VALUE;
    for (int i = max.hsecs(); i > 0; i--) {
      int w = (int) OpSemantics.ceilDiv(dhw, i);
      int len = (int) ((i - 1) + (w - 1) * ratio);
      if (len < minLen
          && canSplitW(graph, chip, type, groupOuts, dhw, max.hsecs(), w)
          && w <= max.wsecs()) {
        minLen = len;
        bestH = i;
        bestW = w;
      }
    }
    return new ShapeSecs(secs.nsecs(), secs.csecs(), bestH, bestW);
  }

  /**
   * Why {@code secs} lies outside what today's code lets the group {@code ops} take under {@code
   * rules} ({@link SliceRules#boundsSecs}): above {@code get_group_max_secs} on some axis, or a W
   * split that {@code can_split_w} refuses. Empty when inside, or when the rules do not bound secs.
   */
  public static Optional<String> whyOutOfBounds(
      Graph graph, List<Op> ops, Chip chip, ShapeSecs secs, SliceRules rules) {
    if (!rules.boundsSecs()) {
      return Optional.empty();
    }
    GroupType type = rules.groupType(graph, ops, chip);
    ShapeSecs max = maxSecs(graph, ops, chip, type);
    for (Axis a : Axis.values()) {
      if (secs.secs(a) > max.secs(a)) {
        return Optional.of(
            a + " secs " + secs.secs(a) + " above get_group_max_secs' " + max.secs(a));
      }
    }
    List<String> outs = GroupBoundary.of(graph, ops).outputs();
    long dhw = (long) secs.hsecs() * secs.wsecs();
    return tooNarrowForW(graph, chip, type, outs, dhw, max.hsecs(), secs.wsecs())
        .map(
            out ->
                "W secs "
                    + secs.wsecs()
                    + " leave "
                    + out
                    + "'s w slice at "
                    + wSliceBytes(graph, chip, type, out, secs.wsecs())
                    + " bytes, under "
                    + MIN_W_SLICE_BYTES
                    + ", with h·w secs "
                    + dhw
                    + " below the max H secs "
                    + max.hsecs()
                    + " (can_split_w)");
  }

  /**
   * {@code can_split_w}: when {@code dhw < heightMin} and {@code wsecs > 1}, every group output's w
   * slice, {@code ceil(w / wsecs) · dtype_bytes}, must be at least 256 bytes.
   */
  public static boolean canSplitW(
      Graph graph,
      Chip chip,
      GroupType type,
      List<String> groupOuts,
      long dhw,
      long heightMin,
      long wsecs) {
    return tooNarrowForW(graph, chip, type, groupOuts, dhw, heightMin, wsecs).isEmpty();
  }

  /** The first group output whose w slice {@link #canSplitW} refuses, if any. */
  private static Optional<String> tooNarrowForW(
      Graph graph,
      Chip chip,
      GroupType type,
      List<String> groupOuts,
      long dhw,
      long heightMin,
      long wsecs) {
    if (dhw < heightMin && wsecs > 1) {
      for (String out : groupOuts) {
        if (wSliceBytes(graph, chip, type, out, wsecs) < MIN_W_SLICE_BYTES) {
          return Optional.of(out);
        }
      }
    }
    return Optional.empty();
  }

  /** The bytes of {@code out}'s w slice at {@code wsecs}: {@code ceil(w / wsecs) · dtype_bytes}. */
  private static long wSliceBytes(Graph graph, Chip chip, GroupType type, String out, long wsecs) {
    Tensor t = graph.tensor(out);
    return OpSemantics.ceilDiv(type.view(t.shape(), chip).w(), wsecs)
        * Math.max(1, t.dtype().bits() / 8);
  }

  /**
   * {@code increase_nsecs} and {@code increase_csecs} of {@code LmemAllocator.cpp}: the next secs
   * after {@code secs} that strictly shrinks {@code ceil(max / secs)}, {@code max} itself at most;
   * the source takes the max secs as the length it divides.
   */
  public static int increaseSecs(int secs, int max) {
    long slice = OpSemantics.ceilDiv(max, secs);
    int next = secs;
    long nextSlice;
    do {
      next++;
      nextSlice = OpSemantics.ceilDiv(max, next);
    } while (nextSlice >= slice && next < max);
    return next;
  }

  /** {@code can_split_w}'s smallest w slice, in bytes. */
  public static final long MIN_W_SLICE_BYTES = 256;

  /** Whether every secs of {@code s} is within {@code max}. */
  public static boolean within(ShapeSecs s, ShapeSecs max) {
    return s.nsecs() <= max.nsecs()
        && s.csecs() <= max.csecs()
        && s.hsecs() <= max.hsecs()
        && s.wsecs() <= max.wsecs();
  }

  private static long whole(Graph graph, Chip chip, String tensor, GroupType type) {
    Tensor t = graph.tensor(tensor);
    return OpSemantics.lmemBytes(chip, type.view(t.shape(), chip), t.dtype(), true);
  }

  private static int clamp(long v) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, v));
  }
}
