package io.github.memplan.solvers.timefold;

import java.util.Arrays;

/**
 * What the order decoders of the Timefold planners share (this package's DSA {@link Decoder} and
 * the LMEM decoder of {@code solvers.lmem.timefold}): a view of a decode in progress, the decode of
 * a whole order from scratch, and the sort of forbidden address intervals.
 */
public final class OrderDecoding {
  private OrderDecoding() {}

  /** Read access to a decode in progress: an item's position in the order and its address. */
  public interface State {
    /** Position in the order, or {@link Integer#MAX_VALUE} when not placed. */
    int position(int item);

    /** The address (offset) of a placed item. */
    long address(int item);
  }

  /** Places one item, given the state of the items before it. */
  @FunctionalInterface
  public interface Placer {
    long place(int item, int position, State state);
  }

  /**
   * Decodes a whole order of {@code n} items (every item exactly once) from scratch: the address of
   * each item.
   */
  public static long[] decode(int n, int[] order, Placer placer) {
    if (order.length != n) {
      throw new IllegalArgumentException("order has " + order.length + " buffers, not " + n);
    }
    int[] pos = new int[n];
    Arrays.fill(pos, Integer.MAX_VALUE);
    for (int p = 0; p < n; p++) {
      if (pos[order[p]] != Integer.MAX_VALUE) {
        throw new IllegalArgumentException("buffer " + order[p] + " appears twice in the order");
      }
      pos[order[p]] = p;
    }
    long[] addr = new long[n];
    State state =
        new State() {
          @Override
          public int position(int item) {
            return pos[item];
          }

          @Override
          public long address(int item) {
            return addr[item];
          }
        };
    for (int p = 0; p < n; p++) {
      addr[order[p]] = placer.place(order[p], p, state);
    }
    return addr;
  }

  /**
   * Sorts the intervals {@code [from, to]} by {@code lo}: insertion sort, or quicksort above 24.
   */
  public static void sortByLow(long[] lo, long[] hi, int from, int to) {
    while (to - from > 24) {
      int mid = (from + to) >>> 1;
      long pivot = lo[mid];
      int i = from;
      int j = to;
      while (i <= j) {
        while (lo[i] < pivot) {
          i++;
        }
        while (lo[j] > pivot) {
          j--;
        }
        if (i <= j) {
          swap(lo, hi, i++, j--);
        }
      }
      if (j - from < to - i) {
        sortByLow(lo, hi, from, j);
        from = i;
      } else {
        sortByLow(lo, hi, i, to);
        to = j;
      }
    }
    for (int i = from + 1; i <= to; i++) {
      long l = lo[i];
      long h = hi[i];
      int j = i - 1;
      while (j >= from && lo[j] > l) {
        lo[j + 1] = lo[j];
        hi[j + 1] = hi[j];
        j--;
      }
      lo[j + 1] = l;
      hi[j + 1] = h;
    }
  }

  private static void swap(long[] lo, long[] hi, int i, int j) {
    long t = lo[i];
    lo[i] = lo[j];
    lo[j] = t;
    t = hi[i];
    hi[i] = hi[j];
    hi[j] = t;
  }
}
