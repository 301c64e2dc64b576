package io.github.memplan.baseline.support;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.solve.Budget;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Helpers the baseline planners share. Every planner here treats a buffer as occupying its whole
 * size for its whole lifetime (gaps are not exploited, which keeps placements valid), and gives
 * zero-size buffers offset 0 without letting them take part in placement (they occupy nothing).
 */
public final class Lifetimes {
  private Lifetimes() {}

  /** How many placements a one-pass planner makes between two budget polls. */
  public static final int POLL_EVERY = 256;

  /** {@code value} rounded up to a multiple of {@code alignment}. */

  /** Whether {@code b} takes part in placement: it has bytes and no fixed offset. */
  public static boolean movable(Buffer b) {
    return b.size() > 0 && b.fixedOffset().isEmpty();
  }

  /**
   * For every buffer with {@code size > 0}, the indices of the other such buffers whose lifetimes
   * overlap its own, ascending; an empty array for zero-size buffers. A sweep over start times, so
   * the cost is the number of overlapping pairs plus a sort.
   */
  public static int[][] overlaps(DsaInstance instance) {
    return overlaps(instance, Budget.unlimited());
  }

  /**
   * {@link #overlaps(DsaInstance)}, polling {@code budget} as the pairs are listed: {@code null}
   * when it runs out first.
   */
  public static int[][] overlaps(DsaInstance instance, Budget budget) {
    int n = instance.size();
    List<Integer> byLower = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (instance.buffer(i).size() > 0) {
        byLower.add(i);
      }
    }
    byLower.sort(
        Comparator.<Integer>comparingInt(i -> instance.buffer(i).lower()).thenComparingInt(i -> i));
    int[][] lists = new int[n][];
    int[] counts = new int[n];
    int[][] grow = new int[n][];
    for (int i = 0; i < n; i++) {
      grow[i] = new int[4];
    }
    List<Integer> active = new ArrayList<>();
    long work = 0;
    for (int i : byLower) {
      Buffer b = instance.buffer(i);
      active.removeIf(j -> instance.buffer(j).upper() <= b.lower());
      for (int j : active) {
        add(grow, counts, i, j);
        add(grow, counts, j, i);
      }
      active.add(i);
      work += active.size();
      if (work >= 1 << 16) {
        work = 0;
        if (budget.exhausted()) {
          return null;
        }
      }
    }
    work = 0;
    for (int i = 0; i < n; i++) {
      lists[i] = Arrays.copyOf(grow[i], counts[i]);
      grow[i] = null;
      Arrays.sort(lists[i]);
      work += counts[i];
      if (work >= 1 << 16) {
        work = 0;
        if (budget.exhausted()) {
          return null;
        }
      }
    }
    return lists;
  }

  private static void add(int[][] grow, int[] counts, int at, int value) {
    if (counts[at] == grow[at].length) {
      grow[at] = Arrays.copyOf(grow[at], grow[at].length * 2);
    }
    grow[at][counts[at]++] = value;
  }

  /**
   * The largest total size alive at one timestep, every buffer counted whole (gaps ignored): the
   * load the planners here see.
   */
  public static long wholeSizeMaxLoad(DsaInstance instance) {
    List<long[]> events = new ArrayList<>();
    for (Buffer b : instance.buffers()) {
      if (b.size() > 0) {
        events.add(new long[] {b.lower(), b.size()});
        events.add(new long[] {b.upper(), -b.size()});
      }
    }
    events.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
    long load = 0;
    long max = 0;
    for (long[] e : events) {
      load += e[1];
      max = Math.max(max, load);
    }
    return max;
  }

  /** The highest end of any buffer with a fixed offset (0 if none). */
  public static long fixedTop(DsaInstance instance) {
    long top = 0;
    for (Buffer b : instance.buffers()) {
      if (b.fixedOffset().isPresent()) {
        top = Math.max(top, b.fixedOffset().getAsLong() + b.size());
      }
    }
    return top;
  }

  /**
   * Compares two names as C++'s {@code std::string} does: byte by byte (UTF-8), unsigned, a prefix
   * first.
   */
  public static int compareNames(String a, String b) {
    return Arrays.compareUnsigned(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Sorts {@code a[0 .. len)} by {@code key[a[i]]} ascending, stably (so ties keep their order in
   * {@code a}). {@code scratch} and {@code packed} must hold at least {@code len} entries. When
   * every key is non-negative and small enough to share a {@code long} with a position, the keys
   * and positions are packed and sorted as primitives; otherwise a merge sort runs.
   */
  public static void sortByKey(int[] a, int len, long[] key, int[] scratch, long[] packed) {
    if (len < 2) {
      return;
    }
    int positionBits = 32 - Integer.numberOfLeadingZeros(len - 1);
    long limit = Long.MAX_VALUE >>> positionBits;
    boolean packable = true;
    for (int i = 0; i < len && packable; i++) {
      long k = key[a[i]];
      packable = k >= 0 && k <= limit;
    }
    if (packable) {
      for (int i = 0; i < len; i++) {
        packed[i] = (key[a[i]] << positionBits) | i;
        scratch[i] = a[i];
      }
      Arrays.sort(packed, 0, len);
      long mask = (1L << positionBits) - 1;
      for (int i = 0; i < len; i++) {
        a[i] = scratch[(int) (packed[i] & mask)];
      }
      return;
    }
    for (int width = 1; width < len; width *= 2) {
      for (int lo = 0; lo < len - width; lo += 2 * width) {
        int mid = lo + width;
        int hi = Math.min(lo + 2 * width, len);
        if (key[a[mid - 1]] <= key[a[mid]]) {
          continue;
        }
        System.arraycopy(a, lo, scratch, lo, hi - lo);
        int i = lo;
        int j = mid;
        for (int k = lo; k < hi; k++) {
          if (j >= hi || (i < mid && key[scratch[i]] <= key[scratch[j]])) {
            a[k] = scratch[i++];
          } else {
            a[k] = scratch[j++];
          }
        }
      }
    }
  }

  /** Whether a one-pass planner must stop before its {@code done}-th placement. */
  public static boolean stop(Budget budget, long done) {
    return done % POLL_EVERY == 0 && budget.exhausted(done);
  }
}
