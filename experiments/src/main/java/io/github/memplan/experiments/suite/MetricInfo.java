package io.github.memplan.experiments.suite;

import io.github.memplan.core.solve.Direction;

/**
 * A metric's id, unit and declared direction.
 *
 * @param id the metric id
 * @param unit the unit
 * @param direction lower or higher is better, as the metric declares it
 */
public record MetricInfo(String id, String unit, Direction direction) {
  /** {@code lower} or {@code higher}, as written in results.csv. */
  public String directionName() {
    return direction == Direction.LOWER_IS_BETTER ? "lower" : "higher";
  }
}
