package io.github.memplan.core.dsa;

import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Planner;

/**
 * Runs the DSA planner contract on the brute-force reference as an exact planner, so that the
 * contract's exactness checks run in core's own build. Instances beyond brute force get a step cap
 * (deterministic), under which the planner returns its best placement so far.
 */
class BruteForceContractTest extends DsaPlannerContract {
  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return new BruteForcePlanner();
  }

  @Override
  protected boolean exact() {
    return true;
  }

  @Override
  protected boolean exactWithGaps() {
    return false; // the search treats gaps as occupied
  }

  @Override
  protected Budget budget(DsaInstance instance) {
    return instance.size() <= DsaFixtures.BRUTE_FORCE_MAX_BUFFERS
        ? Budget.unlimited()
        : Budget.of(null, 2_000);
  }
}
