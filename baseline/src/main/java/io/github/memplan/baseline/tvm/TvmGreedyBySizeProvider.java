package io.github.memplan.baseline.tvm;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link UsmpGreedyPlanner} in {@link UsmpGreedyPlanner.Order#BY_SIZE} order. */
public final class TvmGreedyBySizeProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "tvm-greedy-by-size";
  }

  @Override
  public String description() {
    return "TVM USMP greedy_by_size: size-descending order, each buffer on top of its placed"
        + " conflicts.";
  }

  @Override
  public String citation() {
    return "apache/tvm src/tir/usmp/algo/greedy.cc (GreedySize, PostSortAllocation)";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new UsmpGreedyPlanner(UsmpGreedyPlanner.Order.BY_SIZE);
  }
}
