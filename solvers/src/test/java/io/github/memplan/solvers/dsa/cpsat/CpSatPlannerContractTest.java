package io.github.memplan.solvers.dsa.cpsat;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import org.junit.jupiter.api.BeforeAll;

/**
 * The DSA planner contract for {@code cpsat}: exact, gaps included. The runs use a deterministic
 * time limit (one worker), so that equal seeds give equal placements; the small instances are all
 * proven optimal well within it.
 */
class CpSatPlannerContractTest extends DsaPlannerContract {
  static final CpSatPlanner PLANNER =
      new CpSatPlanner(CpSatPlanner.Options.defaults().withDeterministicTime(0.05));

  @BeforeAll
  static void natives() {
    assumeTrue(CpSatPlanner.available(), "OR-Tools has no native library for this platform");
  }

  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return PLANNER;
  }

  @Override
  protected boolean exact() {
    return true;
  }
}
