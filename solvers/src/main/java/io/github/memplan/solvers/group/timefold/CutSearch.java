package io.github.memplan.solvers.group.timefold;

import ai.timefold.solver.core.api.score.buildin.hardsoftlong.HardSoftLongScore;
import ai.timefold.solver.core.api.solver.Solver;
import ai.timefold.solver.core.api.solver.SolverFactory;
import ai.timefold.solver.core.config.heuristic.selector.move.factory.MoveIteratorFactoryConfig;
import ai.timefold.solver.core.config.localsearch.LocalSearchPhaseConfig;
import ai.timefold.solver.core.config.localsearch.LocalSearchType;
import ai.timefold.solver.core.config.solver.EnvironmentMode;
import ai.timefold.solver.core.config.solver.SolverConfig;
import ai.timefold.solver.core.config.solver.termination.TerminationConfig;
import ai.timefold.solver.core.impl.solver.DefaultSolver;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.solvers.timefold.BudgetWatcher;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One Timefold run over the cuts of a {@link RangeOracle}'s base groups, from given starting cuts:
 * local search with the moves of {@link CutMoves} (flip one boundary: merge two neighbouring groups
 * or split one; shift a cut by up to four ops: merge two neighbouring groups and split the result
 * elsewhere), seeded with the run's seed, single-threaded, in the reproducible {@link
 * EnvironmentMode#NO_ASSERT} mode. It stops at the budget's step cap (one step of the budget is one
 * evaluated move: byte-reproducible), after {@code unimprovedSteps} steps without a better score,
 * when a step finds no acceptable move ({@link CutPlan#stallMoves()} draws: a strict local optimum
 * for the acceptor), at the deadline or on cancellation (a watcher thread calls {@code
 * terminateEarly}). Each new best with no invalid group is reported to the context's progress
 * listener as its total cost.
 */
final class CutSearch {

  /**
   * The search's settings.
   *
   * @param unimprovedSteps stop after this many steps without a better score (0: never)
   * @param localSearch Timefold's local search type
   */
  record Options(long unimprovedSteps, LocalSearchType localSearch) {
    Options {
      Objects.requireNonNull(localSearch, "localSearch");
      if (unimprovedSteps < 0) {
        throw new IllegalArgumentException("unimproved steps must be >= 0: " + unimprovedSteps);
      }
    }
  }

  /** The best cuts found, their score and the run's statistics. */
  record Result(List<Run> runs, HardSoftLongScore score, Map<String, Number> stats) {}

  private CutSearch() {}

  static SolverConfig config(long seed, EnvironmentMode mode, Options options, Budget budget) {
    TerminationConfig t = new TerminationConfig();
    if (budget.stepCap() != Long.MAX_VALUE) {
      t.setMoveCountLimit(budget.stepCap());
    }
    if (options.unimprovedSteps() > 0) {
      t.setUnimprovedStepCountLimit((int) Math.min(Integer.MAX_VALUE, options.unimprovedSteps()));
    }
    return new SolverConfig()
        .withSolutionClass(CutPlan.class)
        .withEntityClasses(Boundary.class)
        .withConstraintProviderClass(CutConstraints.class)
        .withEnvironmentMode(mode)
        .withRandomSeed(seed)
        .withPhases(
            new LocalSearchPhaseConfig()
                .withLocalSearchType(options.localSearch())
                .withMoveSelectorConfig(
                    new MoveIteratorFactoryConfig().withMoveIteratorFactoryClass(CutMoves.class)))
        .withTerminationConfig(t);
  }

  /**
   * Searches from {@code start}; returns its runs unchanged when it has no boundary. Only new bests
   * below {@code reportBelow} (the start's cost, when the caller already reported it) reach the
   * progress listener.
   */
  static Result run(
      CutPlan start,
      SolveContext ctx,
      Options options,
      EnvironmentMode mode,
      String note,
      long reportBelow) {
    Map<String, Number> stats = new TreeMap<>();
    if (start.getBoundaries().isEmpty() || ctx.budget().exhausted(0)) {
      return new Result(start.runs(), null, stats);
    }
    Budget budget = ctx.budget();
    Solver<CutPlan> solver =
        SolverFactory.<CutPlan>create(config(ctx.seed(), mode, options, budget)).buildSolver();
    start.control().attach(solver);
    AtomicLong improvements = new AtomicLong();
    AtomicLong reported = new AtomicLong(reportBelow);
    solver.addEventListener(
        event -> {
          HardSoftLongScore score = (HardSoftLongScore) event.getNewBestScore();
          improvements.incrementAndGet();
          if (score.hardScore() == 0 && -score.softScore() < reported.get()) {
            reported.set(-score.softScore());
            ctx.progress().improved(-score.softScore(), 0, note);
          }
        });
    CutPlan best;
    try (BudgetWatcher w = BudgetWatcher.start(budget, solver, "group-timefold-budget-watcher")) {
      best = solver.solve(start);
    }
    stats.put("improvements", improvements.get());
    stats.put("stalled", start.control().stalled() ? 1 : 0);
    if (solver instanceof DefaultSolver<CutPlan> ds) {
      stats.put("move-evaluations", ds.getMoveEvaluationCount());
      stats.put("score-calculations", ds.getScoreCalculationCount());
    }
    return new Result(best.runs(), best.getScore(), stats);
  }
}
