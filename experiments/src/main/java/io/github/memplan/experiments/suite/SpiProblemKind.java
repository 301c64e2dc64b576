package io.github.memplan.experiments.suite;

import io.github.memplan.core.solve.Metric;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Validator;
import io.github.memplan.experiments.measure.GuardedSolve;
import io.github.memplan.experiments.measure.Measured;
import java.util.List;
import java.util.Map;

/**
 * A problem whose planners are {@link PlannerProvider}s ({@link Planners}) and whose metrics come
 * from the {@link io.github.memplan.core.solve.MetricProvider}s of its instance type: a subclass
 * says only how instances are written in a suite and which validator checks solutions.
 *
 * @param <I> the instance type
 * @param <S> the solution type
 */
public abstract class SpiProblemKind<I, S> implements ProblemKind<I, S> {
  private final Class<I> type;

  /** Its metrics, found once rather than with a {@code ServiceLoader} scan per run. */
  private volatile List<Metric<I, S>> metrics;

  protected SpiProblemKind(Class<I> type) {
    this.type = type;
  }

  /** The instance type: its planners are the {@link PlannerProvider}s of this type. */
  public Class<I> instanceType() {
    return type;
  }

  /** The oracle every solution passes before it is measured. */
  public abstract Validator<I, S> validator();

  @Override
  public ResolvedPlanner<I, S> planner(String id, Map<String, String> params) {
    return ResolvedPlanner.of(Planners.get(id, type), params);
  }

  private List<Metric<I, S>> metricObjects() {
    List<Metric<I, S>> found = metrics;
    if (found == null) {
      found = List.copyOf(GuardedSolve.metrics(type));
      metrics = found;
    }
    return found;
  }

  @Override
  public List<MetricInfo> metrics() {
    return metricObjects().stream()
        .map(m -> new MetricInfo(m.id(), m.unit(), m.direction()))
        .toList();
  }

  @Override
  public Measured<S> solve(ResolvedPlanner<I, S> planner, I instance, SolveContext ctx) {
    Outcome<S> outcome = planner.create().solve(instance, ctx);
    return GuardedSolve.measure(instance, outcome, validator(), metricObjects());
  }
}
