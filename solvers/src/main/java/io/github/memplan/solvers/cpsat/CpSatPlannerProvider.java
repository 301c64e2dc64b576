package io.github.memplan.solvers.cpsat;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Registers {@link CpSatPlanner} as {@code cpsat}. */
public final class CpSatPlannerProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  public static final String ID = "cpsat";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String description() {
    return "OR-Tools CP-SAT: offsets as variables over fixed lifetimes, pairwise disjunctions or"
        + " NoOverlap2D, the peak minimised from a greedy hint; proves the optimum or reports the"
        + " best placement and CP-SAT's bound.";
  }

  @Override
  public String citation() {
    return "Google OR-Tools CP-SAT (ortools/sat, AddNoOverlap2D; docs/scheduling.md);"
        + " departures: pairwise disjunctions by default, gap windows modelled exactly, values"
        + " divided by their gcd, twin symmetry broken";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public List<Parameter> parameters() {
    CpSatPlanner.Options d = CpSatPlanner.Options.defaults();
    return List.of(
        new Parameter(
            "model",
            "pairwise: one disjunction per co-active pair; no-overlap-2d: one NoOverlap2D",
            d.formulation().id()),
        new Parameter("workers", "CP-SAT search workers (num_workers)", "" + d.workers()),
        new Parameter(
            "warm-start",
            "the hint: greedy (best of the built-in greedies), none, or a DSA planner id",
            "greedy"),
        new Parameter(
            "deterministic-time",
            "CP-SAT's max_deterministic_time, on one worker, for byte-reproducible runs (0: none)",
            "0"),
        new Parameter("symmetry", "order twins (same lifetime, size, alignment, gaps)", "true"));
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    // load OR-Tools' native library now (seconds on a busy machine), not inside the first solve's
    // budget; a platform without it still answers ERROR from solve
    CpSatPlanner.available();
    try {
      CpSatPlanner.Formulation f =
          CpSatPlanner.Formulation.of(config.string("model").trim().toLowerCase(Locale.ROOT));
      int workers = config.intValue("workers");
      double detTime = config.doubleValue("deterministic-time");
      boolean symmetry = config.booleanValue("symmetry");
      String warm = config.string("warm-start").trim();
      CpSatPlanner.WarmStart ws =
          switch (warm) {
            case "greedy", "" -> new CpSatPlanner.WarmStart.Greedy();
            case "none" -> new CpSatPlanner.WarmStart.None();
            case ID -> throw new IllegalArgumentException("warm-start cannot be 'cpsat' itself");
            default ->
                new CpSatPlanner.WarmStart.From(
                    warm,
                    Planners.<DsaInstance, DsaSolution>get(warm, DsaInstance.class)
                        .create(Map.of()));
          };
      return new CpSatPlanner(new CpSatPlanner.Options(f, workers, ws, detTime, symmetry));
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("planner '" + ID + "'")) {
        throw e;
      }
      throw new IllegalArgumentException("planner '" + ID + "': " + e.getMessage(), e);
    }
  }
}
