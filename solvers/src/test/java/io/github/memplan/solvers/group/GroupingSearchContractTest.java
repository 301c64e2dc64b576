package io.github.memplan.solvers.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingPlannerContract;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link GroupingPlannerContract} on every grouping planner of {@code solvers}. The TPU-MLIR LMEM
 * allocators are baselines, which solvers never see: the groups are packed by core's {@code
 * test-lmem-stack} double, and {@code group-timefold} starts from {@code group-dp-best}.
 */
class GroupingSearchContractTest {
  static class GroupDpBest extends GroupingPlannerContract {
    @Override
    protected PlannerProvider<GroupProblem, Grouping> provider() {
      return registered("group-dp-best");
    }

    @Override
    protected Map<String, String> parameters() {
      return Map.of("lmem", "test-lmem-stack", "max-iterations", "64");
    }
  }

  static class GroupTimefold extends GroupingPlannerContract {
    @Override
    protected PlannerProvider<GroupProblem, Grouping> provider() {
      return registered("group-timefold");
    }

    @Override
    protected Map<String, String> parameters() {
      return Map.of(
          "lmem",
          "test-lmem-stack",
          "max-iterations",
          "64",
          "start",
          "group-dp-best",
          "unimproved-steps",
          "200");
    }
  }

  /** A grouping planner added to this module fails here until it gets a contract class above. */
  @Test
  void everyGroupingPlannerOfTheModuleHasTheContract() {
    assertThat(GroupingPlannerContract.registeredIn("io.github.memplan.solvers."))
        .containsExactlyInAnyOrder("group-dp-best", "group-timefold");
  }
}
