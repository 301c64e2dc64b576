package io.github.memplan.experiments.measure;

import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Violation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one guarded run measured.
 *
 * @param status how the run ended
 * @param outcome the planner's outcome, absent when it threw or timed out
 * @param values metric id to value, in the problem's metric order (empty without an outcome, or
 *     when the solution was invalid)
 * @param violations the validator's verdict on the solution: empty unless it was rejected (the
 *     status is then {@link RunStatus#ERROR})
 * @param thrown what the planner threw, if it did (the status is then {@link RunStatus#ERROR})
 * @param message why, for {@code ERROR} and {@code TIMEOUT}; otherwise the planner's message
 * @param millis wall-clock time of the solve, validation and measurement
 * @param <S> the solution type
 */
public record Measured<S>(
    RunStatus status,
    Optional<Outcome<S>> outcome,
    Map<String, OptionalDouble> values,
    List<Violation> violations,
    Optional<Throwable> thrown,
    String message,
    double millis) {

  public Measured {
    values = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values));
    violations = List.copyOf(violations);
    message = message == null ? "" : message;
  }

  /** A run that failed before its planner started (an instance that did not load, say). */
  public static <S> Measured<S> error(String message) {
    return new Measured<>(
        RunStatus.ERROR, Optional.empty(), Map.of(), List.of(), Optional.empty(), message, 0);
  }

  /** The value of metric {@code id}, empty when the run has none. */
  public OptionalDouble value(String id) {
    return values.getOrDefault(id, OptionalDouble.empty());
  }

  /** The validated solution, if the run has one. */
  public Optional<S> solution() {
    return status.hasSolution() ? outcome.map(Outcome::solution) : Optional.empty();
  }

  /** The first violation and how many more, on one line ({@code "v (and 3 more)"}). */
  public static String firstViolation(List<Violation> violations) {
    return violations.get(0)
        + (violations.size() > 1 ? " (and " + (violations.size() - 1) + " more)" : "");
  }
}
