package io.github.memplan.core.group;

import io.github.memplan.core.ir.Shape;

/**
 * A tensor's shape seen as TPU-MLIR's local layout {@code (n, c, h, w)}: rank 4 as is, rank 3 as
 * {@code (n, c, h, 1)}, rank 2 as {@code (n, c, 1, 1)}, rank 1 as {@code (1, c, 1, 1)}, a scalar as
 * all ones. Rank 5 and above have no 4-D view here (GROUP_3D is not modelled).
 */
public record Nchw(long n, long c, long h, long w) {

  /** The 4-D view of {@code shape}; fails for rank above 4. */
  public static Nchw of(Shape shape) {
    long[] d = shape.dims();
    return switch (d.length) {
      case 0 -> new Nchw(1, 1, 1, 1);
      case 1 -> new Nchw(1, d[0], 1, 1);
      case 2 -> new Nchw(d[0], d[1], 1, 1);
      case 3 -> new Nchw(d[0], d[1], d[2], 1);
      case 4 -> new Nchw(d[0], d[1], d[2], d[3]);
      default -> throw new IllegalArgumentException("no 4-D view of shape " + shape);
    };
  }

  /** The extent of {@code axis}. */
  public long dim(Axis axis) {
    return switch (axis) {
      case N -> n;
      case C -> c;
      case H -> h;
      case W -> w;
    };
  }
}
