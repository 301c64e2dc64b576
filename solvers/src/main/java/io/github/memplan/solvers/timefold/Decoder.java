package io.github.memplan.solvers.timefold;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.Occupancy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The decoder of a placement order: each buffer in turn goes to the lowest offset, a multiple of
 * its alignment, at which it overlaps no buffer placed before it (in time × address, gaps and their
 * windows honoured exactly as {@link Occupancy} and the validator define them); a buffer with a
 * fixed offset goes to it.
 *
 * <p>Precomputed once per instance and immutable: for each buffer, the forbidden offsets that each
 * time-overlapping neighbour imposes, relative to the neighbour's offset. For pieces {@code p} of
 * buffer {@code x} and {@code q} of neighbour {@code y} that share a timestep, {@code x} at {@code
 * o} overlaps {@code y} at {@code o_y} iff {@code o_y + q.from - p.to < o < o_y + q.to - p.from};
 * the integer offsets of that open interval are the half-open {@code [o_y + dlo, o_y + dhi)} with
 * {@code dlo = q.from - p.to + 1}, {@code dhi = q.to - p.from}. A plain pair gives one interval,
 * {@code (o_y - size_x, o_y + size_y)}.
 */
final class Decoder {
  final int n;
  final long[] size;
  final long[] align;

  /** Fixed offset of each buffer, or -1. */
  final long[] fixed;

  /**
   * Per buffer: the neighbour of each forbidden interval (a neighbour may appear more than once).
   */
  final int[][] other;

  final long[][] dlo;
  final long[][] dhi;

  Decoder(DsaInstance inst) {
    n = inst.size();
    size = new long[n];
    align = new long[n];
    fixed = new long[n];
    List<List<Occupancy.Piece>> pieces = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Buffer b = inst.buffer(i);
      size[i] = b.size();
      align[i] = b.alignment();
      fixed[i] = b.fixedOffset().isPresent() ? b.fixedOffset().getAsLong() : -1;
      pieces.add(Occupancy.pieces(i, b));
    }
    // sweep the buffers by start time: each pair that shares a timestep is met once; the first
    // sweep counts the intervals of each buffer, the second fills them in
    Integer[] byLower = new Integer[n];
    for (int i = 0; i < n; i++) {
      byLower[i] = i;
    }
    Arrays.sort(
        byLower,
        (a, b) ->
            inst.buffer(a).lower() != inst.buffer(b).lower()
                ? Integer.compare(inst.buffer(a).lower(), inst.buffer(b).lower())
                : Integer.compare(a, b));
    other = new int[n][];
    dlo = new long[n][];
    dhi = new long[n][];
    int[] count = new int[n];
    for (int pass = 0; pass < 2; pass++) {
      List<Integer> active = new ArrayList<>();
      for (int x : byLower) {
        Buffer bx = inst.buffer(x);
        active.removeIf(y -> inst.buffer(y).upper() <= bx.lower());
        for (int y : active) {
          addPair(pieces.get(x), pieces.get(y), x, y, count);
          addPair(pieces.get(y), pieces.get(x), y, x, count);
        }
        active.add(x);
      }
      if (pass == 0) {
        for (int i = 0; i < n; i++) {
          other[i] = new int[count[i]];
          dlo[i] = new long[count[i]];
          dhi[i] = new long[count[i]];
        }
        Arrays.fill(count, 0);
      }
    }
  }

  /**
   * The intervals that {@code y}'s pieces forbid to {@code x}, relative to {@code y}'s offset:
   * counted while the arrays are not allocated yet, stored after.
   */
  private void addPair(
      List<Occupancy.Piece> px, List<Occupancy.Piece> py, int x, int y, int[] count) {
    for (Occupancy.Piece p : px) {
      for (Occupancy.Piece q : py) {
        if (p.lower() < q.upper() && q.lower() < p.upper()) {
          int k = count[x]++;
          if (other[x] != null) {
            other[x][k] = y;
            dlo[x][k] = q.from() - p.to() + 1;
            dhi[x][k] = q.to() - p.from();
          }
        }
      }
    }
  }

  /** Read access to the placement state: a buffer's position in the order and its offset. */
  interface State {
    /** Position in the order, or {@link Integer#MAX_VALUE} when not placed. */
    int position(int buffer);

    long offset(int buffer);
  }

  /** Scratch space for {@link #lowest}; one per thread. */
  static final class Scratch {
    long[] lo = new long[16];
    long[] hi = new long[16];

    void ensure(int k) {
      if (lo.length < k) {
        int cap = Math.max(k, lo.length * 2);
        lo = new long[cap];
        hi = new long[cap];
      }
    }
  }

  /**
   * The offset of buffer {@code x} at position {@code p} of the order: its fixed offset, else the
   * lowest aligned offset clear of every neighbour at a smaller position.
   */
  long place(int x, int p, State state, Scratch scratch) {
    if (fixed[x] >= 0) {
      return fixed[x];
    }
    int[] ys = other[x];
    scratch.ensure(ys.length);
    long[] lo = scratch.lo;
    long[] hi = scratch.hi;
    int m = 0;
    for (int k = 0; k < ys.length; k++) {
      int y = ys[k];
      if (state.position(y) < p) {
        long oy = state.offset(y);
        long h = oy + dhi[x][k];
        if (h > 0) {
          lo[m] = oy + dlo[x][k];
          hi[m] = h;
          m++;
        }
      }
    }
    sort(lo, hi, 0, m - 1);
    long a = align[x];
    long cand = 0;
    for (int k = 0; k < m; k++) {
      if (lo[k] > cand) {
        break; // this and every later interval start above cand
      }
      if (hi[k] > cand) {
        cand = Alignment.up(hi[k], a);
      }
    }
    return cand;
  }

  /** Sorts the intervals by {@code lo} (then {@code hi}): insertion sort, or quicksort above 24. */
  private static void sort(long[] lo, long[] hi, int from, int to) {
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
        sort(lo, hi, from, j);
        from = i;
      } else {
        sort(lo, hi, i, to);
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

  /**
   * Decodes a whole order from scratch: the offsets of all buffers (every buffer must appear in
   * {@code order} exactly once).
   */
  long[] decode(int[] order) {
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
    long[] off = new long[n];
    State state =
        new State() {
          @Override
          public int position(int buffer) {
            return pos[buffer];
          }

          @Override
          public long offset(int buffer) {
            return off[buffer];
          }
        };
    Scratch scratch = new Scratch();
    for (int p = 0; p < n; p++) {
      off[order[p]] = place(order[p], p, state, scratch);
    }
    return off;
  }
}
