package io.github.memplan.experiments.run;

import io.github.memplan.experiments.suite.Suite;
import io.github.memplan.experiments.suite.SuiteInstance;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of a suite: one planner on one instance with one seed.
 *
 * @param index the run's index in the suite's expansion: problems in file order, then instances,
 *     then planners, then replicates; stable while the suite file is unchanged
 * @param problemIndex the problem's index in the suite
 * @param problem the problem
 * @param instance the instance
 * @param planner the planner
 * @param seed the run's seed, the suite's base seed plus the replicate
 * @param replicate the replicate, from 0
 * @param <I> the instance type
 * @param <S> the solution type
 */
public record SuiteRun<I, S>(
    int index,
    int problemIndex,
    Suite.Problem<I, S> problem,
    SuiteInstance<I> instance,
    Suite.PlannerEntry<I, S> planner,
    long seed,
    int replicate) {

  /** Every run of {@code suite}, in index order. */
  public static List<SuiteRun<?, ?>> expand(Suite suite) {
    List<SuiteRun<?, ?>> out = new ArrayList<>();
    for (int p = 0; p < suite.problems().size(); p++) {
      expand(suite, p, suite.problems().get(p), out);
    }
    return out;
  }

  private static <I, S> void expand(
      Suite suite, int p, Suite.Problem<I, S> problem, List<SuiteRun<?, ?>> out) {
    for (SuiteInstance<I> in : problem.instances()) {
      for (Suite.PlannerEntry<I, S> pl : problem.planners()) {
        for (int r = 0; r < suite.replicates(); r++) {
          out.add(new SuiteRun<>(out.size(), p, problem, in, pl, suite.seed() + r, r));
        }
      }
    }
  }

  /** A short description for progress lines. */
  public String describe() {
    return problem.kind().name() + " " + instance.name() + " " + planner.label() + " seed " + seed;
  }
}
