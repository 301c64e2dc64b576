package io.github.memplan.experiments.report;

import io.github.memplan.core.solve.Direction;
import io.github.memplan.experiments.measure.RunStatus;

/**
 * One row of the long-format results CSV: one metric of one run.
 *
 * @param planner the planner's label: its id, followed by its parameters when it has any
 * @param value the metric's value, NaN when the run has none
 */
record Measurement(
    String problem,
    String instance,
    String planner,
    String replicate,
    RunStatus status,
    String metric,
    double value,
    String unit,
    Direction direction) {

  boolean solved() {
    return status.hasSolution();
  }
}
