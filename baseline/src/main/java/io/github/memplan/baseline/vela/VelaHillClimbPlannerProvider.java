package io.github.memplan.baseline.vela;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.List;

/** Registers {@link VelaHillClimbPlanner} as {@code vela-hill-climb}. */
public final class VelaHillClimbPlannerProvider
    implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "vela-hill-climb";
  }

  @Override
  public String description() {
    return "Arm Ethos-U Vela HillClimb: swap the allocation turns of live ranges that shaped the"
        + " bottleneck, re-place first-fit, keep if not worse.";
  }

  @Override
  public String citation() {
    return "ethos-u-vela: ethosu/vela/hillclimb_allocation.py (HillClimbAllocator),"
        + " tensor_allocation.py; random numbers from the run's seed";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public List<Parameter> parameters() {
    return List.of(
        new Parameter(
            "max-iterations",
            "iterations while the best exceeds the capacity (--hillclimb-max-iterations)",
            Integer.toString(VelaHillClimbPlanner.DEFAULT_MAX_ITERATIONS)),
        new Parameter(
            "max-iterations-stuck",
            "iterations without improvement before two more turns are swapped",
            Integer.toString(VelaHillClimbPlanner.DEFAULT_MAX_ITERATIONS_STUCK)),
        new Parameter(
            "min-iterations-improve",
            "the search goes on while fewer iterations than this passed since the last"
                + " improvement",
            Integer.toString(VelaHillClimbPlanner.DEFAULT_MIN_ITERATIONS_IMPROVE)));
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new VelaHillClimbPlanner(
        config.intValue("max-iterations"),
        config.intValue("max-iterations-stuck"),
        config.intValue("min-iterations-improve"));
  }
}
