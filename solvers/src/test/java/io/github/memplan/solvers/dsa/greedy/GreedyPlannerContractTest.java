package io.github.memplan.solvers.dsa.greedy;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import java.util.Map;

/** {@code greedy} under the DSA planner contract. */
class GreedyPlannerContractTest extends DsaPlannerContract {
  private static final GreedyPlannerProvider PROVIDER = new GreedyPlannerProvider();

  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return PROVIDER.create(PlannerConfig.resolve(PROVIDER.id(), PROVIDER.parameters(), Map.of()));
  }
}
