package io.github.memplan.core.group;

/**
 * Number of slices per axis of a group ({@code shape_secs_t}, {@code reference/tpu-mlir.md} §2.1);
 * the loop count is their product. {@code dsecs} is not modelled (always 1).
 */
public record ShapeSecs(int nsecs, int csecs, int hsecs, int wsecs) {
  public static final ShapeSecs ONE = new ShapeSecs(1, 1, 1, 1);

  public ShapeSecs {
    if (nsecs < 1 || csecs < 1 || hsecs < 1 || wsecs < 1) {
      throw new IllegalArgumentException(
          "shape secs must be >= 1: " + nsecs + "/" + csecs + "/" + hsecs + "/" + wsecs);
    }
  }

  /** N and H secs only, as v0 splits. */
  public static ShapeSecs nh(int nsecs, int hsecs) {
    return new ShapeSecs(nsecs, 1, hsecs, 1);
  }

  public int secs(Axis axis) {
    return switch (axis) {
      case N -> nsecs;
      case C -> csecs;
      case H -> hsecs;
      case W -> wsecs;
    };
  }

  /** Loop count: the product of the secs. */
  public long loops() {
    return (long) nsecs * csecs * hsecs * wsecs;
  }

  /** {@code n2c1h4w1}. */
  @Override
  public String toString() {
    return "n" + nsecs + "c" + csecs + "h" + hsecs + "w" + wsecs;
  }
}
