package io.github.memplan.baseline.openvino;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link MemorySolverPlanner} as {@code openvino}. */
public final class OpenVinoProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "openvino";
  }

  @Override
  public String description() {
    return "OpenVINO MemorySolver: boxes by size descending, each popped up above the boxes it"
        + " intersects (lowest fitting gap).";
  }

  @Override
  public String citation() {
    return "openvinotoolkit/openvino src/core/include/openvino/runtime/memory_solver.hpp"
        + " (MemorySolver::solve)";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new MemorySolverPlanner();
  }
}
