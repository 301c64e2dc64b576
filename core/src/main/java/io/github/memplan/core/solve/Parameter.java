package io.github.memplan.core.solve;

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
}
