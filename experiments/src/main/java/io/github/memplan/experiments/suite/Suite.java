package io.github.memplan.experiments.suite;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A parsed, checked suite.
 *
 * @param name the suite's name (the results' suite column)
 * @param file the suite file
 * @param text the suite file's text, as read (recorded in the manifest)
 * @param seed the base seed: replicate {@code r} runs with seed {@code seed + r}
 * @param replicates runs of each (instance, planner)
 * @param problems the problems, in file order
 */
public record Suite(
    String name, Path file, String text, long seed, int replicates, List<Problem<?, ?>> problems) {

  /** The same suite with another base seed. */
  public Suite withSeed(long newSeed) {
    return new Suite(name, file, text, newSeed, replicates, problems);
  }

  /**
   * One problem of a suite.
   *
   * @param kind the problem kind
   * @param instances the instances, in file order (each entry's expansion sorted by name)
   * @param planners the planners, in file order
   * @param metrics the metrics recorded, in the kind's order
   * @param budget the per-run budget
   * @param <I> the instance type
   * @param <S> the solution type
   */
  public record Problem<I, S>(
      ProblemKind<I, S> kind,
      List<SuiteInstance<I>> instances,
      List<PlannerEntry<I, S>> planners,
      List<MetricInfo> metrics,
      BudgetSpec budget) {}

  /**
   * A planner of a problem, resolved once, with its label.
   *
   * @param label the name in the results (the id unless the suite gives a label)
   * @param planner the planner and its resolved parameters
   * @param <I> the instance type
   * @param <S> the solution type
   */
  public record PlannerEntry<I, S>(String label, ResolvedPlanner<I, S> planner) {
    /** The planner id. */
    public String id() {
      return planner.id();
    }

    /** The resolved parameters, defaults included, sorted by key. */
    public Map<String, String> params() {
      return planner.params();
    }

    /** The canonical {@code k=v;k=v} form, sorted by key. */
    public String paramsString() {
      return planner.paramsString();
    }
  }

  /**
   * A per-run budget.
   *
   * @param timeLimit the wall-clock limit, or {@code null} for none
   * @param steps the step cap ({@code Long.MAX_VALUE} for none)
   */
  public record BudgetSpec(Duration timeLimit, long steps) {
    public static final BudgetSpec DEFAULT = new BudgetSpec(Duration.ofSeconds(60), Long.MAX_VALUE);
  }
}
