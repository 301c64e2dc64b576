package io.github.memplan.core.dsa;

import java.util.ArrayList;
import java.util.List;

/**
 * Lower bounds on the peak of a DSA instance: the physical limits every table reports beside a
 * planner's result.
 */
public final class LowerBounds {
  private LowerBounds() {}

  /**
   * The max-load bound: the largest total number of bytes alive at one timestep (gaps honoured:
   * during a gap a buffer counts its window's size), and at least the end of any buffer with a
   * fixed offset. No placement can have a smaller peak.
   */
  public static long maxLoad(DsaInstance instance) {
    List<long[]> events = new ArrayList<>();
    long fixedEnd = 0;
    for (int i = 0; i < instance.size(); i++) {
      Buffer b = instance.buffer(i);
      for (Occupancy.Piece p : Occupancy.pieces(i, b)) {
        long bytes = p.to() - p.from();
        events.add(new long[] {p.lower(), bytes});
        events.add(new long[] {p.upper(), -bytes});
      }
      if (b.fixedOffset().isPresent()) {
        fixedEnd = Math.max(fixedEnd, b.fixedOffset().getAsLong() + b.size());
      }
    }
    // at equal times, releases (negative) come first: lifetimes are half-open
    events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    long load = 0;
    long max = 0;
    for (long[] e : events) {
      load += e[1];
      max = Math.max(max, load);
    }
    return Math.max(max, fixedEnd);
  }

  /**
   * {@link #maxLoad} and at least every buffer's size: a buffer whose lifetime is all gap adds
   * nothing to the load, yet its offset plus its size still counts in the peak.
   */
  public static long maxLoadAndSizes(DsaInstance instance) {
    long bound = maxLoad(instance);
    for (Buffer b : instance.buffers()) {
      bound = Math.max(bound, b.size());
    }
    return bound;
  }

  /** Bytes alive at each timestep {@code 0 .. horizon-1} (gaps honoured). */
  public static long[] loadProfile(DsaInstance instance) {
    long[] diff = new long[instance.horizon() + 1];
    for (int i = 0; i < instance.size(); i++) {
      for (Occupancy.Piece p : Occupancy.pieces(i, instance.buffer(i))) {
        diff[p.lower()] += p.to() - p.from();
        diff[p.upper()] -= p.to() - p.from();
      }
    }
    long[] load = new long[instance.horizon()];
    long run = 0;
    for (int t = 0; t < load.length; t++) {
      run += diff[t];
      load[t] = run;
    }
    return load;
  }
}
