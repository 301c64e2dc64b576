package io.github.memplan.core.solve;

import java.util.List;
import java.util.Objects;

/**
 * One parameter a planner accepts.
 *
 * @param name the key, kebab-case
 * @param description what it changes
 * @param defaultValue the value used when the configuration omits it
 */
public record Parameter(String name, String description, String defaultValue) {
  public Parameter {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(defaultValue, "defaultValue");
  }

  /**
   * A parameter taking one of {@code values}, the first the default; the description lists them
   * ({@code "description: a, b, c"}). Read it with {@link PlannerConfig#choice(String, List)}.
   */
  public static Parameter choice(String name, String description, List<String> values) {
    return new Parameter(name, description + ": " + String.join(", ", values), values.get(0));
  }
}
