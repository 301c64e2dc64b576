package io.github.memplan.solvers.group;

import io.github.memplan.core.cost.RooflineCostModel;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.ArrayList;
import java.util.List;

/** Registers {@link GroupDpBestPlanner} as {@code group-dp-best}. */
public final class GroupDpBestPlannerProvider implements PlannerProvider<GroupProblem, Grouping> {

  @Override
  public String id() {
    return GroupDpBestPlanner.ID;
  }

  @Override
  public String description() {
    return "Interval DP over every op range of each base group (no clusters), each group at its"
        + " cheapest valid shape secs under the roofline cost model (exhaustive secs space, LMEM"
        + " checked by an oracle chain of LmemInstance planners); exact over cuts, lower-bound"
        + " pruning, anytime.";
  }

  @Override
  public String citation() {
    return "TPU-MLIR GroupMethod.cpp dynamic_programming_layer_group_with_cluster and"
        + " LmemAllocator.cpp assignLmemAddrWithSecs (reference/tpu-mlir.md §2.4-2.6), with the"
        + " cheapest instead of the first valid shape secs (§6.3); departures: no clusters or"
        + " structure detection, exhaustive capped secs space";
  }

  @Override
  public Class<GroupProblem> instanceType() {
    return GroupProblem.class;
  }

  @Override
  public List<Parameter> parameters() {
    List<Parameter> out = new ArrayList<>(EvaluatorParameters.declarations());
    out.add(new Parameter("max-group-ops", "longest group considered (0: no limit)", "0"));
    return List.copyOf(out);
  }

  @Override
  public Planner<GroupProblem, Grouping> create(PlannerConfig config) {
    return new GroupDpBestPlanner(
        EvaluatorParameters.oracle(id(), config),
        new RooflineCostModel(),
        EvaluatorParameters.maxIterations(id(), config),
        config.intValue("max-group-ops"),
        EvaluatorParameters.moves(id(), config));
  }
}
