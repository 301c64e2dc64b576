package io.github.memplan.core.ir;

import java.util.List;

/** A typed attribute value, as in ONNX's AttributeProto (int, ints, float, floats, string). */
public sealed interface Attr {
  record Int(long value) implements Attr {}

  record Ints(List<Long> values) implements Attr {
    public Ints {
      values = List.copyOf(values);
    }

    public long[] toArray() {
      long[] out = new long[values.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = values.get(i);
      }
      return out;
    }
  }

  record Float(double value) implements Attr {}

  record Floats(List<Double> values) implements Attr {
    public Floats {
      values = List.copyOf(values);
    }

    public double[] toArray() {
      return values.stream().mapToDouble(Double::doubleValue).toArray();
    }
  }

  record Str(String value) implements Attr {}

  static Attr of(long value) {
    return new Int(value);
  }

  static Attr of(long... values) {
    return new Ints(java.util.Arrays.stream(values).boxed().toList());
  }

  static Attr of(double value) {
    return new Float(value);
  }

  static Attr of(double... values) {
    return new Floats(java.util.Arrays.stream(values).boxed().toList());
  }

  static Attr of(String value) {
    return new Str(value);
  }
}
