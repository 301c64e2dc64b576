package io.github.memplan.solvers.group.timefold;

import io.github.memplan.core.cost.RooflineCostModel;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.solvers.group.EvaluatorParameters;
import io.github.memplan.solvers.group.LmemOracle;
import io.github.memplan.solvers.timefold.TimefoldPlannerProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Registers {@link GroupTimefoldPlanner} as {@code group-timefold}. */
public final class GroupTimefoldPlannerProvider implements PlannerProvider<GroupProblem, Grouping> {

  @Override
  public String id() {
    return GroupTimefoldPlanner.ID;
  }

  @Override
  public String description() {
    return "Timefold Solver local search over group cuts (one boolean per boundary inside a base"
        + " group), each group at its cheapest valid shape secs, started from another grouping"
        + " planner; anytime, seeded.";
  }

  @Override
  public String citation() {
    return "Timefold Solver 1.32 (timefold.ai) under TPU-MLIR's LayerGroup rules (GroupMethod.cpp"
        + " base groups and is_layer_group_valid, LmemAllocator.cpp shape secs; reference/tpu-mlir.md"
        + " §2.4-2.6, §6); departures: a search, not a TPU-MLIR algorithm; cheapest secs per group";
  }

  @Override
  public Class<GroupProblem> instanceType() {
    return GroupProblem.class;
  }

  @Override
  public List<Parameter> parameters() {
    List<Parameter> out = new ArrayList<>(EvaluatorParameters.declarations());
    out.addAll(
        List.of(
            new Parameter(
                "start",
                "id of the GroupProblem planner whose grouping seeds the search (given the first"
                    + " planner of lmem when it takes an lmem parameter), or none: every op global",
                "tpumlir-dp"),
            new Parameter(
                "unimproved-steps",
                "stop after this many local-search steps without a better score (0: run to the"
                    + " budget)",
                "5000"),
            TimefoldPlannerProvider.localSearchParameter()));
    return List.copyOf(out);
  }

  @Override
  public Planner<GroupProblem, Grouping> create(PlannerConfig config) {
    LmemOracle lmem = EvaluatorParameters.oracle(id(), config);
    int maxIterations = EvaluatorParameters.maxIterations(id(), config);
    boolean moves = EvaluatorParameters.moves(id(), config);
    String startId = config.string("start").trim();
    Planner<GroupProblem, Grouping> start = null;
    if (!startId.equals("none")) {
      if (startId.equals(id())) {
        throw new IllegalArgumentException("planner '" + id() + "': start cannot be itself");
      }
      PlannerProvider<GroupProblem, Grouping> sp = Planners.get(startId, GroupProblem.class);
      boolean takesLmem = sp.parameters().stream().anyMatch(q -> q.name().equals("lmem"));
      start = sp.create(takesLmem ? Map.of("lmem", lmem.ids().get(0)) : Map.of());
    }
    long unimproved = config.longValue("unimproved-steps");
    if (unimproved < 0) {
      throw new IllegalArgumentException(
          "planner '" + id() + "': unimproved-steps must be >= 0: " + unimproved);
    }
    CutSearch.Options options =
        new CutSearch.Options(
            unimproved,
            TimefoldPlannerProvider.localSearchType(id(), config.string("local-search")));
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
