package io.github.memplan.core.group;

import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.solve.Direction;
import io.github.memplan.core.solve.Metric;
import io.github.memplan.core.solve.MetricProvider;
import io.github.memplan.core.solve.Outcome;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.ToDoubleBiFunction;

/**
 * The metrics of a grouping run, costed by {@link RooflineCostModel}: {@code total-cycles}, {@code
 * ddr-bytes}, {@code groups}, {@code global-ops}, the LMEM placements' {@code bank-conflicts} and
 * {@code bank-conflict-groups} (groups with any), for planners that report them the groups whose
 * conflicts are proven unavoidable ({@code conflict-groups-unavoidable}) or left undecided ({@code
 * conflict-groups-undecided}), and the ungrouped model's {@code ungrouped-cycles} and {@code
 * ungrouped-ddr-bytes} for comparison (these need no solution). Every metric is lower-is-better;
 * {@code groups} counts as such because fewer, longer groups keep more traffic on chip, but read it
 * together with {@code global-ops}.
 *
 * <p>{@code lower-bound-cycles} and {@code lower-bound-ddr-bytes} (higher is better; they need no
 * solution) are {@link GroupingBound}'s bounds on {@code total-cycles} and {@code ddr-bytes} of
 * <em>every</em> valid grouping of the problem under the roofline model. The proof is in {@link
 * GroupingBound}'s class comment, step by step:
 *
 * <ol>
 *   <li>A grouping splits each base group into contiguous parts (its groups and its global ops);
 *       ops outside the base groups are global in every grouping. Total = Σ over parts.
 *   <li>A 1-op part costs exactly {@code globalOp}; a part of two ops or more, as a group, costs
 *       {@code Σ_(step, row) max(TIU, GDMA) >= max(Σ TIU, Σ GDMA)}.
 *   <li>Σ TIU: each op's whole-op TIU cycles times the share of its output every valid group
 *       computes (whole unless its only in-group readers skip rows), less two cycles of rounding.
 *   <li>Σ GDMA {@code >= gdma(B) - 1}, {@code B} the bytes every valid group on the range moves:
 *       every weight read, whole, once; every group output, whole; every group input, the elements
 *       in {@code Π_axis |Cov_axis|}, where {@code Cov_axis} is the union of the single-row
 *       backward ranges ({@link OpSemantics#backward} of {@code [o, o+1)}) over the rows its
 *       in-group readers must produce, propagated backwards through the range. It rests on {@code
 *       backward} being monotone, checked case by case there.
 *   <li>The minimum over all partitions, by a DP over prefix ends, is taken over every range
 *       whether or not slicing or LMEM would accept it as a group: a superset of the valid
 *       groupings, so it is at most the best valid grouping's total.
 *   <li>{@code lower-bound-cycles} is the maximum of that and Σ whole-op TIU cycles (the metric's
 *       former value) when the latter is sound ({@link GroupingBound.Totals#tiuSumHolds}).
 *   <li>Both bounds are those of the groupings built with the run's timestep method ({@link
 *       GroupingBound#forMethod}): for today's pipelined tables they also count the rows the
 *       pipeline folds across iterations and the weights the LMEM keeps from loading early ({@link
 *       GroupingBound}, section 5), so planners with the same method share one bound; a run without
 *       a grouping gets the bound of every valid grouping.
 * </ol>
 *
 * The former value alone ({@code Σ whole-op TIU}) argued that an op's slices always cover its
 * output; that fails when an op's only in-group reader skips rows (a Slice with a step), which is
 * why it is now only used when checked.
 */
public final class GroupingMetrics implements MetricProvider<GroupProblem, Grouping> {
  private static final RooflineCostModel COST = new RooflineCostModel();

  @Override
  public Class<GroupProblem> instanceType() {
    return GroupProblem.class;
  }

  private static Metric<GroupProblem, Grouping> solved(
      String id, String unit, ToDoubleBiFunction<GroupProblem, Grouping> fn) {
    return Metric.of(
        id,
        unit,
        Direction.LOWER_IS_BETTER,
        (p, o) ->
            o.status().hasSolution()
                ? OptionalDouble.of(fn.applyAsDouble(p, o.solution()))
                : OptionalDouble.empty());
  }

  private static GroupCost cost(GroupProblem p, Grouping g) {
    return COST.model(p.graph(), p.chip(), g);
  }

  private static GroupCost ungrouped(GroupProblem p, Outcome<Grouping> o) {
    return COST.ungrouped(p.graph(), p.order(), p.chip());
  }

  /** {@link GroupingBound}'s bounds for {@code p}: cycles and DDR bytes of any valid grouping. */
  public static GroupingBound.Totals computeBound(GroupProblem p) {
    return computeBound(p, null, null);
  }

  /**
   * {@link GroupingBound}'s bounds for {@code p} over the groupings built with the timestep method
   * {@code methodId} and sliced under {@code rules} ({@link GroupingBound#forGroupings}), or over
   * every valid grouping when {@code methodId} is null.
   */
  public static GroupingBound.Totals computeBound(
      GroupProblem p, String methodId, SliceRules rules) {
    boolean folded = GroupingBound.folds(methodId);
    synchronized (LAST) {
      if (LAST[0] == null
          || LAST[0].problem() != p
          || LAST[0].folded() != folded
          || !java.util.Objects.equals(LAST[0].rules(), folded ? rules : null)) {
        LAST[0] = GroupingBound.forGroupings(COST, p, methodId, rules);
      }
      return LAST[0].totals();
    }
  }

  /** The bound of the groupings built and sliced as {@code o}'s ({@link #computeBound}). */
  private static GroupingBound.Totals bound(GroupProblem p, Outcome<Grouping> o) {
    return o.status().hasSolution()
        ? computeBound(p, o.solution().timestepMethod(), o.solution().rules())
        : computeBound(p);
  }

  /**
   * The stats a planner that treats bank conflicts reports, per group whose placement had some: a
   * placement without them kept, proven unavoidable for the group's table, or undecided.
   */
  public static final String CONFLICTS_REMOVED = "conflict-groups-removed";

  public static final String CONFLICTS_UNAVOIDABLE = "conflict-groups-unavoidable";
  public static final String CONFLICTS_UNDECIDED = "conflict-groups-undecided";

  /**
   * The bank conflicts ({@link LmemBanks}) of the grouping's placements, and its groups with any.
   */
  private static long[] conflicts(Grouping g) {
    long[] out = new long[2];
    for (Group grp : g.groups()) {
      int c = LmemBanks.report(grp.timesteps().lmem(), grp.lmem()).conflictCount();
      out[0] += c;
      out[1] += c > 0 ? 1 : 0;
    }
    return out;
  }

  /** A count the planner reported in its stats, absent when it reports none. */
  private static Metric<GroupProblem, Grouping> reported(String id) {
    return Metric.of(
        id,
        "count",
        Direction.LOWER_IS_BETTER,
        (p, o) ->
            o.status().hasSolution() && o.stats().containsKey(id)
                ? OptionalDouble.of(o.stats().get(id))
                : OptionalDouble.empty());
  }

  /** The last problem's bound (both metrics ask for it in turn). */
  private static final GroupingBound[] LAST = new GroupingBound[1];

  @Override
  public List<Metric<GroupProblem, Grouping>> metrics() {
    return List.of(
        solved("total-cycles", "cycles", (p, g) -> cost(p, g).cycles()),
        solved("ddr-bytes", "bytes", (p, g) -> cost(p, g).ddrBytes()),
        solved("groups", "count", (p, g) -> g.groups().size()),
        solved("global-ops", "count", (p, g) -> g.globalOps().size()),
        solved("bank-conflicts", "count", (p, g) -> conflicts(g)[0]),
        solved("bank-conflict-groups", "count", (p, g) -> conflicts(g)[1]),
        reported(CONFLICTS_UNAVOIDABLE),
        reported(CONFLICTS_UNDECIDED),
        Metric.of(
            "ungrouped-cycles",
            "cycles",
            Direction.LOWER_IS_BETTER,
            (p, o) -> OptionalDouble.of(ungrouped(p, o).cycles())),
        Metric.of(
            "ungrouped-ddr-bytes",
            "bytes",
            Direction.LOWER_IS_BETTER,
            (p, o) -> OptionalDouble.of(ungrouped(p, o).ddrBytes())),
        Metric.of(
            "lower-bound-cycles",
            "cycles",
            Direction.HIGHER_IS_BETTER,
            (p, o) -> OptionalDouble.of(bound(p, o).cycles())),
        Metric.of(
            "lower-bound-ddr-bytes",
            "bytes",
            Direction.HIGHER_IS_BETTER,
            (p, o) -> OptionalDouble.of(bound(p, o).ddrBytes())));
  }
}
