package io.github.memplan.solvers.lmem.cpsat;

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
class LmemCpSatPlannerContractTest extends LmemPlannerContract {
  static final LmemCpSatPlanner PLANNER =
      new LmemCpSatPlanner(LmemCpSatPlanner.Options.defaults().withDeterministicTime(0.02));

  @BeforeAll
  static void natives() {
    assumeTrue(LmemCpSatPlanner.available(), "OR-Tools has no native library for this platform");
  }

  @Override
  protected Planner<LmemInstance, LmemSolution> planner() {
    return PLANNER;
  }
}
