package io.github.memplan.core.solve;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * What a planner returns: its status, the solution (present exactly when the status has one), the
 * best lower bound it knows on the objective, search statistics and a message.
 *
 * @param status how the run ended
 * @param solution the solution, or {@code null} when the status carries none
 * @param lowerBound the best lower bound on the objective the planner proved or computed
 * @param stats search statistics by name, sorted by name so that output is deterministic
 * @param message a human-readable note (the error for {@link Status#ERROR}), possibly empty
 */
public record Outcome<S>(
    Status status, S solution, OptionalLong lowerBound, Map<String, Double> stats, String message) {

  public Outcome {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(lowerBound, "lowerBound");
    if (status.hasSolution() != (solution != null)) {
      throw new IllegalArgumentException(
          "status " + status + (solution == null ? " needs a solution" : " must not carry one"));
    }
    stats = Collections.unmodifiableMap(new TreeMap<>(stats == null ? Map.of() : stats));
    message = message == null ? "" : message;
  }

  public static <S> Outcome<S> feasible(S solution, OptionalLong lowerBound) {
    return new Outcome<>(Status.FEASIBLE, solution, lowerBound, Map.of(), "");
  }

  public static <S> Outcome<S> optimal(S solution, long lowerBound) {
    return new Outcome<>(Status.OPTIMAL, solution, OptionalLong.of(lowerBound), Map.of(), "");
  }

  public static <S> Outcome<S> infeasible(String why) {
    return new Outcome<>(Status.INFEASIBLE, null, OptionalLong.empty(), Map.of(), why);
  }

  public static <S> Outcome<S> noSolution(OptionalLong lowerBound, String why) {
    return new Outcome<>(Status.NO_SOLUTION_IN_BUDGET, null, lowerBound, Map.of(), why);
  }

  /** A heuristic that ended without placing everything, for a reason other than its budget. */
  public static <S> Outcome<S> failedToPlace(OptionalLong lowerBound, String why) {
    return new Outcome<>(Status.FAILED_TO_PLACE, null, lowerBound, Map.of(), why);
  }

  public static <S> Outcome<S> error(String why) {
    return new Outcome<>(Status.ERROR, null, OptionalLong.empty(), Map.of(), why);
  }

  public Optional<S> solutionIfAny() {
    return Optional.ofNullable(solution);
  }

  /** A copy with the given statistics added (later values win). */
  public Outcome<S> withStats(Map<String, ? extends Number> more) {
    Map<String, Double> merged = new TreeMap<>(stats);
    more.forEach((k, v) -> merged.put(k, v.doubleValue()));
    return new Outcome<>(status, solution, lowerBound, merged, message);
  }

  /** A copy with a different message. */
  public Outcome<S> withMessage(String newMessage) {
    return new Outcome<>(status, solution, lowerBound, stats, newMessage);
  }
}
