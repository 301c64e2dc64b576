package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.experiments.measure.GuardedSolve;
import io.github.memplan.experiments.measure.Measured;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A problem kind with its instance and solution types: how its instances are written in a suite,
 * how a planner is resolved, and how one planner's run on one instance is solved, validated and
 * measured. The suites ({@code memplan run}) and the CLI ({@code memplan dsa|gmem|lmem|group}) run
 * planners only through {@link #solveGuarded}.
 *
 * @param <I> the instance type
 * @param <S> the solution type
 */
public interface TypedProblemKind<I, S> extends ProblemKind {
  /**
   * The instances one entry of a problem's {@code instances} list stands for, sorted by name.
   * Instances are loaded lazily, on their first run.
   */
  @Override
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

  @Override
  default TypedProblemKind<I, S> typed() {
    return this;
  }
}
