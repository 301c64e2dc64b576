package io.github.memplan.experiments.suite;

import io.github.memplan.experiments.measure.Measured;
import io.github.memplan.experiments.measure.RunStatus;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What one run measured.
 *
 * @param status how the run ended
 * @param values metric id to value (empty or absent when the run has none)
 * @param message why an {@code ERROR} run failed, else empty
 */
public record RunOutcome(RunStatus status, Map<String, OptionalDouble> values, String message) {
  /** A run whose status is given by its name ({@link RunStatus#parse}). */
  public RunOutcome(String status, Map<String, OptionalDouble> values, String message) {
    this(RunStatus.parse(status), values, message);
  }

  public static RunOutcome error(String message) {
    return new RunOutcome(RunStatus.ERROR, Map.of(), message);
  }

  /** The run that {@code m} measured; the message only for a failed run. */
  public static RunOutcome of(Measured<?> m) {
    return new RunOutcome(m.status(), m.values(), m.status().failed() ? m.message() : "");
  }

  /** The same run as a {@link Measured}, for the guard around it. */
  public <S> Measured<S> measured() {
    return new Measured<>(
        status,
        java.util.Optional.empty(),
        values,
        java.util.List.of(),
        java.util.Optional.empty(),
        message,
        0);
  }
}
