package io.github.memplan.baseline.tvm;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;

/** The DSA planner contract for {@code tvm-greedy-by-size}. */
class GreedyBySizeContractTest extends DsaPlannerContract {
  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return new UsmpGreedyPlanner(UsmpGreedyPlanner.Order.BY_SIZE);
  }
}
