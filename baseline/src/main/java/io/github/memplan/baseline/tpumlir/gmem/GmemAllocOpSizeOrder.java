package io.github.memplan.baseline.tpumlir.gmem;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * TPU-MLIR's {@code GmemAllocOpSizeOrder} ("OpSizeOrderAssign"), the second GMEM allocator of the
 * current code: {@code lib/Support/GmemAllocatorMethod.cpp} ({@code sophgo/tpu-mlir}, unchanged up
 * to 36e3c625a), pseudo-code in {@code reference/tpu-mlir.md} §1.6; greedy by size with best fit,
 * in the style of TFLite's greedy-by-size planner.
 *
 * <p>Values are taken by size, largest first. The placed values are kept in a list ordered by
 * address (a new value goes before the first one that starts at or above it). For each value, the
 * placed values whose live ranges overlap its own are walked in that order with {@code prev}, the
 * highest end seen so far (from 0): the gap before each, {@code start - prev}, is a candidate if it
 * holds the value, and the smallest candidate wins (the first of equals). Without one the value
 * goes to {@code prev}, above all of them. The footprint is {@code max(addr + size)}.
 *
 * <p>Ties in size: the source sorts a {@code std::list} of the live-start-ordered values with the
 * comparator {@code a.size >= b.size}; both libstdc++'s and libc++'s {@code list::sort} are merge
 * sorts that take from the right run when the comparator says so, which with {@code >=} puts the
 * later of two equal values first. So equal sizes go in reverse live-start order (later start
 * first, and for equal starts the later in the instance first), which is what this planner does.
 *
 * <p>Departures: sizes are padded to the instance's common alignment ({@link GmemValues}); gaps in
 * lifetimes are ignored. Fixed offsets are not supported. The plan is always valid: a chosen gap
 * lies above every earlier overlapping value and below the next one.
 */
public final class GmemAllocOpSizeOrder implements Planner<DsaInstance, DsaSolution> {

  static final String METHOD = "OpSizeOrderAssign";

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    GmemValues values = GmemValues.of(instance, "tpumlir-opsize");
    long[] addr = assign(values, ctx.budget());
    if (addr == null) {
      return Outcome.noSolution(OptionalLong.empty(), "budget exhausted (" + METHOD + ")");
    }
    return values.outcome(instance, addr, METHOD, Map.of("footprint", values.footprint(addr)));
  }

  /** The addresses of the values, or {@code null} when the budget ran out. */
  static long[] assign(GmemValues values, Budget budget) {
    int m = values.size();
    List<Integer> order = new ArrayList<>(m);
    for (int i = 0; i < m; i++) {
      order.add(i);
    }
    order.sort(
        Comparator.comparingLong((Integer i) -> values.get(i).size())
            .reversed()
            .thenComparing(Comparator.reverseOrder()));
    long[] addr = new long[m];
    List<Integer> placed = new ArrayList<>(m); // by address
    int done = 0;
    for (int v : order) {
      if (budget.exhausted(done++)) {
        return null;
      }
      GmemValues.Value val = values.get(v);
      long prev = 0;
      long best = -1;
      long smallestGap = Long.MAX_VALUE;
      for (int p : placed) {
        GmemValues.Value pv = values.get(p);
        if (Math.max(val.start(), pv.start()) < Math.min(val.end(), pv.end())) {
          long gap = addr[p] - prev;
          if (gap >= val.size() && gap < smallestGap) {
            smallestGap = gap;
            best = prev;
          }
          prev = Math.max(prev, addr[p] + pv.size());
        }
      }
      addr[v] = best == -1 ? prev : best;
      int at = 0;
      while (at < placed.size() && addr[placed.get(at)] < addr[v]) {
        at++;
      }
      placed.add(at, v);
    }
    return addr;
  }
}
