package io.github.memplan.core.dsa;

import io.github.memplan.core.solve.Validator;
import io.github.memplan.core.solve.Violation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;

/**
 * The oracle of the DSA problem. Checks, from scratch: one offset per buffer, offsets non-negative,
 * alignment, fixed offsets, capacity, and that no two buffers overlap in time × address (gaps
 * honoured). Reports at most {@value #MAX_REPORTED} overlaps one by one, then their count.
 */
public final class DsaValidator implements Validator<DsaInstance, DsaSolution> {
  static final int MAX_REPORTED = 20;

  @Override
  public List<Violation> validate(DsaInstance instance, DsaSolution solution) {
    List<Violation> out = new ArrayList<>();
    if (solution.size() != instance.size()) {
      out.add(
          new Violation(
              "count",
              "solution has "
                  + solution.size()
                  + " offsets for "
                  + instance.size()
                  + " buffers of '"
                  + instance.name()
                  + "'"));
      return out;
    }
    for (int i = 0; i < instance.size(); i++) {
      Buffer b = instance.buffer(i);
      long off = solution.offset(i);
      if (off < 0) {
        out.add(new Violation("negative", "buffer '" + b.id() + "' has offset " + off + " < 0"));
        continue;
      }
      if (off % b.alignment() != 0) {
        out.add(
            new Violation(
                "alignment",
                "buffer '"
                    + b.id()
                    + "' at offset "
                    + off
                    + " is not a multiple of its alignment "
                    + b.alignment()));
      }
      if (b.fixedOffset().isPresent() && b.fixedOffset().getAsLong() != off) {
        out.add(
            new Violation(
                "fixed-offset",
                "buffer '"
                    + b.id()
                    + "' must be at "
                    + b.fixedOffset().getAsLong()
                    + " but is at "
                    + off));
      }
      if (off > instance.capacity() - b.size()) {
        String end =
            endOverflows(off, b.size())
                ? "past Long.MAX_VALUE (offset " + off + ", size " + b.size() + ")"
                : String.valueOf(off + b.size());
        out.add(
            new Violation(
                "capacity",
                "buffer '" + b.id() + "' ends at " + end + " > capacity " + instance.capacity()));
      }
    }
    checkOverlaps(instance, solution, out);
    return out;
  }

  private static void checkOverlaps(
      DsaInstance instance, DsaSolution solution, List<Violation> out) {
    List<Occupancy.Piece> pieces = Occupancy.pieces(instance);
    if (noOverlap(instance, solution, pieces)) {
      return;
    }
    listOverlaps(instance, solution, pieces, out);
  }

  /**
   * Whether no two pieces overlap, in {@code O(p log p)} for {@code p} pieces: a sweep over time
   * that keeps the pieces alive, which are disjoint in address as long as no overlap was found, in
   * a map by start address; a new piece can then only overlap the alive piece that starts last
   * below its end. Pieces are non-empty, and those of one buffer never share a timestep. Pieces
   * with a negative or overflowing offset are skipped, as in {@link #listOverlaps}.
   */
  private static boolean noOverlap(
      DsaInstance instance, DsaSolution solution, List<Occupancy.Piece> pieces) {
    int m = pieces.size();
    Integer[] byUpper = new Integer[m];
    for (int k = 0; k < m; k++) {
      byUpper[k] = k;
    }
    java.util.Arrays.sort(
        byUpper, (a, b) -> Integer.compare(pieces.get(a).upper(), pieces.get(b).upper()));
    java.util.TreeMap<Long, Long> alive = new java.util.TreeMap<>(); // start address -> end
    long[] start = new long[m];
    boolean[] in = new boolean[m];
    int gone = 0;
    for (int k = 0; k < m; k++) {
      Occupancy.Piece p = pieces.get(k);
      while (gone < m && pieces.get(byUpper[gone]).upper() <= p.lower()) {
        int q = byUpper[gone++];
        if (in[q]) {
          alive.remove(start[q]);
          in[q] = false;
        }
      }
      long off = solution.offset(p.buffer());
      if (off < 0 || endOverflows(off, instance.buffer(p.buffer()).size())) {
        continue;
      }
      long lo = off + p.from();
      long hi = off + p.to();
      java.util.Map.Entry<Long, Long> below = alive.lowerEntry(hi);
      if (below != null && below.getValue() > lo) {
        return false;
      }
      alive.put(lo, hi);
      start[k] = lo;
      in[k] = true;
    }
    return true;
  }

  /** Reports every overlapping pair of pieces (the first {@value #MAX_REPORTED} one by one). */
  private static void listOverlaps(
      DsaInstance instance,
      DsaSolution solution,
      List<Occupancy.Piece> pieces,
      List<Violation> out) {
    LinkedList<Occupancy.Piece> active = new LinkedList<>();
    long overlaps = 0;
    for (Occupancy.Piece p : pieces) {
      long off = solution.offset(p.buffer());
      // negative and overflowing offsets are reported above; their addresses are meaningless
      if (off < 0 || endOverflows(off, instance.buffer(p.buffer()).size())) {
        continue;
      }
      long lo = off + p.from();
      long hi = off + p.to();
      for (Iterator<Occupancy.Piece> it = active.iterator(); it.hasNext(); ) {
        Occupancy.Piece q = it.next();
        if (q.upper() <= p.lower()) {
          it.remove();
          continue;
        }
        if (q.buffer() == p.buffer()) {
          continue;
        }
        long qlo = solution.offset(q.buffer()) + q.from();
        long qhi = solution.offset(q.buffer()) + q.to();
        if (lo < qhi && qlo < hi) {
          overlaps++;
          if (overlaps <= MAX_REPORTED) {
            Buffer a = instance.buffer(q.buffer());
            Buffer b = instance.buffer(p.buffer());
            out.add(
                new Violation(
                    "overlap",
                    "buffers '"
                        + a.id()
                        + "' ["
                        + qlo
                        + ", "
                        + qhi
                        + ") and '"
                        + b.id()
                        + "' ["
                        + lo
                        + ", "
                        + hi
                        + ") overlap during timesteps ["
                        + Math.max(p.lower(), q.lower())
                        + ", "
                        + Math.min(p.upper(), q.upper())
                        + ")"));
          }
        }
      }
      active.add(p);
    }
    if (overlaps > MAX_REPORTED) {
      out.add(
          new Violation(
              "overlap",
              (overlaps - MAX_REPORTED) + " more overlapping pairs of pieces not listed"));
    }
  }

  private static boolean endOverflows(long offset, long size) {
    return offset > Long.MAX_VALUE - size;
  }
}
