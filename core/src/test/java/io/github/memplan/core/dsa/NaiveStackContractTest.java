package io.github.memplan.core.dsa;

import io.github.memplan.core.solve.Planner;

/** Runs the DSA planner contract in core's own build, on the trivial stacking planner. */
class NaiveStackContractTest extends DsaPlannerContract {
  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return new NaiveStackPlanner();
  }
}
