package io.github.memplan.core.dsa;

import io.github.memplan.core.solve.Direction;
import io.github.memplan.core.solve.Metric;
import io.github.memplan.core.solve.MetricProvider;
import io.github.memplan.core.solve.Outcome;
import java.util.List;
import java.util.OptionalDouble;

/** The metrics of a DSA run: peak, the best lower bound, and their ratio. */
public final class DsaMetrics implements MetricProvider<DsaInstance, DsaSolution> {

  /** The best lower bound known: the planner's own, or max-load, whichever is larger. */
  public static long lowerBound(DsaInstance instance, Outcome<DsaSolution> outcome) {
    long lb = LowerBounds.maxLoad(instance);
    return outcome.lowerBound().isPresent() ? Math.max(lb, outcome.lowerBound().getAsLong()) : lb;
  }

  private static OptionalDouble peak(DsaInstance instance, Outcome<DsaSolution> outcome) {
    return outcome.status().hasSolution()
        ? OptionalDouble.of(instance.peak(outcome.solution()))
        : OptionalDouble.empty();
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public List<Metric<DsaInstance, DsaSolution>> metrics() {
    return List.of(
        Metric.of("peak-bytes", "bytes", Direction.LOWER_IS_BETTER, DsaMetrics::peak),
        Metric.of(
            "lower-bound-bytes",
            "bytes",
            Direction.HIGHER_IS_BETTER,
            (i, o) -> OptionalDouble.of(lowerBound(i, o))),
        Metric.of(
            "peak-over-lower-bound",
            "ratio",
            Direction.LOWER_IS_BETTER,
            (i, o) -> {
              OptionalDouble p = peak(i, o);
              long lb = lowerBound(i, o);
              return p.isPresent() && lb > 0
                  ? OptionalDouble.of(p.getAsDouble() / lb)
                  : OptionalDouble.empty();
            }));
  }
}
