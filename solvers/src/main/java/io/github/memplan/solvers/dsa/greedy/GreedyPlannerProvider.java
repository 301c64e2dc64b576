package io.github.memplan.solvers.dsa.greedy;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/**
 * Registers {@link BestGreedyPlanner} as {@code greedy}, so that benchmarks can set the search
 * planners beside the best greedy they start from.
 */
public final class GreedyPlannerProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public static final String ID = "greedy";

  public GreedyPlannerProvider() {
    super(
        ID,
        DsaInstance.class,
        "The best of the solvers' greedy orders (first fit and best fit by decreasing size, by"
            + " area, by lifetime, online best fit): the start of exact, cpsat and timefold.",
        "the rules of TFLite Micro's GreedyMemoryPlanner and TFLite's SimpleMemoryArena, in"
            + " several orders; no search",
        config -> new BestGreedyPlanner());
  }
}
