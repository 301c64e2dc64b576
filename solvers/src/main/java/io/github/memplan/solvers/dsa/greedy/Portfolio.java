package io.github.memplan.solvers.dsa.greedy;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.CoActive;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.solvers.dsa.SearchModel;
import java.util.Arrays;
import java.util.List;

/**
 * Several greedy orders on plain instances (no gaps, no fixed offsets), in memory linear in the
 * buffers plus the co-active pairs, each polling the budget: the best complete placement is kept.
 *
 * <ol>
 *   <li>{@code size-first-fit}: by decreasing size (longer lifetime, then index, first), each at
 *       the lowest aligned offset clear of the co-active buffers already placed: the rule of TFLite
 *       Micro's {@code GreedyMemoryPlanner} and OpenVINO's {@code MemorySolver};
 *   <li>{@code size-best-fit}: the same order, each in the smallest free gap that holds it (the
 *       rule of {@link SmallestGapFit#bestFit}, TFLite's {@code SimpleMemoryArena});
 *   <li>{@code area-first-fit}: by decreasing size times lifetime, first fit;
 *   <li>{@code width-first-fit}: by decreasing lifetime, then size, first fit.
 * </ol>
 *
 * <p>Buffers alive over the whole horizon are stacked at the bottom first (largest first) and left
 * out of the pair lists: every other buffer overlaps them in time, so every placement puts the rest
 * above them anyway, and the pairs they would add (one per other buffer each) are not kept. That
 * needs every alignment to divide their sizes, else they stay ordinary buffers.
 */
public final class Portfolio {
  /** The orders, in the order they run. */
  static final List<String> ORDERS =
      List.of("size-first-fit", "size-best-fit", "area-first-fit", "width-first-fit");

  /** The best placement found and the order that gave it. */
  public record Result(long[] offsets, long peak, String order) {}

  private final int n;
  private final long[] size;
  private final long[] align;
  private final int[] lower;
  private final int[] upper;
  private final boolean[] universal;
  private final long band;

  /** Co-active non-universal buffers of each buffer. */
  private int[][] adj;

  private Portfolio(DsaInstance inst) {
    n = inst.size();
    size = new long[n];
    align = new long[n];
    lower = new int[n];
    upper = new int[n];
    int lo = Integer.MAX_VALUE;
    int hi = Integer.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      Buffer b = inst.buffer(i);
      size[i] = b.size();
      align[i] = b.alignment();
      lower[i] = b.lower();
      upper[i] = b.upper();
      lo = Math.min(lo, lower[i]);
      hi = Math.max(hi, upper[i]);
    }
    universal = new boolean[n];
    boolean allOne = true;
    for (int i = 0; i < n && allOne; i++) {
      allOne = align[i] == 1;
    }
    long b = 0;
    for (int i = 0; i < n; i++) {
      if (lower[i] == lo && upper[i] == hi && size[i] > 0 && (allOne || dividesAll(size[i]))) {
        universal[i] = true;
        b += size[i];
      }
    }
    band = b;
  }

  private boolean dividesAll(long s) {
    for (int i = 0; i < n; i++) {
      if (s % align[i] != 0) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@link #best} applies: no gaps, no fixed offsets. */
  public static boolean applies(DsaInstance inst) {
    for (Buffer b : inst.buffers()) {
      if (!b.gaps().isEmpty() || b.fixedOffset().isPresent()) {
        return false;
      }
    }
    return true;
  }

  /**
   * The best of the {@link #ORDERS} that complete within the budget, or {@code null} when none
   * does. Polls the budget every few hundred buffers; a cancelled or expired budget ends the run at
   * once.
   */
  public static Result best(DsaInstance inst, Budget budget) {
    if (budget.exhausted()) {
      return null;
    }
    Portfolio p = new Portfolio(inst);
    if (!p.buildPairs(budget)) {
      return null;
    }
    Result best = null;
    for (String order : ORDERS) {
      long[] off = budget.exhausted() ? null : p.place(order, budget);
      if (off == null) {
        break;
      }
      long peak = 0;
      for (int i = 0; i < p.n; i++) {
        peak = Math.max(peak, off[i] + p.size[i]);
      }
      if (best == null || peak < best.peak) {
        best = new Result(off, peak, order);
      }
    }
    return best;
  }

  /** The co-active pairs among the non-universal buffers, by a sweep over start times. */
  private boolean buildPairs(Budget budget) {
    adj = CoActive.lists(lower, upper, x -> !universal[x] && size[x] > 0, budget);
    return adj != null;
  }

  private Integer[] order(String name) {
    Integer[] o = new Integer[n];
    for (int i = 0; i < n; i++) {
      o[i] = i;
    }
    java.util.Comparator<Integer> bySize =
        (a, b) -> size[a] != size[b] ? Long.compare(size[b], size[a]) : 0;
    java.util.Comparator<Integer> byWidth =
        (a, b) -> Integer.compare(upper[b] - lower[b], upper[a] - lower[a]);
    java.util.Comparator<Integer> byArea =
        (a, b) ->
            Double.compare(
                (double) size[b] * (upper[b] - lower[b]), (double) size[a] * (upper[a] - lower[a]));
    java.util.Comparator<Integer> c =
        switch (name) {
          case "area-first-fit" -> byArea.thenComparing(bySize).thenComparing(byWidth);
          case "width-first-fit" -> byWidth.thenComparing(bySize);
          default -> bySize.thenComparing(byWidth);
        };
    Arrays.sort(o, c.thenComparing(Integer::compare));
    return o;
  }

  /** The offsets of one order, or {@code null} when the budget ran out first. */
  private long[] place(String name, Budget budget) {
    boolean bestFit = name.equals("size-best-fit");
    long[] off = new long[n];
    Arrays.fill(off, -1);
    // the universal buffers at the bottom, largest first (ties by index)
    long at = 0;
    for (int x : order("size-first-fit")) {
      if (universal[x]) {
        off[x] = at;
        at += size[x];
      }
    }
    long[] lo = new long[16];
    long[] hi = new long[16];
    long work = 0;
    for (int x : order(name)) {
      if (universal[x]) {
        continue;
      }
      if (size[x] == 0) {
        off[x] = 0;
        continue;
      }
      int cnt = 0;
      for (int u : adj[x]) {
        if (off[u] < 0) {
          continue;
        }
        if (cnt == lo.length) {
          lo = Arrays.copyOf(lo, 2 * cnt);
          hi = Arrays.copyOf(hi, 2 * cnt);
        }
        // x at v overlaps u iff off[u] - size[x] < v < off[u] + size[u]
        lo[cnt] = off[u] - size[x];
        hi[cnt] = off[u] + size[u];
        cnt++;
      }
      off[x] = band + (bestFit ? bestGap(lo, hi, cnt, x) : firstGap(lo, hi, cnt, x));
      work += cnt + 1;
      if (work > 1 << 16) {
        work = 0;
        if (budget.exhausted()) {
          return null;
        }
      }
    }
    return off;
  }

  /** Offsets relative to the band: the intervals are shifted down by it first. */
  private long firstGap(long[] lo, long[] hi, int cnt, int x) {
    shift(lo, hi, cnt);
    io.github.memplan.solvers.dsa.Intervals.sortByLow(lo, hi, 0, cnt - 1);
    long a = align[x];
    long cand = SearchModel.alignUp(0, a);
    for (int k = 0; k < cnt; k++) {
      if (lo[k] >= cand) {
        break; // open intervals: cand <= lo is clear of this and every later one
      }
      if (hi[k] > cand) {
        cand = SearchModel.alignUp(hi[k], a);
      }
    }
    return cand;
  }

  private long bestGap(long[] lo, long[] hi, int cnt, int x) {
    shift(lo, hi, cnt);
    return SmallestGapFit.bestGap(lo, hi, cnt, align[x]);
  }

  private void shift(long[] lo, long[] hi, int cnt) {
    for (int k = 0; k < cnt; k++) {
      lo[k] -= band;
      hi[k] -= band;
    }
  }

  /** For tests: the universal buffers' band. */
  long band() {
    return band;
  }
}
