package io.github.memplan.solvers.dsa.timefold;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Planner;

/** The DSA planner contract for {@code timefold}: a local search, so not exact. */
class TimefoldPlannerContractTest extends DsaPlannerContract {
  private static final TimefoldPlanner PLANNER = new TimefoldPlanner();

  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return PLANNER;
  }

  /**
   * A cap of 500 evaluated moves keeps the 200 random instances fast and the runs
   * byte-reproducible.
   */
  @Override
  protected Budget budget(DsaInstance instance) {
    return Budget.of(null, 500);
  }
}
