package io.github.memplan.solvers.lmem;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemPlannerContract;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Planner;
import org.junit.jupiter.api.BeforeAll;

/**
 * The LMEM planner contract for {@code lmem-exact} with its defaults (soft/soft, one worker) and a
 * deterministic time limit, so that runs stopped early are reproducible too.
 */
class LmemExactPlannerContractTest extends LmemPlannerContract {
  static final LmemExactPlanner PLANNER =
      new LmemExactPlanner(LmemExactPlanner.Options.defaults().withDeterministicTime(0.02));

  @BeforeAll
  static void natives() {
    assumeTrue(LmemExactPlanner.available(), "OR-Tools has no native library for this platform");
  }

  @Override
  protected Planner<LmemInstance, LmemSolution> planner() {
    return PLANNER;
  }
}
