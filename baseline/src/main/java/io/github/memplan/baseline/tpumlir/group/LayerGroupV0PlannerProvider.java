package io.github.memplan.baseline.tpumlir.group;

import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingOutcomes;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.BasePlannerProvider;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.List;
import java.util.Map;

/** Registers {@link LayerGroupV0Planner} as {@code tpumlir-v0}. */
public final class LayerGroupV0PlannerProvider extends BasePlannerProvider<GroupProblem, Grouping> {
  public LayerGroupV0PlannerProvider() {
    super(
        "tpumlir-v0",
        GroupProblem.class,
        "TPU-MLIR's documented LayerGroup (2022): groups from the tail, N then H slices,"
            + " h/2 rule, v0 timesteps, LMEM packed by an LmemInstance planner.",
        "seed tpu-mlir-layergroup.zh.rst; GroupOps.cpp at 1cf8ff8c2 (reference/tpu-mlir.md"
            + " §2.13)",
        List.of(GroupingOutcomes.lmemParameter("lmem-v0")),
        config -> {
          PlannerProvider<LmemInstance, LmemSolution> lmem =
              config.planner("lmem", LmemInstance.class);
          return new LayerGroupV0Planner(lmem.create(Map.of()), lmem.id());
        });
  }
}
