package io.github.memplan.solvers.dsa.greedy;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.solvers.dsa.SearchModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

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
public final class SmallestGapFit {
  private SmallestGapFit() {}

  /** Offsets by searched buffer, or {@code null} when fixed buffers collide. */
  public static long[] bestFit(SearchModel md) {
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
  static long effOf(SearchModel md, int u, int x) {
    if (md.eff == null) {
      return md.size[u];
    }
    int k = Arrays.binarySearch(md.ovl[u], x);
    return md.eff[u][k];
  }

  static long bestGap(long[] lo, long[] hi, int cnt, long align) {
    // sorted by lo in place (among equal lo the answer does not depend on the order: the first
    // such interval not yet covered fixes the room below it, and covers the rest)
    io.github.memplan.solvers.dsa.Intervals.sortByLow(lo, hi, 0, cnt - 1);
    long bestOff = -1;
    long bestRoom = Long.MAX_VALUE;
    long free = 0; // offsets >= free are clear of every interval seen so far
    for (int j = 0; j < cnt; j++) {
      if (hi[j] <= free) {
        continue;
      }
      // offsets v with free <= v <= lo[j] are clear (the interval is open)
      long v = SearchModel.alignUp(Math.max(free, 0), align);
      if (lo[j] >= 0 && v <= lo[j]) {
        long room = lo[j] - v;
        if (room < bestRoom) {
          bestRoom = room;
          bestOff = v;
        }
      }
      free = Math.max(free, hi[j]);
    }
    return bestOff >= 0 ? bestOff : SearchModel.alignUp(Math.max(free, 0), align);
  }

  /**
   * A placement that needs no co-active pairs, for instances too dense to model: buffers with a
   * fixed offset at it; the others above all of those, in order of their start times (ends first at
   * equal times), each in the smallest free block that holds it aligned, else on top; freed blocks
   * merge with their neighbours. Buffers occupy their whole size throughout (gaps are not used), so
   * the result is valid whenever the fixed buffers do not collide.
   */
  public static long[] online(DsaInstance inst) {
    int n = inst.size();
    long[] off = new long[n];
    long base = 0;
    List<long[]> events = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Buffer b = inst.buffer(i);
      if (b.fixedOffset().isPresent()) {
        off[i] = b.fixedOffset().getAsLong();
        base = Math.max(base, off[i] + b.size());
      } else if (b.size() > 0) {
        events.add(new long[] {b.upper(), 0, i});
        events.add(new long[] {b.lower(), 1, i});
      }
    }
    events.sort(
        (x, y) -> {
          for (int k = 0; k < 3; k++) {
            if (x[k] != y[k]) {
              return Long.compare(x[k], y[k]);
            }
          }
          return 0;
        });
    TreeMap<Long, Long> byStart = new TreeMap<>(); // free blocks: start -> end
    TreeSet<long[]> bySize =
        new TreeSet<>(
            (x, y) ->
                x[1] - x[0] != y[1] - y[0]
                    ? Long.compare(x[1] - x[0], y[1] - y[0])
                    : Long.compare(x[0], y[0]));
    long top = base;
    for (long[] e : events) {
      int i = (int) e[2];
      Buffer b = inst.buffer(i);
      long size = b.size();
      if (e[1] == 1) {
        long at = -1;
        for (long[] blk : bySize.tailSet(new long[] {0, size}, true)) {
          long v = SearchModel.alignUp(blk[0], b.alignment());
          if (v + size <= blk[1]) {
            at = v;
            bySize.remove(blk);
            byStart.remove(blk[0]);
            addFree(byStart, bySize, blk[0], v);
            addFree(byStart, bySize, v + size, blk[1]);
            break;
          }
        }
        if (at < 0) {
          at = SearchModel.alignUp(top, b.alignment());
          addFree(byStart, bySize, top, at);
          top = at + size;
        }
        off[i] = at;
      } else {
        long lo = off[i];
        long hi = lo + size;
        Map.Entry<Long, Long> before = byStart.floorEntry(lo);
        if (before != null && before.getValue() == lo) {
          lo = before.getKey();
          removeFree(byStart, bySize, before.getKey(), before.getValue());
        }
        Long after = byStart.get(hi);
        if (after != null) {
          removeFree(byStart, bySize, hi, after);
          hi = after;
        }
        if (hi == top) {
          top = lo;
        } else {
          addFree(byStart, bySize, lo, hi);
        }
      }
    }
    return off;
  }

  private static void addFree(
      TreeMap<Long, Long> byStart, TreeSet<long[]> bySize, long lo, long hi) {
    if (hi > lo) {
      byStart.put(lo, hi);
      bySize.add(new long[] {lo, hi});
    }
  }

  private static void removeFree(
      TreeMap<Long, Long> byStart, TreeSet<long[]> bySize, long lo, long hi) {
    byStart.remove(lo);
    bySize.remove(new long[] {lo, hi});
  }
}
