package io.github.memplan.solvers.exact;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.FixedOffsets;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Registers {@code greedy}: the best placement of {@link Greedies#pick}, the greedy start of {@code
 * exact}, {@code cpsat} and {@code timefold}, on its own, so that benchmarks can set the search
 * planners beside the best greedy they start from.
 */
public final class GreedyPlannerProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  public static final String ID = "greedy";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String description() {
    return "The best of the solvers' greedy orders (first fit and best fit by decreasing size, by"
        + " area, by lifetime, online best fit): the start of exact, cpsat and timefold.";
  }

  @Override
  public String citation() {
    return "the rules of TFLite Micro's GreedyMemoryPlanner and TFLite's SimpleMemoryArena, in"
        + " several orders; no search";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public List<Parameter> parameters() {
    return List.of();
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return (instance, ctx) -> {
      String bad = FixedOffsets.misfit(instance).orElse(null);
      if (bad != null) {
        return Outcome.infeasible(bad);
      }
      long t0 = System.nanoTime();
      OptionalLong bound = OptionalLong.of(LowerBounds.maxLoadAndSizes(instance));
      Greedies.Pick pick = Greedies.pick(instance, ctx.budget());
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
    };
  }
}
