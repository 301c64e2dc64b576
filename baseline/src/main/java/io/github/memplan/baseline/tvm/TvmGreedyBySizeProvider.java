package io.github.memplan.baseline.tvm;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link UsmpGreedyPlanner} in {@link UsmpGreedyPlanner.Order#BY_SIZE} order. */
public final class TvmGreedyBySizeProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public TvmGreedyBySizeProvider() {
    super(
        "tvm-greedy-by-size",
        DsaInstance.class,
        "TVM USMP greedy_by_size: size-descending order, each buffer on top of its placed"
            + " conflicts.",
        "apache/tvm src/tir/usmp/algo/greedy.cc (GreedySize, PostSortAllocation)",
        config -> new UsmpGreedyPlanner(UsmpGreedyPlanner.Order.BY_SIZE));
  }
}
