package io.github.memplan.core.ir;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An op's attributes: an immutable map from name to {@link Attr}, sorted by name, with typed
 * getters that fail with a message naming the attribute when its type is wrong.
 */
public final class Attributes {
  private static final Attributes EMPTY = new Attributes(new TreeMap<>());
  private final Map<String, Attr> values;

  private Attributes(TreeMap<String, Attr> values) {
    this.values = Collections.unmodifiableMap(values);
  }

  public static Attributes empty() {
    return EMPTY;
  }

  public static Attributes of(Map<String, Attr> values) {
    return new Attributes(new TreeMap<>(values));
  }

  public static Builder builder() {
    return new Builder();
  }

  public Map<String, Attr> asMap() {
    return values;
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }

  public Optional<Attr> get(String name) {
    return Optional.ofNullable(values.get(name));
  }

  public long getInt(String name, long defaultValue) {
    Attr a = values.get(name);
    if (a == null) {
      return defaultValue;
    }
    if (a instanceof Attr.Int i) {
      return i.value();
    }
    throw wrongType(name, "an int", a);
  }

  /**
   * The ints of {@code name} (a single int is a list of one), or {@code defaultValue} (may be
   * {@code null}) when absent.
   */
  public long[] getInts(String name, long[] defaultValue) {
    Attr a = values.get(name);
    if (a == null) {
      return defaultValue == null ? null : defaultValue.clone();
    }
    if (a instanceof Attr.Ints i) {
      return i.toArray();
    }
    if (a instanceof Attr.Int i) {
      return new long[] {i.value()};
    }
    throw wrongType(name, "a list of ints", a);
  }

  public double getFloat(String name, double defaultValue) {
    Attr a = values.get(name);
    if (a == null) {
      return defaultValue;
    }
    if (a instanceof Attr.Float f) {
      return f.value();
    }
    if (a instanceof Attr.Int i) {
      return i.value();
    }
    throw wrongType(name, "a float", a);
  }

  /**
   * The floats of {@code name} (ints are widened, a single value is a list of one), or {@code
   * defaultValue} (may be {@code null}) when absent.
   */
  public double[] getFloats(String name, double[] defaultValue) {
    Attr a = values.get(name);
    if (a == null) {
      return defaultValue == null ? null : defaultValue.clone();
    }
    if (a instanceof Attr.Floats f) {
      return f.toArray();
    }
    if (a instanceof Attr.Ints i) {
      return i.values().stream().mapToDouble(Long::doubleValue).toArray();
    }
    if (a instanceof Attr.Float f) {
      return new double[] {f.value()};
    }
    if (a instanceof Attr.Int i) {
      return new double[] {i.value()};
    }
    throw wrongType(name, "a list of floats", a);
  }

  public String getString(String name, String defaultValue) {
    Attr a = values.get(name);
    if (a == null) {
      return defaultValue;
    }
    if (a instanceof Attr.Str s) {
      return s.value();
    }
    throw wrongType(name, "a string", a);
  }

  private static IllegalArgumentException wrongType(String name, String wanted, Attr got) {
    return new IllegalArgumentException(
        "attribute '" + name + "' should be " + wanted + " but is " + got);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Attributes a && values.equals(a.values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  @Override
  public String toString() {
    return values.toString();
  }

  /** Collects attributes; later puts of the same name win. */
  public static final class Builder {
    private final TreeMap<String, Attr> values = new TreeMap<>();

    public Builder put(String name, Attr value) {
      values.put(name, value);
      return this;
    }

    public Builder put(String name, long value) {
      return put(name, Attr.of(value));
    }

    public Builder put(String name, long... values) {
      return put(name, Attr.of(values));
    }

    public Builder put(String name, double value) {
      return put(name, Attr.of(value));
    }

    public Builder put(String name, double... values) {
      return put(name, Attr.of(values));
    }

    public Builder put(String name, String value) {
      return put(name, Attr.of(value));
    }

    public Attributes build() {
      return values.isEmpty() ? EMPTY : new Attributes(new TreeMap<>(values));
    }
  }
}
