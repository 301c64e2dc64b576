package io.github.memplan.baseline.xla;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;

/** The DSA planner contract for {@code xla}. */
class XlaContractTest extends DsaPlannerContract {
  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return new ChooseBestHeapPlanner();
  }
}
