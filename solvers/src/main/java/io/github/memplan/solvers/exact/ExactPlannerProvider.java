package io.github.memplan.solvers.exact;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Registers {@link ExactPlanner} as {@code exact}. */
public final class ExactPlannerProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  public static final String ID = "exact";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String description() {
    return "Exact branch and bound over canonical gravity placements (MiniMalloc's search) in a"
        + " capacity loop: proves the least peak or reports the best placement and bound.";
  }

  @Override
  public String citation() {
    return "Moffitt, MiniMalloc, ASPLOS 2023 (DOI 10.1145/3623278.3624752), google/minimalloc"
        + " src/solver.cc; departures: minimisation loop that separates proofs from timeouts,"
        + " granularity-rounded bounds, universal buffers stacked first";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public List<Parameter> parameters() {
    return List.of(
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
            "none"));
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    String mode = config.string("mode").trim().toLowerCase(Locale.ROOT);
    ExactPlanner.Mode m =
        switch (mode) {
          case "minimise", "minimize" -> ExactPlanner.Mode.MINIMISE;
          case "decide" -> ExactPlanner.Mode.DECIDE;
          default ->
              throw new IllegalArgumentException(
                  "planner 'exact': mode must be minimise or decide, not '" + mode + "'");
        };
    List<String> orders =
        Arrays.stream(config.string("orders").split(","))
            .map(String::trim)
            .filter(s -> !s.isEmpty())
            .toList();
    long nodeLimit = config.longValue("node-limit");
    String warm = config.string("warm-start").trim();
    Planner<DsaInstance, DsaSolution> warmStart = null;
    if (!warm.isEmpty() && !warm.equals("none")) {
      if (warm.equals(ID)) {
        throw new IllegalArgumentException("planner 'exact': warm-start cannot be 'exact' itself");
      }
      warmStart = Planners.<DsaInstance, DsaSolution>get(warm, DsaInstance.class).create(Map.of());
    }
    try {
      return new ExactPlanner(new ExactPlanner.Options(m, orders, nodeLimit, warmStart));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("planner 'exact': " + e.getMessage(), e);
    }
  }
}
