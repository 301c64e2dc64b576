package io.github.memplan.baseline.tvm;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link UsmpGreedyPlanner} in {@link UsmpGreedyPlanner.Order#BY_CONFLICTS} order. */
public final class TvmGreedyByConflictsProvider
    implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "tvm-greedy-by-conflicts";
  }

  @Override
  public String description() {
    return "TVM USMP greedy_by_conflicts: conflict-count-descending order, each buffer on top of its placed"
        + " conflicts.";
  }

  @Override
  public String citation() {
    return "apache/tvm src/tir/usmp/algo/greedy.cc (GreedyConflicts, PostSortAllocation)";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new UsmpGreedyPlanner(UsmpGreedyPlanner.Order.BY_CONFLICTS);
  }
}
