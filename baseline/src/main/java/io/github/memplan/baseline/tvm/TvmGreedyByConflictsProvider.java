package io.github.memplan.baseline.tvm;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link UsmpGreedyPlanner} in {@link UsmpGreedyPlanner.Order#BY_CONFLICTS} order. */
public final class TvmGreedyByConflictsProvider
    extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public TvmGreedyByConflictsProvider() {
    super(
        "tvm-greedy-by-conflicts",
        DsaInstance.class,
        "TVM USMP greedy_by_conflicts: conflict-count-descending order, each buffer on top of its placed"
            + " conflicts.",
        "apache/tvm src/tir/usmp/algo/greedy.cc (GreedyConflicts, PostSortAllocation)",
        config -> new UsmpGreedyPlanner(UsmpGreedyPlanner.Order.BY_CONFLICTS));
  }
}
