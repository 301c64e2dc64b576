package io.github.memplan.solvers.dsa.bnb;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Registers {@link ExactPlanner} as {@code exact}. */
public final class ExactPlannerProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public static final String ID = "exact";

  public ExactPlannerProvider() {
    super(
        ID,
        DsaInstance.class,
        "Exact branch and bound over canonical gravity placements (MiniMalloc's search) in a"
            + " capacity loop: proves the least peak or reports the best placement and bound.",
        "Moffitt, MiniMalloc, ASPLOS 2023 (DOI 10.1145/3623278.3624752), google/minimalloc"
            + " src/solver.cc; departures: minimisation loop that separates proofs from timeouts,"
            + " granularity-rounded bounds, universal buffers stacked first",
        List.of(
            new Parameter(
                "mode",
                "minimise: the least peak within the capacity; decide: any placement within it",
                "minimise"),
            new Parameter(
                "orders",
                "static preorders run round robin, comma-separated words of letters"
                    + " A(area) C(sections) L(lower) O(overlaps) T(section total) U(upper) W(width)"
                    + " Z(size)",
                String.join(",", ExactPlanner.DEFAULT_ORDERS)),
            new Parameter("node-limit", "cap on search nodes for the run (0: none)", "0"),
            new Parameter(
                "warm-start",
                "id of a DSA planner whose solution seeds the incumbent (none: the built-in greedy"
                    + " only)",
                "none")),
        ExactPlannerProvider::planner);
  }

  private static ExactPlanner planner(PlannerConfig config) {
    boolean decide =
        config.choice("mode", List.of("minimize", "minimise", "decide")).equals("decide");
    List<String> orders =
        Arrays.stream(config.string("orders").split(","))
            .map(String::trim)
            .filter(s -> !s.isEmpty())
            .toList();
    String warm = config.string("warm-start").trim();
    Planner<DsaInstance, DsaSolution> warmStart =
        warm.isEmpty() || warm.equals("none")
            ? null
            : config
                .<DsaInstance, DsaSolution>planner("warm-start", DsaInstance.class)
                .create(Map.of());
    return config.named(
        () ->
            new ExactPlanner(
                new ExactPlanner.Options(
                    decide ? ExactPlanner.Mode.DECIDE : ExactPlanner.Mode.MINIMISE,
                    orders,
                    config.longValue("node-limit"),
                    warmStart)));
  }
}
