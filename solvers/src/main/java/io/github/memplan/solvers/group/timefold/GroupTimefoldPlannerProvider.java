package io.github.memplan.solvers.group.timefold;

import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.solve.BasePlannerProvider;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.solvers.dsa.timefold.TimefoldPlannerProvider;
import io.github.memplan.solvers.group.EvaluatorParameters;
import io.github.memplan.solvers.group.LmemOracle;
import java.util.Map;
import java.util.stream.Stream;

/** Registers {@link GroupTimefoldPlanner} as {@code group-timefold}. */
public final class GroupTimefoldPlannerProvider
    extends BasePlannerProvider<GroupProblem, Grouping> {
  public GroupTimefoldPlannerProvider() {
    super(
        GroupTimefoldPlanner.ID,
        GroupProblem.class,
        "Timefold Solver local search over group cuts (one boolean per boundary inside a base"
            + " group), each group at its cheapest valid shape secs, started from another grouping"
            + " planner; anytime, seeded.",
        "Timefold Solver 1.32 (timefold.ai) under TPU-MLIR's LayerGroup rules (GroupMethod.cpp"
            + " base groups and is_layer_group_valid, LmemAllocator.cpp shape secs;"
            + " reference/tpu-mlir.md §2.4-2.6, §6); departures: a search, not a TPU-MLIR"
            + " algorithm; cheapest secs per group",
        Stream.concat(
                EvaluatorParameters.declarations().stream(),
                Stream.of(
                    new Parameter(
                        "start",
                        "id of the GroupProblem planner whose grouping seeds the search (given the"
                            + " first planner of lmem when it takes an lmem parameter), or none:"
                            + " every op global",
                        "tpumlir-dp"),
                    new Parameter(
                        "unimproved-steps",
                        "stop after this many local-search steps without a better score (0: run to"
                            + " the budget)",
                        "5000"),
                    TimefoldPlannerProvider.LOCAL_SEARCH))
            .toList(),
        GroupTimefoldPlannerProvider::planner);
  }

  private static Planner<GroupProblem, Grouping> planner(PlannerConfig config) {
    LmemOracle lmem = EvaluatorParameters.oracle(config);
    int maxIterations = EvaluatorParameters.maxIterations(config);
    boolean moves = EvaluatorParameters.moves(config);
    String startId = config.string("start").trim();
    Planner<GroupProblem, Grouping> start = null;
    if (!startId.equals("none")) {
      PlannerProvider<GroupProblem, Grouping> sp = config.planner("start", GroupProblem.class);
      boolean takesLmem = sp.parameters().stream().anyMatch(q -> q.name().equals("lmem"));
      start = sp.create(takesLmem ? Map.of("lmem", lmem.ids().get(0)) : Map.of());
    }
    CutSearch.Options options =
        new CutSearch.Options(
            config.longValue("unimproved-steps", 0), TimefoldPlannerProvider.localSearch(config));
    RooflineCostModel costModel = new RooflineCostModel();
    return new GroupTimefoldPlanner(
        EvaluatorOracle.factory(lmem, costModel, maxIterations),
        start,
        startId,
        costModel,
        options,
        moves);
  }
}
