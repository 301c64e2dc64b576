package io.github.memplan.experiments.measure;

import io.github.memplan.core.solve.Status;

/**
 * How one run ended, as results.csv, the reports and the CLI show it: the planner's own {@link
 * Status}es, plus {@link #TIMEOUT} for a run that had to be cancelled. {@link #ERROR} is also a
 * planner that threw or returned a solution its validator rejects. The name is the text in the
 * results' status column.
 */
public enum RunStatus {
  /** The planner's {@link Status#OPTIMAL}. */
  OPTIMAL,
  /** The planner's {@link Status#FEASIBLE}. */
  FEASIBLE,
  /** The planner's {@link Status#INFEASIBLE}. */
  INFEASIBLE,
  /** The planner's {@link Status#NO_SOLUTION_IN_BUDGET}: its budget ended, nothing found. */
  NO_SOLUTION_IN_BUDGET,
  /** The planner's {@link Status#FAILED_TO_PLACE}: a heuristic that could not place everything. */
  FAILED_TO_PLACE,
  /** The planner failed, threw, or returned an invalid solution; the message says why. */
  ERROR,
  /** Still running past its time limit and grace margin: cancelled. */
  TIMEOUT;

  /** The run status of a planner's status (same name). */
  public static RunStatus of(Status status) {
    return switch (status) {
      case OPTIMAL -> OPTIMAL;
      case FEASIBLE -> FEASIBLE;
      case INFEASIBLE -> INFEASIBLE;
      case NO_SOLUTION_IN_BUDGET -> NO_SOLUTION_IN_BUDGET;
      case FAILED_TO_PLACE -> FAILED_TO_PLACE;
      case ERROR -> ERROR;
    };
  }

  /**
   * The status named {@code text}, as results.csv writes it.
   *
   * @throws IllegalArgumentException naming the text and the statuses known
   */
  public static RunStatus parse(String text) {
    for (RunStatus s : values()) {
      if (s.name().equals(text)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "unknown status '" + text + "' (known: " + java.util.Arrays.toString(values()) + ")");
  }

  /** Whether a run with this status carries a solution (and so a value for most metrics). */
  public boolean hasSolution() {
    return this == OPTIMAL || this == FEASIBLE;
  }

  /** Whether the run failed as a run ({@code ERROR}, {@code TIMEOUT}): its message says why. */
  public boolean failed() {
    return this == ERROR || this == TIMEOUT;
  }
}
