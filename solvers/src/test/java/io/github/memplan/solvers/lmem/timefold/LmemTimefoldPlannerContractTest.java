package io.github.memplan.solvers.lmem.timefold;

import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemPlannerContract;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Planner;

/**
 * The LMEM planner contract for {@code lmem-timefold}. At most 120 steps, 40 without improvement,
 * keep the contract's runs fast; its budgets are unlimited, so the step limits also make the runs
 * reproducible.
 */
class LmemTimefoldPlannerContractTest extends LmemPlannerContract {
  private static final LmemTimefoldPlanner PLANNER =
      new LmemTimefoldPlanner(LmemTimefoldPlanner.Options.defaults().withSteps(120, 40));

  @Override
  protected Planner<LmemInstance, LmemSolution> planner() {
    return PLANNER;
  }
}
