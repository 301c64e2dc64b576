package io.github.memplan.core.solve;

/**
 * One broken rule found by a {@link Validator}.
 *
 * @param rule a short stable code, e.g. {@code overlap}, {@code alignment}
 * @param message what is wrong and where (names the buffers, op or group at fault)
 */
public record Violation(String rule, String message) {
  @Override
  public String toString() {
    return rule + ": " + message;
  }
}
