package io.github.memplan.solvers.dsa.bnb;

import io.github.memplan.solvers.dsa.SearchModel;
import java.util.Arrays;
import java.util.Comparator;

/**
 * A static preorder of buffers, MiniMalloc's {@code PreorderingComparator} (google/minimalloc
 * {@code src/solver.cc}): a word of letters, each a key compared in decreasing order, ties broken
 * by the buffer's index in the instance. Letters: {@code A} area (size × lifetime), {@code C}
 * sections spanned, {@code L} lower, {@code O} co-active buffers, {@code T} the largest remaining
 * load of a section it spans (computed when a (sub-)partition starts), {@code U} upper, {@code W}
 * lifetime width, {@code Z} size. MiniMalloc's default portfolio is {@code WAT, TAW, TWA}.
 */
record Preorder(String word) {

  static final String LETTERS = "ACLOTUWZ";

  Preorder {
    if (word.isEmpty()) {
      throw new IllegalArgumentException("empty preorder: use letters of " + LETTERS);
    }
    for (char c : word.toCharArray()) {
      if (LETTERS.indexOf(c) < 0) {
        throw new IllegalArgumentException(
            "preorder '" + word + "': unknown letter '" + c + "' (known: " + LETTERS + ")");
      }
    }
  }

  /** {@code bufs[0..count)} sorted by this preorder, as a new array. */
  int[] sort(SearchModel md, int[] bufs, int count, long[] sectionTotals) {
    long[] t = new long[count];
    Integer[] idx = new Integer[count];
    for (int k = 0; k < count; k++) {
      int b = bufs[k];
      long mx = 0;
      for (int sp = md.spanFrom[b]; sp < md.spanFrom[b + 1]; sp++) {
        for (int s = md.spanLo[sp]; s < md.spanHi[sp]; s++) {
          mx = Math.max(mx, sectionTotals[s]);
        }
      }
      t[k] = mx;
      idx[k] = k;
    }
    Comparator<Integer> cmp =
        (x, y) -> {
          int a = bufs[x];
          int b = bufs[y];
          for (int i = 0; i < word.length(); i++) {
            long ka = key(md, word.charAt(i), a, t[x]);
            long kb = key(md, word.charAt(i), b, t[y]);
            if (ka != kb) {
              return ka > kb ? -1 : 1;
            }
          }
          return Integer.compare(md.index[a], md.index[b]);
        };
    Arrays.sort(idx, cmp);
    int[] out = new int[count];
    for (int k = 0; k < count; k++) {
      out[k] = bufs[idx[k]];
    }
    return out;
  }

  private static long key(SearchModel md, char c, int b, long total) {
    return switch (c) {
      case 'A' -> md.size[b] * (long) (md.upper[b] - md.lower[b]);
      case 'C' -> md.last[b] - md.first[b];
      case 'L' -> md.lower[b];
      case 'O' -> md.ovl[b].length;
      case 'T' -> total;
      case 'U' -> md.upper[b];
      case 'W' -> md.upper[b] - md.lower[b];
      case 'Z' -> md.size[b];
      default -> throw new IllegalStateException("letter " + c);
    };
  }
}
