package io.github.memplan.baseline.openvino;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link MemorySolverPlanner} as {@code openvino}. */
public final class OpenVinoProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public OpenVinoProvider() {
    super(
        "openvino",
        DsaInstance.class,
        "OpenVINO MemorySolver: boxes by size descending, each popped up above the boxes it"
            + " intersects (lowest fitting gap).",
        "openvinotoolkit/openvino src/core/include/openvino/runtime/memory_solver.hpp"
            + " (MemorySolver::solve)",
        config -> new MemorySolverPlanner());
  }
}
