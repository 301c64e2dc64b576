package io.github.memplan.baseline.tpumlir;

import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingOutcomes;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.List;

/** Registers {@link LayerGroupV0Planner} as {@code tpumlir-v0}. */
public final class LayerGroupV0PlannerProvider implements PlannerProvider<GroupProblem, Grouping> {
  @Override
  public String id() {
    return "tpumlir-v0";
  }

  @Override
  public String description() {
    return "TPU-MLIR's documented LayerGroup (2022): groups from the tail, N then H slices,"
        + " h/2 rule, v0 timesteps, LMEM packed by an LmemInstance planner.";
  }

  @Override
  public String citation() {
    return "seed tpu-mlir-layergroup.zh.rst; GroupOps.cpp at 1cf8ff8c2 (reference/tpu-mlir.md"
        + " §2.13)";
  }

  @Override
  public Class<GroupProblem> instanceType() {
    return GroupProblem.class;
  }

  @Override
  public List<Parameter> parameters() {
    return List.of(GroupingOutcomes.lmemParameter("lmem-v0"));
  }

  @Override
  public Planner<GroupProblem, Grouping> create(PlannerConfig config) {
    String id = config.string("lmem");
    return new LayerGroupV0Planner(GroupingOutcomes.lmemPlanner(id), id);
  }
}
