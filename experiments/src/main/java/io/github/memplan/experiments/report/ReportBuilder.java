package io.github.memplan.experiments.report;

import io.github.memplan.core.solve.Direction;
import io.github.memplan.experiments.measure.RunStatus;
import io.github.memplan.experiments.stats.Friedman;
import io.github.memplan.experiments.stats.Holm;
import io.github.memplan.experiments.stats.Summaries;
import io.github.memplan.experiments.stats.Wilcoxon;
import io.github.memplan.experiments.store.ResultColumns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Builds {@link ProblemReport}s from result rows. Instances and planners keep the order in which
 * they first appear in the results (the suite's order), so the output is deterministic.
 */
final class ReportBuilder {
  /** Preferred primary metrics, first match wins (GMEM/DSA peak, layer-group cycles). */
  static final List<String> PRIMARY = List.of("peak-bytes", "total-cycles");

  static final String TIME = ResultColumns.TIME_METRIC;
  static final String BOUND_PREFIX = "lower-bound";

  private ReportBuilder() {}

  static List<ProblemReport> build(List<Measurement> rows, String baseline, String metric) {
    Map<String, List<Measurement>> byProblem = new LinkedHashMap<>();
    for (Measurement r : rows) {
      byProblem.computeIfAbsent(r.problem(), p -> new ArrayList<>()).add(r);
    }
    List<ProblemReport> out = new ArrayList<>();
    for (var e : byProblem.entrySet()) {
      out.add(problem(e.getKey(), e.getValue(), baseline, metric));
    }
    return out;
  }

  static String primaryMetric(String problem, List<Measurement> rows) {
    Set<String> metrics = new TreeSet<>();
    for (Measurement r : rows) {
      metrics.add(r.metric());
    }
    for (String m : PRIMARY) {
      if (metrics.contains(m)) {
        return m;
      }
    }
    for (String m : metrics) {
      if (!m.equals(TIME) && !m.contains(BOUND_PREFIX)) {
        return m;
      }
    }
    throw new IllegalArgumentException("problem '" + problem + "' has no metric to report");
  }

  private static ProblemReport problem(
      String problem, List<Measurement> rows, String baselineOption, String metricOption) {
    String metric = metricOption != null ? metricOption : primaryMetric(problem, rows);
    Set<String> instanceSet = new LinkedHashSet<>();
    Set<String> plannerSet = new LinkedHashSet<>();
    // (instance, planner, replicate) -> run status, and the metric's value when it has one
    Map<List<String>, RunStatus> runStatus = new LinkedHashMap<>();
    Map<List<String>, Double> values = new LinkedHashMap<>();
    // (instance, planner) -> its runs
    Map<List<String>, List<List<String>>> runsOf = new LinkedHashMap<>();
    String unit = null;
    Direction direction = null;
    for (Measurement r : rows) {
      instanceSet.add(r.instance());
      plannerSet.add(r.planner());
      List<String> run = List.of(r.instance(), r.planner(), r.replicate());
      if (runStatus.putIfAbsent(run, r.status()) == null) {
        runsOf.computeIfAbsent(List.of(r.instance(), r.planner()), c -> new ArrayList<>()).add(run);
      }
      if (r.metric().equals(metric)) {
        if (direction != null && direction != r.direction()) {
          throw new IllegalArgumentException(
              "metric '" + metric + "' of problem '" + problem + "' has two directions");
        }
        direction = r.direction();
        unit = r.unit();
        if (r.solved() && !Double.isNaN(r.value())) {
          values.put(run, r.value());
        }
      }
    }
    if (direction == null) {
      throw new IllegalArgumentException(
          "problem '" + problem + "' has no rows of metric '" + metric + "'");
    }
    List<String> instances = List.copyOf(instanceSet);
    List<String> planners = List.copyOf(plannerSet);
    String baseline = baselineOption != null ? baselineOption : planners.get(0);
    if (!planners.contains(baseline)) {
      throw new IllegalArgumentException(
          "baseline '"
              + baseline
              + "' has no runs in problem '"
              + problem
              + "' (planners: "
              + String.join(", ", planners)
              + ")");
    }
    String boundMetric = boundMetric(rows, unit);
    double[] bounds = new double[instances.size()];
    Arrays.fill(bounds, Double.NaN);
    if (boundMetric != null) {
      for (Measurement r : rows) {
        if (r.metric().equals(boundMetric) && !Double.isNaN(r.value())) {
          int i = instances.indexOf(r.instance());
          // the strongest bound any run proved
          bounds[i] =
              Double.isNaN(bounds[i])
                  ? r.value()
                  : direction == Direction.LOWER_IS_BETTER
                      ? Math.max(bounds[i], r.value())
                      : Math.min(bounds[i], r.value());
        }
      }
    }
    // medians[i][p], NaN when the cell has no value
    double[][] medians = new double[instances.size()][planners.size()];
    List<List<ProblemReport.Cell>> cells = new ArrayList<>();
    for (int i = 0; i < instances.size(); i++) {
      List<Summaries.Spread> spreads = new ArrayList<>();
      List<double[]> valueLists = new ArrayList<>();
      List<String> statuses = new ArrayList<>();
      int[] reps = new int[planners.size()];
      int[] failed = new int[planners.size()];
      for (int p = 0; p < planners.size(); p++) {
        List<Double> vs = new ArrayList<>();
        String status = null;
        for (List<String> run :
            runsOf.getOrDefault(List.of(instances.get(i), planners.get(p)), List.of())) {
          reps[p]++;
          Double v = values.get(run);
          if (v == null) {
            failed[p]++;
            if (status == null) {
              status = display(runStatus.get(run));
            }
          } else {
            vs.add(v);
          }
        }
        double[] sorted = vs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        valueLists.add(sorted);
        Summaries.Spread s = vs.isEmpty() ? null : Summaries.spread(sorted);
        spreads.add(s);
        statuses.add(s == null ? (reps[p] == 0 ? "n/a" : status) : null);
        medians[i][p] = s == null ? Double.NaN : s.median();
      }
      double best = bestOf(medians[i], direction);
      List<ProblemReport.Cell> row = new ArrayList<>();
      for (int p = 0; p < planners.size(); p++) {
        row.add(
            new ProblemReport.Cell(
                spreads.get(p),
                statuses.get(p),
                reps[p],
                failed[p],
                medians[i][p] == best,
                valueLists.get(p)));
      }
      cells.add(List.copyOf(row));
    }
    Tests tests = summarise(direction, instances.size(), planners, baseline, bounds, medians);
    return new ProblemReport(
        problem,
        metric,
        unit,
        direction,
        baseline,
        boundMetric,
        instances,
        planners,
        cells,
        bounds,
        tests.summaries(),
        tests.friedman(),
        tests.note());
  }

  /** The summaries and tests of one table. */
  private record Tests(
      List<ProblemReport.PlannerSummary> summaries, Friedman friedman, String note) {}

  private static Tests summarise(
      Direction direction,
      int instanceCount,
      List<String> planners,
      String baseline,
      double[] bounds,
      double[][] medians) {
    int k = planners.size();
    int b = planners.indexOf(baseline);
    // Friedman over the instances that every planner solved
    List<double[]> complete = new ArrayList<>();
    for (double[] m : medians) {
      if (Arrays.stream(m).noneMatch(Double::isNaN)) {
        complete.add(m);
      }
    }
    Friedman friedman = null;
    String note;
    List<Holm.Comparison> holm = List.of();
    if (k < 2) {
      note = "no test: one planner";
    } else if (complete.size() < 2) {
      note = "no test: " + complete.size() + " instance(s) solved by every planner";
    } else {
      friedman = Friedman.test(complete.toArray(double[][]::new), direction);
      holm =
          Holm.versusControl(
              friedman.meanRanks(), complete.size(), Holm.best(friedman.meanRanks()));
      note = complete.size() + " of " + instanceCount + " instances solved by every planner";
    }
    List<ProblemReport.PlannerSummary> summaries = new ArrayList<>();
    for (int p = 0; p < k; p++) {
      List<double[]> vsBase = pairs(medians, p, b, null);
      List<double[]> vsBound = pairs(medians, p, -1, bounds);
      double holmP = Double.NaN;
      for (Holm.Comparison c : holm) {
        if (c.i() == p) {
          holmP = c.adjustedP();
        }
      }
      boolean other = p != b && !vsBase.isEmpty();
      summaries.add(
          new ProblemReport.PlannerSummary(
              geomean(vsBase),
              vsBase.size(),
              geomean(vsBound),
              vsBound.size(),
              other
                  ? Summaries.winsTiesLosses(column(vsBase, 0), column(vsBase, 1), direction)
                  : null,
              friedman == null ? Double.NaN : friedman.meanRanks()[p],
              holmP,
              other ? Wilcoxon.test(column(vsBase, 0), column(vsBase, 1)) : null));
    }
    return new Tests(List.copyOf(summaries), friedman, note);
  }

  /** Pairs (planner p, reference) over instances where both are known. */
  private static List<double[]> pairs(double[][] medians, int p, int ref, double[] bounds) {
    List<double[]> out = new ArrayList<>();
    for (int i = 0; i < medians.length; i++) {
      double r = bounds != null ? bounds[i] : medians[i][ref];
      if (!Double.isNaN(medians[i][p]) && !Double.isNaN(r)) {
        out.add(new double[] {medians[i][p], r});
      }
    }
    return out;
  }

  private static double[] column(List<double[]> pairs, int c) {
    return pairs.stream().mapToDouble(x -> x[c]).toArray();
  }

  /** Geometric mean of the ratios, NaN when there are none or a value is not positive. */
  private static double geomean(List<double[]> pairs) {
    if (pairs.isEmpty() || pairs.stream().anyMatch(x -> !(x[0] > 0) || !(x[1] > 0))) {
      return Double.NaN;
    }
    return Summaries.geometricMeanRatio(column(pairs, 0), column(pairs, 1));
  }

  private static double bestOf(double[] values, Direction direction) {
    double best = Double.NaN;
    for (double v : values) {
      if (!Double.isNaN(v)
          && (Double.isNaN(best)
              || (direction == Direction.LOWER_IS_BETTER ? v < best : v > best))) {
        best = v;
      }
    }
    return best;
  }

  /**
   * The bound metric: a metric whose name contains {@code lower-bound} (e.g. {@code
   * lower-bound-bytes}, {@code lmem-lower-bound-bytes}, {@code lower-bound-cycles}) in the primary
   * metric's unit, first by name.
   */
  private static String boundMetric(List<Measurement> rows, String unit) {
    TreeSet<String> found = new TreeSet<>();
    for (Measurement r : rows) {
      if (r.metric().contains(BOUND_PREFIX) && r.unit().equals(unit)) {
        found.add(r.metric());
      }
    }
    return found.isEmpty() ? null : found.first();
  }

  /**
   * How a cell without a value shows its run's status: as itself, but {@code
   * NO_SOLUTION_IN_BUDGET}, which is too wide for a table and means what {@code TIMEOUT} means to a
   * reader (the budget ended first), as {@code TIMEOUT}.
   */
  private static String display(RunStatus status) {
    return status == RunStatus.NO_SOLUTION_IN_BUDGET ? "TIMEOUT" : status.name();
  }
}
