package io.github.memplan.solvers.ortools;

import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverSolutionCallback;
import com.google.ortools.sat.CpSolverStatus;
import com.google.ortools.sat.SatParameters;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.SolveContext;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs CP-SAT under a {@link Budget}: CP-SAT's own limits cover the deadline and the step cap (set
 * them in the solver's parameters); a watcher thread calls {@code stopSearch()} when the budget is
 * cancelled or its deadline passes, which CP-SAT's time limit alone does not see.
 */
public final class BudgetedSolve {
  private BudgetedSolve() {}

  /** Fails unless {@code workers >= 1} and {@code deterministicTime} is finite and {@code >= 0}. */
  public static void checkSettings(int workers, double deterministicTime) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be at least 1, not " + workers);
    }
    if (!(deterministicTime >= 0) || Double.isInfinite(deterministicTime)) {
      throw new IllegalArgumentException(
          "deterministic-time must be a finite number >= 0, not " + deterministicTime);
    }
  }

  /**
   * Sets {@code solver}'s parameters for a run under {@code ctx}: the seed, the remaining time, the
   * step cap as the conflict limit, and {@code workers} workers, or one with the deterministic time
   * limit when {@code deterministicTime > 0} (several workers share solutions in wall-clock order,
   * and CP-SAT's deterministic {@code interleave_search} aborts the JVM in OR-Tools 9.15 on some
   * proofs of infeasibility, "Check failed: heuristics.fixed_search != nullptr"). Returns the
   * number of workers.
   */
  public static int configure(
      CpSolver solver, SolveContext ctx, int workers, double deterministicTime) {
    return configure(solver, ctx, workers, deterministicTime, java.time.Duration.ZERO);
  }

  /**
   * {@link #configure(CpSolver, SolveContext, int, double)} with CP-SAT's time limit {@code
   * reserve} before the deadline (see {@link Budget#wrapUp}).
   */
  public static int configure(
      CpSolver solver,
      SolveContext ctx,
      int workers,
      double deterministicTime,
      java.time.Duration reserve) {
    Budget budget = ctx.budget();
    SatParameters.Builder p = solver.getParameters();
    int w = deterministicTime > 0 ? 1 : workers;
    p.setNumWorkers(w);
    p.setRandomSeed((int) (ctx.seed() ^ (ctx.seed() >>> 32)) & Integer.MAX_VALUE);
    p.setLogSearchProgress(false);
    p.setMaxTimeInSeconds(Math.max(0.0, budget.remaining().minus(reserve).toNanos() / 1e9));
    if (deterministicTime > 0) {
      p.setMaxDeterministicTime(deterministicTime);
    }
    if (budget.stepCap() != Long.MAX_VALUE) {
      p.setMaxNumberOfConflicts(budget.stepCap());
    }
    return w;
  }

  /** Solves {@code model} with {@code solver}, stopping it when {@code budget} is exhausted. */
  public static CpSolverStatus solve(
      CpSolver solver, CpModel model, Budget budget, CpSolverSolutionCallback callback) {
    AtomicBoolean done = new AtomicBoolean();
    Thread watcher =
        new Thread(
            () -> {
              while (!done.get()) {
                if (budget.exhausted()) {
                  solver.stopSearch(); // idempotent; repeated in case solve() had not begun
                }
                LockSupport.parkNanos(2_000_000L);
              }
            },
            "cpsat-budget-watcher");
    watcher.setDaemon(true);
    watcher.start();
    try {
      return callback == null ? solver.solve(model) : solver.solve(model, callback);
    } finally {
      done.set(true);
      LockSupport.unpark(watcher);
    }
  }
}
