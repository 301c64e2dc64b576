package io.github.memplan.core.solve;

import io.github.memplan.core.io.InputText;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A planner's resolved configuration: every declared parameter with its given or default value.
 * Unknown keys, null values and parameters declared twice fail fast, naming the planner (and, for
 * an unknown key, the keys it accepts).
 */
public final class PlannerConfig {
  private final String plannerId;
  private final Map<String, String> values;

  private PlannerConfig(String plannerId, Map<String, String> values) {
    this.plannerId = plannerId;
    this.values = Collections.unmodifiableMap(values);
  }

  /** Resolves {@code given} against {@code declared}; throws on an unknown key. */
  public static PlannerConfig resolve(
      String plannerId, List<Parameter> declared, Map<String, String> given) {
    Map<String, String> values = new TreeMap<>();
    for (Parameter p : declared) {
      if (values.put(p.name(), p.defaultValue()) != null) {
        throw new IllegalArgumentException(
            "planner '" + plannerId + "' declares parameter '" + p.name() + "' twice");
      }
    }
    for (Map.Entry<String, String> e : new TreeMap<>(given).entrySet()) {
      if (e.getValue() == null) {
        throw new IllegalArgumentException(
            "planner '"
                + plannerId
                + "': parameter "
                + InputText.quote(e.getKey())
                + " has no value");
      }
      if (!values.containsKey(e.getKey())) {
        String known =
            declared.isEmpty()
                ? "it takes no parameters"
                : "known: "
                    + declared.stream().map(Parameter::name).collect(Collectors.joining(", "));
        throw new IllegalArgumentException(
            "planner '"
                + plannerId
                + "': unknown parameter "
                + InputText.quote(e.getKey())
                + " ("
                + known
                + ")");
      }
      values.put(e.getKey(), e.getValue());
    }
    return new PlannerConfig(plannerId, values);
  }

  public String string(String key) {
    String v = values.get(key);
    if (v == null) {
      throw new IllegalArgumentException(
          "planner '" + plannerId + "' has no parameter " + InputText.quote(key));
    }
    return v;
  }

  public long longValue(String key) {
    String v = string(key);
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "planner '"
              + plannerId
              + "': parameter "
              + InputText.quote(key)
              + " is not an integer: "
              + InputText.quote(v));
    }
  }

  public int intValue(String key) {
    long v = longValue(key);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "planner '"
              + plannerId
              + "': parameter "
              + InputText.quote(key)
              + " is out of range: "
              + v);
    }
    return (int) v;
  }

  public double doubleValue(String key) {
    String v = string(key);
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "planner '"
              + plannerId
              + "': parameter "
              + InputText.quote(key)
              + " is not a number: "
              + InputText.quote(v));
    }
  }

  public boolean booleanValue(String key) {
    String v = string(key).trim().toLowerCase(java.util.Locale.ROOT);
    return switch (v) {
      case "true", "yes", "1", "on" -> true;
      case "false", "no", "0", "off" -> false;
      default ->
          throw new IllegalArgumentException(
              "planner '"
                  + plannerId
                  + "': parameter "
                  + InputText.quote(key)
                  + " is not a boolean: "
                  + InputText.quote(string(key)));
    };
  }

  /** All values, sorted by key. */
  public Map<String, String> values() {
    return values;
  }

  @Override
  public String toString() {
    return values.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(";"));
  }
}
