package io.github.memplan.core.ir;

import java.util.Arrays;
import java.util.stream.Collectors;

/** A static tensor shape: non-negative dimensions, any rank (rank 0 is a scalar). Immutable. */
public final class Shape {
  private final long[] dims;

  private Shape(long[] dims) {
    for (long d : dims) {
      if (d < 0) {
        throw new IllegalArgumentException("negative dimension in shape " + Arrays.toString(dims));
      }
    }
    this.dims = dims;
  }

  public static Shape of(long... dims) {
    return new Shape(dims.clone());
  }

  public static Shape scalar() {
    return new Shape(new long[0]);
  }

  public int rank() {
    return dims.length;
  }

  /** Dimension {@code axis}; a negative axis counts from the end. */
  public long dim(int axis) {
    return dims[normalizeAxis(axis)];
  }

  /** {@code axis} in {@code [0, rank)}; a negative axis counts from the end. */
  public int normalizeAxis(int axis) {
    int a = axis < 0 ? axis + dims.length : axis;
    if (a < 0 || a >= dims.length) {
      throw new IllegalArgumentException("axis " + axis + " out of range for rank " + rank());
    }
    return a;
  }

  public long[] dims() {
    return dims.clone();
  }

  /**
   * Number of elements (1 for a scalar, 0 when a dim is 0 whatever the others).
   *
   * @throws ArithmeticException when the count does not fit a long
   */
  public long elements() {
    for (long d : dims) {
      if (d == 0) {
        return 0;
      }
    }
    long n = 1;
    for (long d : dims) {
      n = Math.multiplyExact(n, d);
    }
    return n;
  }

  /** A copy with dimension {@code axis} replaced. */
  public Shape with(int axis, long value) {
    long[] d = dims.clone();
    d[normalizeAxis(axis)] = value;
    return new Shape(d);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Shape s && Arrays.equals(dims, s.dims);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(dims);
  }

  /** {@code 1x3x224x224}; a scalar prints as {@code scalar}. */
  @Override
  public String toString() {
    if (dims.length == 0) {
      return "scalar";
    }
    return Arrays.stream(dims).mapToObj(Long::toString).collect(Collectors.joining("x"));
  }
}
