package io.github.memplan.core.solve;

/** How a planner's run ended. */
public enum Status {
  /** A solution whose objective equals a proven lower bound. */
  OPTIMAL,
  /** A valid solution, optimality not proven. */
  FEASIBLE,
  /** Proven: no solution exists (e.g. under a capacity). */
  INFEASIBLE,
  /** The budget ran out before any solution was found; nothing was proven. */
  NO_SOLUTION_IN_BUDGET,
  /**
   * The planner ended without a solution for a reason other than time: a heuristic that could not
   * place everything (over a capacity, say). Nothing is proven: another planner may place it.
   */
  FAILED_TO_PLACE,
  /** The planner failed; the outcome's message says why. */
  ERROR;

  /** Whether an outcome with this status carries a solution. */
  public boolean hasSolution() {
    return this == OPTIMAL || this == FEASIBLE;
  }
}
