package io.github.memplan.core.dsa;

/** Offset arithmetic shared by every planner: rounding up to an alignment, common alignments. */
public final class Alignment {
  private Alignment() {}

  /** {@code value} rounded up to a multiple of {@code alignment} (at least 1). */
  public static long up(long value, long alignment) {
    if (alignment == 1) {
      return value;
    }
    long r = value % alignment;
    return r == 0 ? value : Math.addExact(value, alignment - r);
  }

  /**
   * The least common multiple of two alignments: the alignment of a block shared by buffers with
   * these alignments.
   *
   * @throws IllegalArgumentException naming {@code what} when it does not fit a {@code long}
   */
  public static long lcm(long a, long b, String what) {
    long x = gcd(a, b);
    try {
      return Math.multiplyExact(a / x, b);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          what + ": alignments " + a + " and " + b + " have no common multiple below 2^63");
    }
  }

  /**
   * The greatest common divisor of {@code a} and {@code b} (non-negative; {@code gcd(0, b) = |b|}):
   * folded over sizes, alignments and fixed offsets it gives the grid that search planners scale
   * by.
   */
  public static long gcd(long a, long b) {
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return Math.abs(a);
  }
}
