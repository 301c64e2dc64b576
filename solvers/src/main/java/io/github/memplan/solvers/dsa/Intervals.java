package io.github.memplan.solvers.dsa;

/** Sorting of interval arrays in place, shared by the DSA and LMEM searches' hot loops. */
public final class Intervals {
  private Intervals() {}

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
