package io.github.memplan.solvers.lmem;

import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.ArrayList;
import java.util.List;

/** Registers {@link LmemExactPlanner} as {@code lmem-exact}. */
public final class LmemExactPlannerProvider implements PlannerProvider<LmemInstance, LmemSolution> {
  public static final String ID = "lmem-exact";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String description() {
    return "OR-Tools CP-SAT model of one layer group's LMEM placement: bank conflicts, then"
        + " straddles, then peak, each bank rule off, soft or hard; proves the optimum or that"
        + " no placement obeys the hard rules.";
  }

  @Override
  public String citation() {
    return "reference/tpu-mlir.md §2.10 (LmemAllocator::assignLmemAddr rules), §2.13 (v0 bank"
        + " straddling), §6.3 (exact placement); bank rules of LmemBanks; departures: bank rules"
        + " may be hard, lexicographic objective";
  }

  @Override
  public Class<LmemInstance> instanceType() {
    return LmemInstance.class;
  }

  @Override
  public List<Parameter> parameters() {
    LmemExactPlanner.Options d = LmemExactPlanner.Options.defaults();
    List<Parameter> out = new ArrayList<>(LmemRules.parameters());
    out.add(new Parameter("workers", "CP-SAT search workers (num_workers)", "" + d.workers()));
    out.add(
        new Parameter(
            "deterministic-time",
            "CP-SAT's max_deterministic_time, on one worker, for byte-reproducible runs (0: none)",
            "0"));
    out.add(
        new Parameter(
            "goal",
            "optimise: conflicts, then straddles, then peak; satisfy: stop at the first placement"
                + " obeying the hard rules (a feasibility oracle)",
            d.goal().id()));
    return out;
  }

  @Override
  public Planner<LmemInstance, LmemSolution> create(PlannerConfig config) {
    try {
      return new LmemExactPlanner(
          new LmemExactPlanner.Options(
              LmemRules.from(config),
              config.intValue("workers"),
              config.doubleValue("deterministic-time"),
              LmemExactPlanner.Goal.parse(config.string("goal"))));
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("planner '" + ID + "'")) {
        throw e;
      }
      throw new IllegalArgumentException("planner '" + ID + "': " + e.getMessage(), e);
    }
  }
}
