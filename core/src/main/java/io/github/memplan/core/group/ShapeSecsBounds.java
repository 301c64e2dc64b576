package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Tensor;
import java.util.List;
import java.util.Optional;

/**
 * The bounds of TPU-MLIR's shape-secs search for one candidate group ({@code get_group_max_secs},
 * {@code init_group_data_secs}; {@code reference/tpu-mlir.md} §2.6), shared by the quick search of
 * {@code tpumlir-greedy}/{@code tpumlir-dp} and the exhaustive secs space of {@code group-dp-best}.
 *
 * <pre>
 * max: nsecs = min ceil(n / n_align) over op outputs (1 if an op refuses N split); csecs = 1;
 *      hsecs = min h (1 if an op refuses H); wsecs = min w on the BM1684X family when W may be
 *      split and w · dtype_bytes &gt; DMA_ALGN_BYTES, else 1
 * init (per op): secs = ceil((in0 + out0 + scratch + other operands (weights whole) + other
 *      results) / LMEM_BYTES); nsecs = max(nsecs, min(secs, max n)); secs = ceil(secs / nsecs);
 *      hsecs = max(hsecs, secs); above max h: wsecs = ceil(hsecs / max h), hsecs = max h;
 *      invalid when wsecs &gt; max w
 * </pre>
 *
 * <p>Departures: group types are not modelled (every group is GROUP_NORMAL), so C is never split
 * and D does not exist.
 */
public final class ShapeSecsBounds {
  private ShapeSecsBounds() {}

  /** {@code max_*secs}. */
  public static ShapeSecs maxSecs(Graph graph, List<Op> ops, Chip chip) {
    long n = Long.MAX_VALUE;
    long h = Long.MAX_VALUE;
    long w = Long.MAX_VALUE;
    boolean splitW = OpSemantics.bm1684xFamily(chip);
    for (Op op : ops) {
      for (String out : op.outputs()) {
        Tensor t = graph.tensor(out);
        Nchw s = Nchw.of(t.shape());
        n =
            Math.min(
                n,
                OpSemantics.allowSplit(graph, op, Axis.N)
                    ? OpSemantics.ceilDiv(s.n(), Slicing.nAlign(graph, out, chip))
                    : 1);
        h = Math.min(h, OpSemantics.allowSplit(graph, op, Axis.H) ? s.h() : 1);
        boolean wOk =
            splitW
                && OpSemantics.allowSplit(graph, op, Axis.W)
                && t.dtype().bytes(s.w()) > chip.dmaAlignBytes();
        w = Math.min(w, wOk ? s.w() : 1);
      }
    }
    return new ShapeSecs(clamp(n), 1, clamp(h), clamp(w));
  }

  /** {@code init_group_data_secs}; empty when one op does not fit even at the maximum split. */
  public static Optional<ShapeSecs> initialSecs(
      Graph graph, List<Op> ops, Chip chip, ShapeSecs max) {
    long nsecs = 1;
    long hsecs = 1;
    long wsecs = 1;
    for (Op op : ops) {
      long total = 0;
      for (String in : op.inputs()) {
        if (in.isEmpty()) {
          continue;
        }
        total +=
            GroupIo.isActivation(graph, in)
                ? whole(graph, chip, in)
                : OpSemantics.weightLmemBytes(graph, op, in, chip);
      }
      for (String out : op.outputs()) {
        total += whole(graph, chip, out);
      }
      total +=
          OpSemantics.scratchBytes(
              graph,
              op,
              chip,
              Nchw.of(graph.tensor(op.inputs().get(0)).shape()),
              Nchw.of(graph.tensor(op.outputs().get(0)).shape()));
      long secs = OpSemantics.ceilDiv(total, chip.lmemBytesPerLane());
      nsecs = Math.max(nsecs, Math.min(secs, max.nsecs()));
      secs = OpSemantics.ceilDiv(secs, nsecs);
      hsecs = Math.max(hsecs, secs);
    }
    if (hsecs > max.hsecs()) {
      wsecs = OpSemantics.ceilDiv(hsecs, max.hsecs());
      hsecs = max.hsecs();
      if (wsecs > max.wsecs()) {
        return Optional.empty();
      }
    }
    return Optional.of(new ShapeSecs((int) nsecs, 1, (int) hsecs, (int) wsecs));
  }

  /** Whether every secs of {@code s} is within {@code max}. */
  public static boolean within(ShapeSecs s, ShapeSecs max) {
    return s.nsecs() <= max.nsecs()
        && s.csecs() <= max.csecs()
        && s.hsecs() <= max.hsecs()
        && s.wsecs() <= max.wsecs();
  }

  private static long whole(Graph graph, Chip chip, String tensor) {
    Tensor t = graph.tensor(tensor);
    return OpSemantics.lmemBytes(chip, Nchw.of(t.shape()), t.dtype(), true);
  }

  private static int clamp(long v) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, v));
  }
}
