package io.github.memplan.core.device;

import io.github.memplan.core.solve.Direction;
import io.github.memplan.core.solve.Metric;
import io.github.memplan.core.solve.MetricProvider;
import io.github.memplan.core.solve.Outcome;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.ToLongFunction;

/**
 * The metrics of a device run, read from the {@link DeviceRun}: networks and inferences served,
 * failed loads, failed requests (all of them, and those with enough free bytes in their region),
 * peak live and held bytes, and the smallest largest free block (the worst fragmentation). A run
 * without a solution has no values. There is no lower-bound metric: see the device allocators'
 * providers for why a device run has no meaningful bound.
 */
public final class DeviceMetrics implements MetricProvider<DeviceProblem, DeviceRun> {
  @Override
  public Class<DeviceProblem> instanceType() {
    return DeviceProblem.class;
  }

  @Override
  public List<Metric<DeviceProblem, DeviceRun>> metrics() {
    return List.of(
        of("networks-served", "count", Direction.HIGHER_IS_BETTER, DeviceRun::networksServed),
        of("inferences-served", "count", Direction.HIGHER_IS_BETTER, DeviceRun::inferencesServed),
        of("loads-failed", "count", Direction.LOWER_IS_BETTER, DeviceRun::loadsFailed),
        of("failures", "count", Direction.LOWER_IS_BETTER, r -> r.failures().size()),
        of(
            "failures-with-free-space",
            "count",
            Direction.LOWER_IS_BETTER,
            DeviceRun::failuresWithFreeSpace),
        of("peak-live-bytes", "bytes", Direction.LOWER_IS_BETTER, DeviceRun::peakLiveBytes),
        of("peak-held-bytes", "bytes", Direction.LOWER_IS_BETTER, DeviceRun::peakHeldBytes),
        of(
            "min-largest-free-block-bytes",
            "bytes",
            Direction.HIGHER_IS_BETTER,
            DeviceRun::minLargestFreeBlock));
  }

  private static Metric<DeviceProblem, DeviceRun> of(
      String id, String unit, Direction direction, ToLongFunction<DeviceRun> value) {
    return Metric.of(id, unit, direction, (problem, outcome) -> value(outcome, value));
  }

  private static OptionalDouble value(Outcome<DeviceRun> outcome, ToLongFunction<DeviceRun> f) {
    return outcome.status().hasSolution()
        ? OptionalDouble.of(f.applyAsLong(outcome.solution()))
        : OptionalDouble.empty();
  }
}
