package io.github.memplan.core.solve;

import io.github.memplan.core.io.InputText;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
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

  /** The id of the planner this configuration is for. */
  public String plannerId() {
    return plannerId;
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
          parameter(key) + " is not an integer: " + InputText.quote(v));
    }
  }

  public int intValue(String key) {
    long v = longValue(key);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(parameter(key) + " is out of range: " + v);
    }
    return (int) v;
  }

  public double doubleValue(String key) {
    String v = string(key);
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          parameter(key) + " is not a number: " + InputText.quote(v));
    }
  }

  public boolean booleanValue(String key) {
    String v = string(key).trim().toLowerCase(Locale.ROOT);
    return switch (v) {
      case "true", "yes", "1", "on" -> true;
      case "false", "no", "0", "off" -> false;
      default ->
          throw new IllegalArgumentException(
              parameter(key) + " is not a boolean: " + InputText.quote(string(key)));
    };
  }

  /** {@link #intValue}, which must be at least {@code min}. */
  public int intValue(String key, int min) {
    int v = intValue(key);
    if (v < min) {
      throw new IllegalArgumentException(parameter(key) + " must be at least " + min + ": " + v);
    }
    return v;
  }

  /** {@link #longValue}, which must be at least {@code min}. */
  public long longValue(String key, long min) {
    long v = longValue(key);
    if (v < min) {
      throw new IllegalArgumentException(parameter(key) + " must be at least " + min + ": " + v);
    }
    return v;
  }

  /**
   * The value of {@code key}, trimmed and lower-cased, which must be one of {@code allowed}; else
   * an error naming the planner, the parameter, the value and the allowed ones.
   */
  public String choice(String key, List<String> allowed) {
    String v = string(key).trim().toLowerCase(Locale.ROOT);
    if (!allowed.contains(v)) {
      throw new IllegalArgumentException(
          parameter(key) + " must be " + oneOf(allowed) + ", not " + InputText.quote(string(key)));
    }
    return v;
  }

  /**
   * The constant of {@code type} whose {@link #spelling} is the value of {@code key} (any case), as
   * {@link #choice(String, List)} checks it.
   */
  public <E extends Enum<E>> E choice(String key, Class<E> type) {
    List<E> constants = Arrays.asList(type.getEnumConstants());
    List<String> names = constants.stream().map(PlannerConfig::spelling).toList();
    return constants.get(names.indexOf(choice(key, names)));
  }

  /** An enum constant as a parameter value: its name lower-cased, {@code _} as {@code -}. */
  public static String spelling(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** {@code a or b}, {@code a, b or c}. */
  static String oneOf(List<String> values) {
    int n = values.size();
    return n < 2
        ? String.join("", values)
        : String.join(", ", values.subList(0, n - 1)) + " or " + values.get(n - 1);
  }

  /**
   * The value of {@code key} as a duration in the CLI's syntax ({@link Durations#parse}); empty for
   * {@code none}.
   */
  public Optional<Duration> duration(String key) {
    try {
      return Optional.ofNullable(Durations.parse(string(key)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(parameter(key) + ": " + e.getMessage(), e);
    }
  }

  /**
   * The provider of the planner that the value of {@code key} names (trimmed), for instances of
   * {@code type}: a planner this one starts from or delegates to, reached through {@link Planners}
   * so that no module imports another's planners. An unknown id, a planner of another problem and
   * this planner itself are one-line errors naming the parameter.
   */
  public <I, S> PlannerProvider<I, S> planner(String key, Class<I> type) {
    String id = string(key).trim();
    if (id.equals(plannerId)) {
      throw new IllegalArgumentException(parameter(key) + " cannot name the planner itself");
    }
    for (PlannerProvider<?, ?> p : Planners.all()) {
      if (p.id().equals(id) && !p.instanceType().equals(type)) {
        throw new IllegalArgumentException(
            parameter(key)
                + ": planner "
                + InputText.quote(id)
                + " takes "
                + p.instanceType().getSimpleName()
                + ", not "
                + type.getSimpleName());
      }
    }
    try {
      return Planners.get(id, type);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(parameter(key) + ": " + e.getMessage(), e);
    }
  }

  /**
   * What {@code body} returns; an {@link IllegalArgumentException} it throws (a planner's options
   * refusing a value) is rethrown naming this planner, unless it already does.
   */
  public <T> T named(Supplier<T> body) {
    try {
      return body.get();
    } catch (IllegalArgumentException e) {
      String name = "planner '" + plannerId + "'";
      if (e.getMessage() != null && e.getMessage().startsWith(name)) {
        throw e;
      }
      throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
    }
  }

  /**
   * What {@code body} returns; an {@link IllegalArgumentException} it throws (the parser of the
   * value of {@code key} refusing it) is rethrown naming this planner and the parameter.
   */
  public <T> T named(String key, Supplier<T> body) {
    try {
      return body.get();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(parameter(key) + ": " + e.getMessage(), e);
    }
  }

  private String parameter(String key) {
    return "planner '" + plannerId + "': parameter " + InputText.quote(key);
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
