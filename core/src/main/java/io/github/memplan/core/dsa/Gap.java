package io.github.memplan.core.dsa;

/**
 * A time span inside a buffer's lifetime during which it occupies only part of its space, as in
 * MiniMalloc's {@code gaps} column ({@code lower-upper} or {@code lower-upper@wlo:whi}).
 *
 * @param lower first timestep of the gap (inclusive)
 * @param upper end of the gap (exclusive)
 * @param windowLower start of the occupied window relative to the buffer's offset, or -1 when the
 *     buffer occupies nothing during the gap
 * @param windowUpper end of the occupied window (exclusive), or -1
 */
public record Gap(int lower, int upper, long windowLower, long windowUpper) {
  public Gap {
    if (upper <= lower) {
      throw new IllegalArgumentException("gap " + lower + "-" + upper + " is empty");
    }
    boolean hasWindow = windowLower >= 0 || windowUpper >= 0;
    if (hasWindow && (windowLower < 0 || windowUpper < windowLower)) {
      throw new IllegalArgumentException(
          "gap window " + windowLower + ":" + windowUpper + " is not a range");
    }
  }

  /** A gap during which the buffer occupies nothing. */
  public static Gap empty(int lower, int upper) {
    return new Gap(lower, upper, -1, -1);
  }

  public boolean hasWindow() {
    return windowLower >= 0;
  }
}
