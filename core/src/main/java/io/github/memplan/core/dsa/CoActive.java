package io.github.memplan.core.dsa;

import io.github.memplan.core.solve.Budget;
import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * The pairs of buffers whose lifetimes share a timestep, listed by one sweep over start times in
 * time linear in the buffers and the pairs (plus a sort), so that planners need no quadratic scan.
 */
public final class CoActive {
  private CoActive() {}

  /** Receives one co-active pair. */
  @FunctionalInterface
  public interface PairVisitor {
    /** {@code x} starts at or after {@code y} (ties by index) and {@code y} is still alive then. */
    void pair(int x, int y);
  }

  /**
   * Visits each pair of included buffers whose lifetimes {@code [lower, upper)} overlap, once: the
   * buffers in order of start time (ties by index), each with the included buffers met before it
   * that are still alive, in the order they were met. Polls {@code budget} about every 65,536
   * visits; returns {@code false} when it ran out (the pairs are then incomplete).
   */
  public static boolean sweep(
      int[] lower, int[] upper, IntPredicate include, Budget budget, PairVisitor visitor) {
    int n = lower.length;
    Integer[] byLower = new Integer[n];
    for (int i = 0; i < n; i++) {
      byLower[i] = i;
    }
    Arrays.sort(
        byLower,
        (a, b) ->
            lower[a] != lower[b] ? Integer.compare(lower[a], lower[b]) : Integer.compare(a, b));
    int[] active = new int[16];
    int live = 0;
    long work = 0;
    for (int x : byLower) {
      if (!include.test(x)) {
        continue;
      }
      int keep = 0;
      for (int k = 0; k < live; k++) {
        int y = active[k];
        if (upper[y] > lower[x]) {
          active[keep++] = y;
          visitor.pair(x, y);
        }
      }
      live = keep;
      if (live == active.length) {
        active = Arrays.copyOf(active, 2 * live);
      }
      active[live++] = x;
      work += live;
      if (work >= 1 << 16) {
        work = 0;
        if (budget.exhausted()) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The co-active included buffers of each buffer, in the order {@link #sweep} meets them (an empty
   * list for the others); {@code null} when {@code budget} runs out first.
   */
  public static int[][] lists(int[] lower, int[] upper, IntPredicate include, Budget budget) {
    int n = lower.length;
    int[] deg = new int[n];
    if (!sweep(
        lower,
        upper,
        include,
        budget,
        (x, y) -> {
          deg[x]++;
          deg[y]++;
        })) {
      return null;
    }
    int[][] out = new int[n][];
    for (int i = 0; i < n; i++) {
      out[i] = new int[deg[i]];
    }
    Arrays.fill(deg, 0);
    boolean done =
        sweep(
            lower,
            upper,
            include,
            budget,
            (x, y) -> {
              out[x][deg[x]++] = y;
              out[y][deg[y]++] = x;
            });
    return done ? out : null;
  }
}
