package io.github.memplan.solvers.exact;

import java.util.Arrays;

/**
 * The incumbent of the capacity loop: greedy by decreasing size with best fit, the placement rule
 * of TFLite's {@code SimpleMemoryArena::Allocate} (tensorflow/lite/simple_memory_arena.cc) and
 * XLA's spatial heap: buffers with a fixed offset first, at it; then by size (larger first),
 * lifetime width (longer first) and index, each at the lowest aligned offset of the smallest free
 * gap among the co-active buffers already placed that holds it, else above them all.
 *
 * <p>Co-active pairs keep MiniMalloc's effective sizes, so with windows a buffer may sit partly
 * above and partly beside another only as that rule allows; the result is always valid.
 */
final class Greedy {
  private Greedy() {}

  /** Offsets by searched buffer, or {@code null} when fixed buffers collide. */
  static long[] bestFit(Model md) {
    int n = md.n;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(
        order,
        (a, b) -> {
          boolean fa = md.fixed[a] >= 0;
          boolean fb = md.fixed[b] >= 0;
          if (fa != fb) {
            return fa ? -1 : 1;
          }
          if (md.size[a] != md.size[b]) {
            return md.size[a] > md.size[b] ? -1 : 1;
          }
          int wa = md.upper[a] - md.lower[a];
          int wb = md.upper[b] - md.lower[b];
          if (wa != wb) {
            return wa > wb ? -1 : 1;
          }
          return Integer.compare(md.index[a], md.index[b]);
        });
    long[] off = new long[n];
    Arrays.fill(off, -1);
    long[] lo = new long[n];
    long[] hi = new long[n];
    for (int x : order) {
      // forbidden offsets of x: the open intervals (o_u - eff(x->u), o_u + eff(u->x))
      int cnt = 0;
      int[] ovl = md.ovl[x];
      for (int k = 0; k < ovl.length; k++) {
        int u = ovl[k];
        if (off[u] < 0) {
          continue;
        }
        long below = md.eff(x, k);
        long above = effOf(md, u, x);
        lo[cnt] = off[u] - below;
        hi[cnt] = off[u] + above;
        cnt++;
      }
      if (md.fixed[x] >= 0) {
        long f = md.fixed[x];
        for (int k = 0; k < cnt; k++) {
          if (lo[k] < f && f < hi[k]) {
            return null;
          }
        }
        off[x] = f;
        continue;
      }
      off[x] = bestGap(lo, hi, cnt, md.align[x]);
    }
    return off;
  }

  /** {@code eff(u -> x)}: x must start that far above u's offset to sit over it. */
  static long effOf(Model md, int u, int x) {
    if (md.eff == null) {
      return md.size[u];
    }
    int k = Arrays.binarySearch(md.ovl[u], x);
    return md.eff[u][k];
  }

  private static long bestGap(long[] lo, long[] hi, int cnt, long align) {
    Integer[] idx = new Integer[cnt];
    for (int k = 0; k < cnt; k++) {
      idx[k] = k;
    }
    Arrays.sort(idx, (a, b) -> lo[a] != lo[b] ? Long.compare(lo[a], lo[b]) : Integer.compare(a, b));
    long bestOff = -1;
    long bestRoom = Long.MAX_VALUE;
    long free = 0; // offsets >= free are clear of every interval seen so far
    for (int k = 0; k < cnt; k++) {
      int j = idx[k];
      if (hi[j] <= free) {
        continue;
      }
      // offsets v with free <= v <= lo[j] are clear (the interval is open)
      long v = Model.alignUp(Math.max(free, 0), align);
      if (lo[j] >= 0 && v <= lo[j]) {
        long room = lo[j] - v;
        if (room < bestRoom) {
          bestRoom = room;
          bestOff = v;
        }
      }
      free = Math.max(free, hi[j]);
    }
    return bestOff >= 0 ? bestOff : Model.alignUp(Math.max(free, 0), align);
  }
}
