package io.github.memplan.baseline.tpumlir.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingPlannerContract;
import io.github.memplan.core.solve.PlannerProvider;
import org.junit.jupiter.api.Test;

/**
 * {@link GroupingPlannerContract} on every grouping planner of {@code baseline}, with its default
 * parameters (the TPU-MLIR LMEM allocators of this module pack the groups).
 */
class LayerGroupContractTest {
  static class TpuMlirV0 extends GroupingPlannerContract {
    @Override
    protected PlannerProvider<GroupProblem, Grouping> provider() {
      return registered("tpumlir-v0");
    }
  }

  static class TpuMlirGreedy extends GroupingPlannerContract {
    @Override
    protected PlannerProvider<GroupProblem, Grouping> provider() {
      return registered("tpumlir-greedy");
    }
  }

  static class TpuMlirDp extends GroupingPlannerContract {
    @Override
    protected PlannerProvider<GroupProblem, Grouping> provider() {
      return registered("tpumlir-dp");
    }
  }

  /** A grouping planner added to this module fails here until it gets a contract class above. */
  @Test
  void everyGroupingPlannerOfTheModuleHasTheContract() {
    assertThat(GroupingPlannerContract.registeredIn("io.github.memplan.baseline."))
        .containsExactlyInAnyOrder("tpumlir-v0", "tpumlir-greedy", "tpumlir-dp");
  }
}
