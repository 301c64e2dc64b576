package io.github.memplan.solvers.dsa.greedy;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.FixedOffsets;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The best placement of {@link GreedyIncumbents#pick}, the greedy start of {@code exact}, {@code
 * cpsat} and {@code timefold}, on its own: OPTIMAL when its peak meets the max-load bound, else
 * FEASIBLE; no search. Its rules are those of TFLite Micro's GreedyMemoryPlanner and TFLite's
 * SimpleMemoryArena, in several orders ({@link GreedyIncumbents}).
 */
public final class BestGreedyPlanner implements Planner<DsaInstance, DsaSolution> {
  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    String bad = FixedOffsets.misfit(instance).orElse(null);
    if (bad != null) {
      return Outcome.infeasible(bad);
    }
    long t0 = System.nanoTime();
    OptionalLong bound = OptionalLong.of(LowerBounds.maxLoadAndSizes(instance));
    GreedyIncumbents.Pick pick = GreedyIncumbents.pick(instance, ctx.budget());
    if (pick == null) {
      return FixedOffsets.collide(instance)
          ? Outcome.infeasible("buffers with fixed offsets overlap")
          : Outcome.noSolution(bound, "no greedy placement");
    }
    long peak = instance.peak(pick.solution());
    if (peak > instance.capacity()) {
      return Outcome.failedToPlace(
          bound, "greedy peak " + peak + " exceeds the capacity " + instance.capacity());
    }
    Outcome<DsaSolution> out =
        peak == bound.getAsLong()
            ? Outcome.optimal(pick.solution(), peak)
            : Outcome.feasible(pick.solution(), bound);
    return out.withMessage("greedy order: " + pick.rule())
        .withStats(Map.of("millis", (System.nanoTime() - t0) / 1e6));
  }
}
