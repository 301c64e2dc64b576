package io.github.memplan.solvers.group.dp;

import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.solve.BasePlannerProvider;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.solvers.group.EvaluatorParameters;
import java.util.stream.Stream;

/** Registers {@link GroupDpBestPlanner} as {@code group-dp-best}. */
public final class GroupDpBestPlannerProvider extends BasePlannerProvider<GroupProblem, Grouping> {
  public GroupDpBestPlannerProvider() {
    super(
        GroupDpBestPlanner.ID,
        GroupProblem.class,
        "Interval DP over every op range of each base group (no clusters), each group at its"
            + " cheapest valid shape secs under the roofline cost model (exhaustive secs space, LMEM"
            + " checked by an oracle chain of LmemInstance planners); exact over cuts, lower-bound"
            + " pruning, anytime.",
        "TPU-MLIR GroupMethod.cpp dynamic_programming_layer_group_with_cluster and"
            + " LmemAllocator.cpp assignLmemAddrWithSecs (reference/tpu-mlir.md §2.4-2.6), with the"
            + " cheapest instead of the first valid shape secs (§6.3); departures: no clusters or"
            + " structure detection, exhaustive capped secs space",
        Stream.concat(
                EvaluatorParameters.declarations().stream(),
                Stream.of(
                    new Parameter("max-group-ops", "longest group considered (0: no limit)", "0")))
            .toList(),
        config ->
            new GroupDpBestPlanner(
                EvaluatorParameters.oracle(config),
                new RooflineCostModel(),
                EvaluatorParameters.maxIterations(config),
                config.intValue("max-group-ops"),
                EvaluatorParameters.moves(config)));
  }
}
