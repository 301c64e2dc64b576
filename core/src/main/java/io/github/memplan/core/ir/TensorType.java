package io.github.memplan.core.ir;

import java.util.Objects;

/** A shape and an element type: what shape inference computes for each op output. */
public record TensorType(Shape shape, DType dtype) {
  public TensorType {
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(dtype, "dtype");
  }

  public long bytes() {
    return dtype.bytes(shape.elements());
  }

  @Override
  public String toString() {
    return dtype.name().toLowerCase(java.util.Locale.ROOT) + "[" + shape + "]";
  }
}
