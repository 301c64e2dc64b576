package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.experiments.measure.GuardedSolve;
import io.github.memplan.experiments.measure.Measured;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * One problem a suite can name ({@code gmem}, {@code dsa}, {@code lmem}, {@code group}, {@code
 * device}), with its instance and solution types: how its instances are written in a suite, how a
 * planner is resolved, and how one planner's run on one instance is solved, validated and measured.
 * The suites ({@code memplan run}) and the CLI ({@code memplan dsa|gmem|lmem|group|device}) run
 * planners only through {@link #solveGuarded}. Registered in {@code
 * META-INF/services/io.github.memplan.experiments.suite.ProblemKind}; a new problem is one class
 * (usually a {@link SpiProblemKind}) and one line there.
 *
 * @param <I> the instance type
 * @param <S> the solution type
 */
public interface ProblemKind<I, S> {
  /** The name used in suites ({@code problem: NAME}) and in the results' problem column. */
  String name();

  /** Every metric of the problem, in a fixed order (the order of the results' rows). */
  List<MetricInfo> metrics();

  /**
   * The instances one entry of a problem's {@code instances} list stands for, sorted by name.
   * Instances are loaded lazily, on their first run.
   */
  List<SuiteInstance<I>> instances(JsonNode entry, Context ctx);

  /**
   * Looks planner {@code id} up and resolves {@code params} (defaults included), once.
   *
   * @throws IllegalArgumentException for an unknown planner or parameter, naming it
   */
  ResolvedPlanner<I, S> planner(String id, Map<String, String> params);

  /**
   * One run: plans {@code instance} with {@code planner}, validates the solution, measures the
   * metrics. A planner that throws may throw through; an invalid solution is an {@code ERROR}
   * naming the first violation.
   */
  Measured<S> solve(ResolvedPlanner<I, S> planner, I instance, SolveContext ctx);

  /**
   * {@link #solve} on a fresh daemon thread, under {@code ctx}'s budget and {@code timeLimit}
   * ({@code null}: none), as {@link GuardedSolve#guard} runs it: the one way the CLI and the suites
   * run a planner.
   */
  default Measured<S> solveGuarded(
      ResolvedPlanner<I, S> planner, I instance, SolveContext ctx, Duration timeLimit) {
    return GuardedSolve.guard(
        () -> solve(planner, instance, ctx),
        ctx.budget(),
        timeLimit,
        "memplan-" + name() + "-" + planner.id());
  }

  /**
   * Where an instances entry stands in the suite.
   *
   * @param baseDir the directory relative paths resolve against (the suite file's directory)
   * @param chips the problem's chips (default {@code bm1684x})
   */
  record Context(java.nio.file.Path baseDir, List<String> chips) {}

  /** The registered kinds by name. */
  static Map<String, ProblemKind<?, ?>> all() {
    Map<String, ProblemKind<?, ?>> byName = new TreeMap<>();
    for (ProblemKind<?, ?> k : ServiceLoader.load(ProblemKind.class)) {
      if (byName.put(k.name(), k) != null) {
        throw new IllegalStateException("two problem kinds share the name '" + k.name() + "'");
      }
    }
    return byName;
  }
}
