package io.github.memplan.experiments.report;

import io.github.memplan.core.solve.Direction;
import io.github.memplan.experiments.stats.Friedman;
import io.github.memplan.experiments.stats.Summaries;
import io.github.memplan.experiments.stats.Wilcoxon;
import java.util.List;

/**
 * The comparison table of one problem and metric: an instance x planner grid of medians over
 * replicates, the lower bound of each instance, the summary of each planner and the tests.
 *
 * @param lowerBoundMetric the metric holding the instances' lower bounds, null when none
 * @param cells {@code cells.get(instance).get(planner)}
 * @param lowerBounds per instance, NaN when unknown
 * @param friedman the test over the instances every planner solved, null when not applicable
 * @param friedmanNote why there is no test, or how many instances it used
 */
record ProblemReport(
    String problem,
    String metric,
    String unit,
    Direction direction,
    String baseline,
    String lowerBoundMetric,
    List<String> instances,
    List<String> planners,
    List<List<Cell>> cells,
    double[] lowerBounds,
    List<PlannerSummary> summaries,
    Friedman friedman,
    String friedmanNote) {

  /**
   * One instance x planner cell.
   *
   * @param spread median and quartiles over the replicates that have a value, null when none has
   * @param status what to show instead of a number (ERROR, TIMEOUT, ...), null when there is a
   *     value
   * @param replicates runs of this instance and planner
   * @param failed runs among them without a value
   * @param best whether the median is the best of the instance
   * @param values the values of the replicates that have one, sorted
   */
  record Cell(
      Summaries.Spread spread,
      String status,
      int replicates,
      int failed,
      boolean best,
      double[] values) {
    boolean hasValue() {
      return spread != null;
    }
  }

  /**
   * Summary of one planner over the instances.
   *
   * @param ratioToBaseline geometric mean of median / baseline median, NaN when undefined
   * @param ratioToLowerBound geometric mean of median / lower bound, NaN when undefined
   * @param versusBaseline null for the baseline itself or without common instances
   * @param meanRank mean rank in the Friedman test, NaN without one
   * @param holmP Holm-adjusted p-value against the best-ranked planner, NaN for it or without test
   * @param wilcoxon against the baseline, null for the baseline or without common instances
   */
  record PlannerSummary(
      double ratioToBaseline,
      int ratioToBaselineN,
      double ratioToLowerBound,
      int ratioToLowerBoundN,
      Summaries.WinsTiesLosses versusBaseline,
      double meanRank,
      double holmP,
      Wilcoxon wilcoxon) {}
}
