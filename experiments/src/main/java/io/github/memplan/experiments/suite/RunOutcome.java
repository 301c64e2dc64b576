package io.github.memplan.experiments.suite;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * What one run measured.
 *
 * @param status the status name ({@code OPTIMAL}, {@code FEASIBLE}, ..., {@code ERROR})
 * @param values metric id to value (empty or absent when the run has none)
 * @param message why an {@code ERROR} run failed, else empty
 */
public record RunOutcome(String status, Map<String, OptionalDouble> values, String message) {
  public static RunOutcome error(String message) {
    return new RunOutcome("ERROR", Map.of(), message);
  }
}
