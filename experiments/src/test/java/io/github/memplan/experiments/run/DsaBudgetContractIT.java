package io.github.memplan.experiments.run;

import io.github.memplan.core.dsa.DsaBudgetContract;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link DsaBudgetContract} over every DSA planner registered in the product (this module has them
 * all on its class path; the test-only planners are left out).
 */
class DsaBudgetContractIT {
  private static boolean product(String id) {
    return !id.startsWith("test-");
  }

  @TestFactory
  Stream<DynamicTest> everyPlannerReturnsWithinItsTimeLimit() {
    return DsaBudgetContract.timeLimit(DsaBudgetContractIT::product);
  }

  @TestFactory
  Stream<DynamicTest> everyPlannerHonoursACancelledBudget() {
    return DsaBudgetContract.cancelled(DsaBudgetContractIT::product);
  }
}
