package io.github.memplan.core.dsa;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A buffer to place: it lives in the half-open timestep interval {@code [lower, upper)} and needs
 * {@code size} bytes at an offset that is a multiple of {@code alignment}.
 *
 * @param id unique within its instance
 * @param lower first timestep alive (inclusive)
 * @param upper first timestep dead (exclusive)
 * @param size bytes
 * @param alignment offsets must be multiples of it (1 = none)
 * @param gaps spans of partial occupancy inside the lifetime, sorted and disjoint
 * @param fixedOffset the offset this buffer must take, when pre-assigned
 */
public record Buffer(
    String id,
    int lower,
    int upper,
    long size,
    long alignment,
    List<Gap> gaps,
    OptionalLong fixedOffset) {

  public Buffer {
    Objects.requireNonNull(id, "id");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("buffer id is empty");
    }
    if (lower < 0) {
      throw new IllegalArgumentException("buffer '" + id + "': lower " + lower + " < 0");
    }
    if (upper <= lower) {
      throw new IllegalArgumentException(
          "buffer '" + id + "': upper " + upper + " must be > lower " + lower);
    }
    if (size < 0) {
      throw new IllegalArgumentException("buffer '" + id + "': size " + size + " < 0");
    }
    if (alignment < 1) {
      throw new IllegalArgumentException("buffer '" + id + "': alignment " + alignment + " < 1");
    }
    gaps = List.copyOf(gaps);
    int prevUpper = lower;
    for (Gap g : gaps) {
      if (g.lower() < prevUpper || g.upper() > upper) {
        throw new IllegalArgumentException(
            "buffer '"
                + id
                + "': gaps must be sorted, disjoint and inside ["
                + lower
                + ", "
                + upper
                + ")");
      }
      if (g.hasWindow() && g.windowUpper() > size) {
        throw new IllegalArgumentException(
            "buffer '" + id + "': gap window ends at " + g.windowUpper() + " > size " + size);
      }
      prevUpper = g.upper();
    }
    Objects.requireNonNull(fixedOffset, "fixedOffset");
    if (fixedOffset.isPresent() && fixedOffset.getAsLong() < 0) {
      throw new IllegalArgumentException(
          "buffer '" + id + "': fixed offset " + fixedOffset.getAsLong() + " < 0");
    }
  }

  /** A plain buffer: no alignment, no gaps, no fixed offset. */
  public static Buffer of(String id, int lower, int upper, long size) {
    return new Buffer(id, lower, upper, size, 1, List.of(), OptionalLong.empty());
  }

  public Buffer withAlignment(long newAlignment) {
    return new Buffer(id, lower, upper, size, newAlignment, gaps, fixedOffset);
  }

  public Buffer withFixedOffset(long offset) {
    return new Buffer(id, lower, upper, size, alignment, gaps, OptionalLong.of(offset));
  }

  public Buffer withoutFixedOffset() {
    return new Buffer(id, lower, upper, size, alignment, gaps, OptionalLong.empty());
  }

  /** Whether the two lifetimes share a timestep. */
  public boolean overlapsInTime(Buffer other) {
    return lower < other.upper && other.lower < upper;
  }

  /** Timesteps alive. */
  public int length() {
    return upper - lower;
  }

  /** size × lifetime: the buffer's area in the time × address plane. */
  public long area() {
    return size * (long) length();
  }
}
