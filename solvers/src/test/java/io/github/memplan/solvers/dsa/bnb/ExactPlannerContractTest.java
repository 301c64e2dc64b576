package io.github.memplan.solvers.dsa.bnb;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Planner;

/**
 * The DSA planner contract for {@code exact}. Exact, except on instances with windowed gaps, where
 * the search keeps MiniMalloc's effective-size rule and so proves nothing (see {@link
 * ExactPlanner}).
 */
class ExactPlannerContractTest extends DsaPlannerContract {
  private static final ExactPlanner PLANNER = new ExactPlanner();

  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return PLANNER;
  }

  @Override
  protected boolean exact() {
    return true;
  }

  @Override
  protected boolean exactWithGaps() {
    return false;
  }

  /** A node cap keeps the random instances of up to 40 buffers fast and deterministic. */
  @Override
  protected Budget budget(DsaInstance instance) {
    return Budget.of(null, 200_000);
  }
}
