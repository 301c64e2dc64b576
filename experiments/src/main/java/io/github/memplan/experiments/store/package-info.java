/**
 * The results store: the long-format results CSV (one row per run and metric), written
 * incrementally and safely, read back as typed {@link
 * io.github.memplan.experiments.store.ResultRow}s (status a {@link
 * io.github.memplan.experiments.measure.RunStatus}, direction a {@link
 * io.github.memplan.core.solve.Direction}; text only in the file) or as a Tablesaw table ({@link
 * io.github.memplan.experiments.store.ResultsTable}) for analysis.
 *
 * <p>Columns ({@link io.github.memplan.experiments.store.ResultColumns}): {@code suite, problem,
 * instance, planner, params, seed, replicate, status, metric, value, unit, direction, run,
 * message}. {@code planner} is the planner's label in the suite (its id unless the suite gives a
 * label); {@code params} the resolved parameters as a canonical sorted {@code k=v;k=v} string;
 * {@code value} is empty when the run has no value for the metric; {@code direction} ({@code lower}
 * or {@code higher}) comes from the metric's declared {@link
 * io.github.memplan.core.solve.Direction}; {@code run} is the run's index in the suite's expansion
 * (the file is sorted by it, then by the metric order of the problem); {@code message} is empty
 * unless the status is {@code ERROR} or {@code TIMEOUT}, when it says why.
 *
 * <p>Every run, whatever its status, writes one row per selected metric (with an empty value where
 * it has none) and then a last row {@code time-ms} (unit {@code ms}, direction {@code lower}): its
 * wall-clock time. Timing is the only part of the file that differs between two runs of the same
 * suite with the same seeds: compare files with the {@code time-ms} rows dropped ({@link
 * ResultRow#isTiming}). Statuses are the planner's ({@code OPTIMAL}, {@code FEASIBLE}, {@code
 * INFEASIBLE}, {@code NO_SOLUTION_IN_BUDGET}, {@code FAILED_TO_PLACE}, {@code ERROR}) plus {@code
 * TIMEOUT} for a run the runner had to cancel. Every field is one line, so a physical line is a
 * row.
 */
package io.github.memplan.experiments.store;
