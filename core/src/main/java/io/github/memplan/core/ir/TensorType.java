package io.github.memplan.core.ir;

import java.util.Objects;

/** A shape and an element type: what shape inference computes for each op output. */
public record TensorType(Shape shape, DType dtype) {
  /**
   * The largest tensor memplan plans: 2^40 bytes (1 TiB), more than any accelerator's memory holds,
   * and small enough that sizes, offsets and their sums over 2^23 tensors stay within a {@code
   * long} in every planner, and byte counts times element bits or lifetimes never overflow. {@link
   * ShapeInference} checks every op result against it and {@link Graph.Builder} every tensor, so a
   * graph from any source (ONNX, darknet, graph JSON, builders) holds no larger tensor.
   */
  public static final long MAX_BYTES = 1L << 40;

  public TensorType {
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(dtype, "dtype");
  }

  /**
   * Fails when a tensor of {@code shape} and {@code dtype} holds more than {@link #MAX_BYTES}
   * bytes, with one line that starts with {@code what} (the tensor and where it is); the arithmetic
   * cannot overflow, whatever the dims.
   *
   * @throws IllegalArgumentException naming the tensor, its bytes and the limit
   */
  public static void checkBytes(String what, Shape shape, DType dtype) {
    long maxElements = MAX_BYTES * 8 / dtype.bits();
    long elements = 1;
    boolean over = false;
    for (long d : shape.dims()) {
      if (d == 0) {
        return;
      }
      over |= elements > maxElements / d;
      elements = over ? maxElements + 1 : elements * d;
    }
    if (!over && elements <= maxElements) {
      return;
    }
    java.math.BigInteger bits = java.math.BigInteger.valueOf(dtype.bits());
    for (long d : shape.dims()) {
      bits = bits.multiply(java.math.BigInteger.valueOf(d));
    }
    java.math.BigInteger bytes = bits.add(java.math.BigInteger.valueOf(7)).shiftRight(3);
    throw new IllegalArgumentException(
        what
            + " "
            + new TensorType(shape, dtype)
            + " is "
            + bytes
            + " bytes; memplan plans tensors of at most 2^40 bytes (1 TiB)");
  }

  public long bytes() {
    return dtype.bytes(shape.elements());
  }

  @Override
  public String toString() {
    return dtype.name().toLowerCase(java.util.Locale.ROOT) + "[" + shape + "]";
  }
}
