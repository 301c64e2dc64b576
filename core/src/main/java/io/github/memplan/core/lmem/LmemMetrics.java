package io.github.memplan.core.lmem;

import io.github.memplan.core.solve.Direction;
import io.github.memplan.core.solve.Metric;
import io.github.memplan.core.solve.MetricProvider;
import io.github.memplan.core.solve.Outcome;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The metrics of an LMEM placement run: the per-lane peak, the best lower bound (the planner's or
 * {@link LmemLowerBounds#maxLive}, whichever is larger), and the {@link LmemBanks} counts of bank
 * conflicts and straddles.
 */
public final class LmemMetrics implements MetricProvider<LmemInstance, LmemSolution> {

  /** The best lower bound known: the planner's own or max-live, whichever is larger. */
  public static long lowerBound(LmemInstance instance, Outcome<LmemSolution> outcome) {
    long lb = LmemLowerBounds.maxLive(instance);
    return outcome.lowerBound().isPresent() ? Math.max(lb, outcome.lowerBound().getAsLong()) : lb;
  }

  private static OptionalDouble ifSolved(
      Outcome<LmemSolution> outcome, java.util.function.ToLongFunction<LmemSolution> f) {
    return outcome.status().hasSolution()
        ? OptionalDouble.of(f.applyAsLong(outcome.solution()))
        : OptionalDouble.empty();
  }

  @Override
  public Class<LmemInstance> instanceType() {
    return LmemInstance.class;
  }

  @Override
  public List<Metric<LmemInstance, LmemSolution>> metrics() {
    return List.of(
        Metric.of(
            "lmem-peak-bytes",
            "bytes",
            Direction.LOWER_IS_BETTER,
            (i, o) -> ifSolved(o, s -> s.peak(i))),
        Metric.of(
            "lmem-lower-bound-bytes",
            "bytes",
            Direction.HIGHER_IS_BETTER,
            (i, o) -> OptionalDouble.of(lowerBound(i, o))),
        Metric.of(
            "bank-conflicts",
            "count",
            Direction.LOWER_IS_BETTER,
            (i, o) -> ifSolved(o, s -> LmemBanks.report(i, s).conflictCount())),
        Metric.of(
            "bank-straddles",
            "count",
            Direction.LOWER_IS_BETTER,
            (i, o) -> ifSolved(o, s -> LmemBanks.report(i, s).straddleCount())));
  }
}
