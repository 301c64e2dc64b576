package io.github.memplan.solvers.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.group.Axis;
import io.github.memplan.core.group.GroupBoundary;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.GroupingBound;
import io.github.memplan.core.group.Nchw;
import io.github.memplan.core.group.Range;
import io.github.memplan.core.group.RooflineCostModel;
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
 *   <li><b>Without slices</b> ({@link #range}): {@link GroupingBound#part}, the bound over every
 *       secs that {@code lower-bound-cycles} and {@code lower-bound-ddr-bytes} are built from
 *       (weights, group outputs and the rows of every group input that every valid group loads;
 *       proof in its class comment).
 *   <li><b>TIU.</b> Every op runs once per iteration on its output slice, costing {@code ceil(x ·
 *       f_it)} with {@code x} its whole-op work per cycle and {@code f_it} the slice's fraction of
 *       the output. Since {@code Σ ceil(y_i) >= Σ y_i}, its cycles are at least {@code x · Σ_it
 *       f_it}, and as the fraction is a product over axes and the iterations run over every
 *       combination of axis slices, {@code Σ_it f_it = Π_axis (Σ_slices len / dim)} (an axis with
 *       one slice under {@code k} loop counts contributes {@code k · len / dim}).
 *   <li><b>GDMA.</b> {@code Σ_r ceil(b_r / bw) >= (Σ_r b_r) / bw}. Every group output is stored
 *       slice by slice and its slices partition it (its bytes move once); every weight is loaded
 *       whole at least once (held or not); every group input is loaded in every iteration, {@code
 *       Π_axis Σ_slices len} elements in all.
 *   <li><b>Fill and drain</b>. In the first step of the loop only the stage-0 transfers of
 *       iteration 0 run (the loads of the first op's operands, as {@code Timesteps2026} stages
 *       them) and in the last only the stage-2 transfers of the last iteration (the stores of the
 *       last op's group outputs); no TIU op runs in either. So the cycles are also at least the
 *       whole TIU sum plus the GDMA cycles of those two steps.
 * </ul>
 *
 * One cycle per term is given away for floating-point rounding. Stateless.
 */
public final class RooflineBounds {
  private final RooflineCostModel model;
  private final Graph graph;
  private final Chip chip;
  private final boolean ddr;
  private final GroupingBound ranges;

  /**
   * The bounds of the groups whose tables the timestep method {@code methodId} builds ({@link
   * GroupingBound#forMethod}).
   */
  public RooflineBounds(RooflineCostModel model, GroupProblem p, String methodId) {
    this.model = model;
    this.graph = p.graph();
    this.chip = p.chip();
    this.ddr = p.options().objective() == GroupOptions.Objective.DDR_BYTES;
    this.ranges = GroupingBound.forMethod(model, p, methodId);
  }

  /** A bound over every secs of the group of the ops {@code first..last} of the order. */
  long range(int first, int last) {
    GroupingBound.Part part = ranges.part(first, last);
    return ddr ? part.bytes() : part.cycles();
  }

  /** A bound for the group {@code ops} sliced as {@code slices}. */
  public long sliced(List<Op> ops, GroupBoundary io, Map<String, SliceInfo> slices) {
    long[] counts = counts(slices);
    double bytes = 0;
    Set<String> weights = new HashSet<>();
    for (Op op : ops) {
      for (String t : op.inputs()) {
        if (!t.isEmpty() && !GroupBoundary.isActivation(graph, t) && weights.add(t)) {
          bytes += graph.tensor(t).bytes();
        }
      }
    }
    for (String out : io.outputs()) {
      bytes += graph.tensor(out).bytes();
    }
    for (String in : io.inputs()) {
      Tensor t = graph.tensor(in);
      SliceInfo si = slices.get(in);
      double elems = si == null ? t.shape().elements() * loops(counts) : elements(si, counts);
      bytes += elems * t.dtype().bits() / 8.0;
    }
    if (ddr) {
      return Math.max(0, (long) Math.floor(bytes) - 1);
    }
    double tiu = 0;
    for (Op op : ops) {
      double x = Math.max(0, model.tiuCycles(graph, op, chip) - 1);
      String out = op.outputs().get(0);
      SliceInfo si = slices.get(out);
      Nchw whole = Nchw.of(graph.tensor(out).shape());
      x *=
          si == null
              ? loops(counts)
              : elements(si, counts) / ((double) whole.n() * whole.c() * whole.h() * whole.w());
      tiu += Math.max(0, x - 1);
    }
    long gdma = Math.max(0, model.gdmaCycles((long) Math.floor(bytes), chip) - 1);
    long edges = fillAndDrain(ops, io, slices);
    return Math.max((long) Math.floor(tiu) + edges, gdma);
  }

  /**
   * GDMA cycles of the first pipeline step (the stage-0 loads of iteration 0: every operand of the
   * first op, weights whole) plus those of the last (the stage-2 stores of iteration {@code L - 1}:
   * the last op's group outputs), neither of which overlaps any TIU work.
   */
  private long fillAndDrain(List<Op> ops, GroupBoundary io, Map<String, SliceInfo> slices) {
    long first = 0;
    Set<String> seen = new HashSet<>();
    for (String t : ops.get(0).inputs()) {
      if (t.isEmpty() || !seen.add(t)) {
        continue;
      }
      SliceInfo si = slices.get(t);
      first +=
          !GroupBoundary.isActivation(graph, t) || si == null
              ? graph.tensor(t).bytes()
              : graph.tensor(t).dtype().bytes(edgeElements(si, 0));
    }
    long last = 0;
    Set<String> outs = new HashSet<>(io.outputs());
    for (String t : ops.get(ops.size() - 1).outputs()) {
      SliceInfo si = slices.get(t);
      if (outs.contains(t)) {
        last +=
            si == null
                ? graph.tensor(t).bytes()
                : graph.tensor(t).dtype().bytes(edgeElements(si, -1));
      }
    }
    return Math.max(0, model.gdmaCycles(first, chip) - 1)
        + Math.max(0, model.gdmaCycles(last, chip) - 1);
  }

  /** Elements of the first ({@code which == 0}) or last ({@code -1}) slice of every axis. */
  private static long edgeElements(SliceInfo si, int which) {
    long e = 1;
    for (Axis a : Axis.values()) {
      List<Range> l = si.get(a);
      e *= l.get(which == 0 ? 0 : l.size() - 1).len();
    }
    return e;
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
