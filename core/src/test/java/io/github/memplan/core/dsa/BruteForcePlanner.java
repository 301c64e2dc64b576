package io.github.memplan.core.dsa;

import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * An exhaustive DSA planner for tiny instances, the reference that fixture optima and exact solvers
 * are checked against. Test code only: exponential time.
 *
 * <p>It enumerates every order of the buffers and places each, in that order, at its lowest aligned
 * offset that clashes with no buffer placed before it. This finds an optimum: take any optimal
 * placement and order its buffers by offset; placing them in that order at their lowest feasible
 * offsets moves no buffer up (each buffer's original offset stays feasible, because every earlier
 * buffer alive at the same time ended at or below it and has only moved down), so the peak does not
 * grow. Buffers with a fixed offset are placed first, at it; zero-size buffers at 0.
 *
 * <p>Pruning, both safe: a partial placement whose peak already reaches the best is dropped, and
 * two neighbours in the order whose lifetimes are disjoint are tried in index order only (swapping
 * them gives the same offsets, since neither's placement looks at the other). The search stops
 * early when it reaches {@link LowerBounds#maxLoad}.
 *
 * <p>Gaps are ignored in the search (each buffer occupies its whole size over its whole lifetime),
 * which keeps every solution valid but may miss the optimum; on an instance with gaps the planner
 * therefore claims {@code OPTIMAL} only when it reaches the max-load bound.
 *
 * <p>One step of the budget is one placement; the budget is polled at every step.
 */
public final class BruteForcePlanner implements Planner<DsaInstance, DsaSolution> {

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    Budget budget = ctx.budget();
    long maxLoad = LowerBounds.maxLoad(instance);
    if (budget.exhausted(0)) {
      return Outcome.noSolution(OptionalLong.of(maxLoad), "budget exhausted before the search");
    }
    int n = instance.size();
    long[] offsets = new long[n];
    boolean[] placed = new boolean[n];
    List<Integer> free = new ArrayList<>();
    long fixedPeak = 0;
    for (int i = 0; i < n; i++) {
      Buffer b = instance.buffer(i);
      if (b.fixedOffset().isPresent()) {
        long off = b.fixedOffset().getAsLong();
        if (off % b.alignment() != 0) {
          return Outcome.infeasible(
              "buffer '"
                  + b.id()
                  + "' is fixed at "
                  + off
                  + ", not a multiple of "
                  + b.alignment());
        }
        for (int j = 0; j < n; j++) {
          if (placed[j] && clash(instance, j, offsets[j], i, off)) {
            return Outcome.infeasible(
                "fixed buffers '" + instance.buffer(j).id() + "' and '" + b.id() + "' overlap");
          }
        }
        offsets[i] = off;
        placed[i] = true;
        fixedPeak = Math.max(fixedPeak, off + b.size());
      } else if (b.size() == 0) {
        placed[i] = true; // at 0: occupies nothing, adds nothing to the peak
      } else {
        free.add(i);
      }
    }
    Search s = new Search(instance, budget, offsets, placed, free, maxLoad);
    s.dfs(0, fixedPeak, -1);
    boolean gaps = instance.buffers().stream().anyMatch(b -> !b.gaps().isEmpty());
    long peak = s.bestPeak;
    if (peak > instance.capacity()) {
      if (s.complete && !gaps) {
        return Outcome.infeasible(
            "the least peak is " + peak + " > capacity " + instance.capacity());
      }
      return s.complete
          ? Outcome.error("no placement under capacity found by the gap-oblivious search")
          : Outcome.noSolution(OptionalLong.of(maxLoad), "budget exhausted");
    }
    DsaSolution solution = new DsaSolution(s.best);
    Outcome<DsaSolution> out;
    if (peak == maxLoad || (s.complete && !gaps)) {
      out = Outcome.optimal(solution, peak);
    } else {
      out = Outcome.feasible(solution, OptionalLong.of(maxLoad));
    }
    return out.withStats(java.util.Map.of("placements", s.steps));
  }

  private static boolean clash(DsaInstance inst, int i, long oi, int j, long oj) {
    Buffer a = inst.buffer(i);
    Buffer b = inst.buffer(j);
    return a.size() > 0
        && b.size() > 0
        && a.overlapsInTime(b)
        && oi < oj + b.size()
        && oj < oi + a.size();
  }

  private static final class Search {
    final DsaInstance inst;
    final Budget budget;
    final long[] offsets;
    final boolean[] placed;
    final List<Integer> free;
    final long target;
    long[] best;
    long bestPeak = Long.MAX_VALUE;
    long steps;
    boolean complete = true;
    boolean stop;

    Search(
        DsaInstance inst,
        Budget budget,
        long[] offsets,
        boolean[] placed,
        List<Integer> free,
        long target) {
      this.inst = inst;
      this.budget = budget;
      this.offsets = offsets;
      this.placed = placed;
      this.free = free;
      this.target = target;
    }

    void dfs(int depth, long peak, int prev) {
      if (depth == free.size()) {
        if (peak < bestPeak) {
          bestPeak = peak;
          best = offsets.clone();
          if (peak <= target) {
            stop = true;
          }
        }
        return;
      }
      for (int i : free) {
        if (stop) {
          return;
        }
        if (placed[i]) {
          continue;
        }
        if (prev >= 0 && i < prev && !inst.buffer(i).overlapsInTime(inst.buffer(prev))) {
          continue;
        }
        // the first leaf is always reached, so that any run that starts has a solution
        if (best != null && budget.exhausted(steps)) {
          complete = false;
          stop = true;
          return;
        }
        steps++;
        long off = lowest(i);
        long newPeak = Math.max(peak, off + inst.buffer(i).size());
        if (newPeak >= bestPeak) {
          continue;
        }
        offsets[i] = off;
        placed[i] = true;
        dfs(depth + 1, newPeak, i);
        placed[i] = false;
      }
    }

    private long lowest(int i) {
      Buffer b = inst.buffer(i);
      long off = 0;
      boolean moved = true;
      while (moved) {
        moved = false;
        off = alignUp(off, b.alignment());
        for (int j = 0; j < inst.size(); j++) {
          if (placed[j] && clash(inst, j, offsets[j], i, off)) {
            off = offsets[j] + inst.buffer(j).size();
            moved = true;
          }
        }
      }
      return off;
    }
  }

  static long alignUp(long value, long alignment) {
    long r = value % alignment;
    return r == 0 ? value : value + (alignment - r);
  }
}
