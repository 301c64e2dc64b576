package io.github.memplan.solvers.dsa.timefold;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.CoActive;
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

  /**
   * The relative bounds of each forbidden interval; {@code null} when no buffer has a gap: a plain
   * pair forbids {@code (o_y - size_x, o_y + size_y)}, computed from the sizes, so that the decoder
   * keeps one {@code int} per pair and direction (memory linear in the co-active pairs).
   */
  final long[][] dlo;

  final long[][] dhi;

  /** Thrown when the budget runs out while the pairs are listed or an order is decoded. */
  static final class Exhausted extends RuntimeException {
    Exhausted() {
      super("budget exhausted while decoding", null, false, false);
    }
  }

  Decoder(DsaInstance inst) {
    this(inst, io.github.memplan.core.solve.Budget.unlimited());
  }

  /** Polls {@code budget} while the pairs are listed; throws {@link Exhausted} when it runs out. */
  Decoder(DsaInstance inst, io.github.memplan.core.solve.Budget budget) {
    n = inst.size();
    size = new long[n];
    align = new long[n];
    fixed = new long[n];
    boolean gaps = false;
    int[] lowerOf = new int[n];
    int[] upperOf = new int[n];
    for (int i = 0; i < n; i++) {
      Buffer b = inst.buffer(i);
      size[i] = b.size();
      align[i] = b.alignment();
      fixed[i] = b.fixedOffset().isPresent() ? b.fixedOffset().getAsLong() : -1;
      lowerOf[i] = b.lower();
      upperOf[i] = b.upper();
      gaps |= !b.gaps().isEmpty();
    }
    List<List<Occupancy.Piece>> pieces = null;
    if (gaps) {
      pieces = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        pieces.add(Occupancy.pieces(i, inst.buffer(i)));
      }
    }
    dlo = gaps ? new long[n][] : null;
    dhi = gaps ? new long[n][] : null;
    if (!gaps) {
      int[][] lists = CoActive.lists(lowerOf, upperOf, x -> size[x] > 0, budget);
      if (lists == null) {
        throw new Exhausted();
      }
      other = lists;
      return;
    }
    // each pair that shares a timestep is met once; the first sweep counts the intervals of each
    // buffer, the second fills them in
    other = new int[n][];
    int[] count = new int[n];
    List<List<Occupancy.Piece>> ps = pieces;
    for (int pass = 0; pass < 2; pass++) {
      boolean done =
          CoActive.sweep(
              lowerOf,
              upperOf,
              x -> true,
              budget,
              (x, y) -> {
                addPair(ps.get(x), ps.get(y), x, y, count);
                addPair(ps.get(y), ps.get(x), y, x, count);
              });
      if (!done) {
        throw new Exhausted();
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
  long place(int x, int p, OrderDecoding.State state, Scratch scratch) {
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
        long oy = state.address(y);
        long h = oy + (dhi == null ? size[y] : dhi[x][k]);
        if (h > 0) {
          lo[m] = oy + (dlo == null ? 1 - size[x] : dlo[x][k]);
          hi[m] = h;
          m++;
        }
      }
    }
    io.github.memplan.solvers.dsa.Intervals.sortByLow(lo, hi, 0, m - 1);
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

  /**
   * Decodes a whole order from scratch: the offsets of all buffers (every buffer must appear in
   * {@code order} exactly once).
   */
  long[] decode(int[] order) {
    return decode(order, io.github.memplan.core.solve.Budget.unlimited());
  }

  /** {@link #decode(int[])}, polling {@code budget}: throws {@link Exhausted} when it runs out. */
  long[] decode(int[] order, io.github.memplan.core.solve.Budget budget) {
    Scratch scratch = new Scratch();
    int[] placed = new int[1];
    return OrderDecoding.decode(
        n,
        order,
        (x, p, state) -> {
          if ((++placed[0] & 1023) == 0 && budget.exhausted()) {
            throw new Exhausted();
          }
          return place(x, p, state, scratch);
        });
  }
}
