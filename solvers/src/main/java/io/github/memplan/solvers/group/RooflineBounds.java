package io.github.memplan.solvers.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.cost.RooflineCostModel;
import io.github.memplan.core.group.Axis;
import io.github.memplan.core.group.GroupIo;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.Nchw;
import io.github.memplan.core.group.SliceInfo;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Tensor;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lower bounds on the objective of a group under {@link RooflineCostModel}, so that a search can
 * skip what cannot win. Both rest on the structure of that model (its class comment): a group's
 * cycles are a sum over (pipeline step, row) of {@code max(TIU, GDMA)}, hence at least the sum of
 * all TIU terms and at least the sum of all GDMA terms; its DDR bytes are the sum of its transfers.
 *
 * <ul>
 *   <li><b>TIU.</b> Every op runs once per iteration on its output slice, costing {@code ceil(x ·
 *       f_it)} with {@code x} its whole-op work per cycle and {@code f_it} the slice's fraction of
 *       the output. Since {@code Σ ceil(y_i) >= Σ y_i}, its cycles are at least {@code x · Σ_it
 *       f_it}, and as the fraction is a product over axes and the iterations run over every
 *       combination of axis slices, {@code Σ_it f_it = Π_axis (Σ_slices len / dim)} (an axis with
 *       one slice under {@code k} loop counts contributes {@code k · len / dim}). Without slices
 *       ({@link #range}): every output slice partition sums to the whole, so at least {@code x}.
 *   <li><b>GDMA.</b> {@code Σ_r ceil(b_r / bw) >= (Σ_r b_r) / bw}. Every group output is stored
 *       slice by slice and its slices partition it (its bytes move once); every weight is loaded
 *       whole at least once (held or not); with slices ({@link #sliced}), every group input is
 *       loaded in every iteration, {@code Π_axis Σ_slices len} elements in all.
 * </ul>
 *
 * One cycle per term is given away for floating-point rounding. Stateless.
 */
final class RooflineBounds {
  private final RooflineCostModel model;
  private final Graph graph;
  private final Chip chip;
  private final boolean ddr;

  RooflineBounds(
      RooflineCostModel model, Graph graph, Chip chip, GroupOptions.Objective objective) {
    this.model = model;
    this.graph = graph;
    this.chip = chip;
    this.ddr = objective == GroupOptions.Objective.DDR_BYTES;
  }

  /** A bound over every secs of the group {@code ops}. */
  long range(List<Op> ops) {
    return bound(ops, GroupIo.of(graph, ops), null);
  }

  /** A bound for the group {@code ops} sliced as {@code slices}. */
  long sliced(List<Op> ops, GroupIo io, Map<String, SliceInfo> slices) {
    return bound(ops, io, slices);
  }

  private long bound(List<Op> ops, GroupIo io, Map<String, SliceInfo> slices) {
    long[] counts = slices == null ? null : counts(slices);
    double bytes = 0;
    Set<String> weights = new HashSet<>();
    for (Op op : ops) {
      for (String t : op.inputs()) {
        if (!t.isEmpty() && !GroupIo.isActivation(graph, t) && weights.add(t)) {
          bytes += graph.tensor(t).bytes();
        }
      }
    }
    for (String out : io.outputs()) {
      bytes += graph.tensor(out).bytes();
    }
    if (slices != null) {
      for (String in : io.inputs()) {
        Tensor t = graph.tensor(in);
        SliceInfo si = slices.get(in);
        double elems = si == null ? t.shape().elements() * loops(counts) : elements(si, counts);
        bytes += elems * t.dtype().bits() / 8.0;
      }
    }
    if (ddr) {
      return Math.max(0, (long) Math.floor(bytes) - 1);
    }
    double tiu = 0;
    for (Op op : ops) {
      double x = Math.max(0, model.tiuCycles(graph, op, chip) - 1);
      if (slices != null) {
        String out = op.outputs().get(0);
        SliceInfo si = slices.get(out);
        Nchw whole = Nchw.of(graph.tensor(out).shape());
        x *=
            si == null
                ? loops(counts)
                : elements(si, counts) / ((double) whole.n() * whole.c() * whole.h() * whole.w());
      }
      tiu += Math.max(0, x - 1);
    }
    long gdma = Math.max(0, model.gdmaCycles((long) Math.floor(bytes), chip) - 1);
    return Math.max((long) Math.floor(tiu), gdma);
  }

  /** {@code Σ_it} of the slice's elements: {@code Π_axis} of its slice lengths summed. */
  private static double elements(SliceInfo si, long[] counts) {
    double e = 1;
    for (Axis a : Axis.values()) {
      List<?> l = si.get(a);
      e *= l.size() == 1 ? counts[a.ordinal()] * (double) si.total(a) : si.total(a);
    }
    return e;
  }

  private static double loops(long[] counts) {
    double l = 1;
    for (long c : counts) {
      l *= c;
    }
    return l;
  }

  /** Loop counts per axis, as the cost model derives them: the most slices of any tensor. */
  private static long[] counts(Map<String, SliceInfo> slices) {
    long[] counts = {1, 1, 1, 1};
    for (SliceInfo si : slices.values()) {
      for (Axis a : Axis.values()) {
        counts[a.ordinal()] = Math.max(counts[a.ordinal()], si.get(a).size());
      }
    }
    return counts;
  }
}
