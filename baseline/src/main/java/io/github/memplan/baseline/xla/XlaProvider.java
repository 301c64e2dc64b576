package io.github.memplan.baseline.xla;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link ChooseBestHeapPlanner} as {@code xla}. */
public final class XlaProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "xla";
  }

  @Override
  public String description() {
    return "XLA buffer assignment: best-fit heap in spatial and temporal order, the smaller kept.";
  }

  @Override
  public String citation() {
    return "openxla/xla xla/service/buffer_assignment.cc (ChooseBestHeapAlgorithm over kSpatial,"
        + " kTemporal), heap_simulator.cc";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new ChooseBestHeapPlanner();
  }
}
