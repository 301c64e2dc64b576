package io.github.memplan.solvers.dsa.cpsat;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.PlannerConfig;
import java.util.List;
import java.util.Map;

/** Registers {@link CpSatPlanner} as {@code cpsat}. */
public final class CpSatPlannerProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public static final String ID = "cpsat";

  public CpSatPlannerProvider() {
    super(
        ID,
        DsaInstance.class,
        "OR-Tools CP-SAT: offsets as variables over fixed lifetimes, pairwise disjunctions or"
            + " NoOverlap2D, the peak minimised from a greedy hint; proves the optimum or reports"
            + " the best placement and CP-SAT's bound.",
        "Google OR-Tools CP-SAT (ortools/sat, AddNoOverlap2D; docs/scheduling.md);"
            + " departures: pairwise disjunctions by default, gap windows modelled exactly, values"
            + " divided by their gcd, twin symmetry broken",
        List.of(
            new Parameter(
                "model",
                "pairwise: one disjunction per co-active pair; no-overlap-2d: one NoOverlap2D",
                CpSatPlanner.Options.defaults().formulation().id()),
            new Parameter(
                "workers",
                "CP-SAT search workers (num_workers)",
                "" + CpSatPlanner.Options.defaults().workers()),
            new Parameter(
                "warm-start",
                "the hint: greedy (best of the built-in greedies), none, or a DSA planner id",
                "greedy"),
            new Parameter(
                "deterministic-time",
                "CP-SAT's max_deterministic_time, on one worker, for byte-reproducible runs (0:"
                    + " none)",
                "0"),
            new Parameter(
                "symmetry", "order twins (same lifetime, size, alignment, gaps)", "true")),
        CpSatPlannerProvider::planner);
  }

  private static CpSatPlanner planner(PlannerConfig config) {
    // load OR-Tools' native library now (seconds on a busy machine), not inside the first solve's
    // budget; a platform without it still answers ERROR from solve
    CpSatPlanner.available();
    String warm = config.string("warm-start").trim();
    CpSatPlanner.WarmStart ws =
        switch (warm) {
          case "greedy", "" -> new CpSatPlanner.WarmStart.Greedy();
          case "none" -> new CpSatPlanner.WarmStart.None();
          default ->
              new CpSatPlanner.WarmStart.From(
                  warm,
                  config
                      .<DsaInstance, DsaSolution>planner("warm-start", DsaInstance.class)
                      .create(Map.of()));
        };
    return config.named(
        () ->
            new CpSatPlanner(
                new CpSatPlanner.Options(
                    config.choice("model", CpSatPlanner.Formulation.class),
                    config.intValue("workers"),
                    ws,
                    config.doubleValue("deterministic-time"),
                    config.booleanValue("symmetry"))));
  }
}
