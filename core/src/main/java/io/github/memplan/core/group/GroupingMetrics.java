package io.github.memplan.core.group;

import io.github.memplan.core.cost.GroupCost;
import io.github.memplan.core.cost.RooflineCostModel;
import io.github.memplan.core.solve.Direction;
import io.github.memplan.core.solve.Metric;
import io.github.memplan.core.solve.MetricProvider;
import io.github.memplan.core.solve.Outcome;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.ToDoubleBiFunction;

/**
 * The metrics of a grouping run, costed by {@link RooflineCostModel}: {@code total-cycles}, {@code
 * ddr-bytes}, {@code groups}, {@code global-ops}, and the ungrouped model's {@code
 * ungrouped-cycles} and {@code ungrouped-ddr-bytes} for comparison (these need no solution). Every
 * metric is lower-is-better; {@code groups} counts as such because fewer, longer groups keep more
 * traffic on chip, but read it together with {@code global-ops}.
 *
 * <p>{@code lower-bound-cycles} (higher is better; needs no solution) is {@link #computeBound}: the
 * TIU cycles of every op run whole, a lower bound on {@code total-cycles} of <em>any</em> grouping
 * under the roofline model. Proof: a global op costs {@code max(tiu, gdma) >= tiu}; a group costs
 * {@code Σ_rows max(Σ tiu, gdma) >= Σ_iterations Σ_ops tiu(op slice)}, and an op's slices cover its
 * output, so their work fractions sum to at least 1 and {@code Σ ceil(w·f_i) >= ceil(w·Σ f_i) >=
 * tiu(op)}. It ignores every DDR transfer, so it is loose on memory-bound models.
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

  /** Σ over the ops of their whole-op TIU cycles: a lower bound on any grouping's total cycles. */
  public static long computeBound(GroupProblem p) {
    long sum = 0;
    for (io.github.memplan.core.ir.Op op : p.order()) {
      sum += COST.tiuCycles(p.graph(), op, p.chip());
    }
    return sum;
  }

  @Override
  public List<Metric<GroupProblem, Grouping>> metrics() {
    return List.of(
        solved("total-cycles", "cycles", (p, g) -> cost(p, g).cycles()),
        solved("ddr-bytes", "bytes", (p, g) -> cost(p, g).ddrBytes()),
        solved("groups", "count", (p, g) -> g.groups().size()),
        solved("global-ops", "count", (p, g) -> g.globalOps().size()),
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
            (p, o) -> OptionalDouble.of(computeBound(p))));
  }
}
