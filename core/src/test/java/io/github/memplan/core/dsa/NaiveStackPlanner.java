package io.github.memplan.core.dsa;

import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

/**
 * The simplest correct DSA planner, for tests only (it is no published baseline): buffers with a
 * fixed offset take it; every other buffer is stacked, in id order, at increasing aligned offsets
 * above all of them, never reusing space. Its peak is about the sum of the sizes.
 *
 * <p>It reports {@link LowerBounds#maxLoad} as its lower bound and {@code OPTIMAL} when its peak
 * meets it. Fixed offsets that clash or break their alignment are reported as {@code INFEASIBLE}; a
 * stack above the capacity as {@code FAILED_TO_PLACE} (it proves nothing). An exhausted budget at
 * the start gives {@code NO_SOLUTION_IN_BUDGET}.
 */
public final class NaiveStackPlanner implements Planner<DsaInstance, DsaSolution> {

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    long maxLoad = LowerBounds.maxLoad(instance);
    if (ctx.budget().exhausted()) {
      return Outcome.noSolution(OptionalLong.of(maxLoad), "budget exhausted before start");
    }
    int n = instance.size();
    long[] offsets = new long[n];
    long top = 0;
    List<Integer> fixed = new ArrayList<>();
    List<Integer> stacked = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      (instance.buffer(i).fixedOffset().isPresent() ? fixed : stacked).add(i);
    }
    for (int i : fixed) {
      Buffer b = instance.buffer(i);
      long off = b.fixedOffset().getAsLong();
      if (off % b.alignment() != 0) {
        return Outcome.infeasible("buffer '" + b.id() + "' is fixed off its alignment");
      }
      for (int j : fixed) {
        Buffer c = instance.buffer(j);
        long oc = c.fixedOffset().getAsLong();
        if (j < i
            && b.overlapsInTime(c)
            && b.size() > 0
            && c.size() > 0
            && off < oc + c.size()
            && oc < off + b.size()) {
          return Outcome.infeasible("fixed buffers '" + c.id() + "' and '" + b.id() + "' overlap");
        }
      }
      offsets[i] = off;
      top = Math.max(top, off + b.size());
    }
    stacked.sort(Comparator.comparing(i -> instance.buffer(i).id()));
    for (int i : stacked) {
      Buffer b = instance.buffer(i);
      offsets[i] = BruteForcePlanner.alignUp(top, b.alignment());
      top = offsets[i] + b.size();
    }
    DsaSolution solution = new DsaSolution(offsets);
    long peak = instance.peak(solution);
    if (peak > instance.capacity()) {
      return Outcome.failedToPlace(
          OptionalLong.of(maxLoad),
          "stacking needs " + peak + " bytes > capacity " + instance.capacity());
    }
    return peak == maxLoad
        ? Outcome.optimal(solution, maxLoad)
        : Outcome.feasible(solution, OptionalLong.of(maxLoad));
  }
}
