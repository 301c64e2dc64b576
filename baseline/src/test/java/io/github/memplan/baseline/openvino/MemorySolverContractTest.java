package io.github.memplan.baseline.openvino;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;

/** The DSA planner contract for {@code openvino}. */
class MemorySolverContractTest extends DsaPlannerContract {
  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return new MemorySolverPlanner();
  }
}
