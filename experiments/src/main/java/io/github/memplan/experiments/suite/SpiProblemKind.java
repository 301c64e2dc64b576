package io.github.memplan.experiments.suite;

import io.github.memplan.core.solve.Metric;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Validator;
import io.github.memplan.experiments.measure.GuardedSolve;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A problem whose planners are {@link PlannerProvider}s ({@link Planners}) and whose metrics come
 * from the {@link io.github.memplan.core.solve.MetricProvider}s of its instance type: a subclass
 * says only how instances are written in a suite and which validator checks solutions.
 *
 * @param <I> the instance type
 * @param <S> the solution type
 */
public abstract class SpiProblemKind<I, S> implements ProblemKind {
  private final Class<I> type;

  protected SpiProblemKind(Class<I> type) {
    this.type = type;
  }

  /** The instance type: its planners are the {@link PlannerProvider}s of this type. */
  public Class<I> instanceType() {
    return type;
  }

  /** The oracle every solution passes before it is measured. */
  protected abstract Validator<I, S> validator();

  @Override
  public Map<String, String> resolvePlanner(String id, Map<String, String> params) {
    PlannerProvider<I, S> p = Planners.get(id, type);
    return new TreeMap<>(PlannerConfig.resolve(p.id(), p.parameters(), params).values());
  }

  private List<Metric<I, S>> metricObjects() {
    return GuardedSolve.metrics(type);
  }

  @Override
  public List<MetricInfo> metrics() {
    return metricObjects().stream()
        .map(m -> new MetricInfo(m.id(), m.unit(), m.direction()))
        .toList();
  }

  @Override
  public RunOutcome run(
      Object instance, String plannerId, Map<String, String> params, SolveContext ctx) {
    PlannerProvider<I, S> p = Planners.get(plannerId, type);
    I in = type.cast(instance);
    Outcome<S> outcome =
        p.create(PlannerConfig.resolve(p.id(), p.parameters(), params)).solve(in, ctx);
    return RunOutcome.of(GuardedSolve.measure(in, outcome, validator(), metricObjects()));
  }
}
