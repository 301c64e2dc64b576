package io.github.memplan.baseline.vela;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;
import io.github.memplan.core.solve.Parameter;
import java.util.List;

/** Registers {@link VelaHillClimbPlanner} as {@code vela-hill-climb}. */
public final class VelaHillClimbPlannerProvider
    extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public VelaHillClimbPlannerProvider() {
    super(
        "vela-hill-climb",
        DsaInstance.class,
        "Arm Ethos-U Vela HillClimb: swap the allocation turns of live ranges that shaped the"
            + " bottleneck, re-place first-fit, keep if not worse.",
        "ethos-u-vela: ethosu/vela/hillclimb_allocation.py (HillClimbAllocator),"
            + " tensor_allocation.py; random numbers from the run's seed",
        List.of(
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
                Integer.toString(VelaHillClimbPlanner.DEFAULT_MIN_ITERATIONS_IMPROVE))),
        config ->
            new VelaHillClimbPlanner(
                config.intValue("max-iterations"),
                config.intValue("max-iterations-stuck"),
                config.intValue("min-iterations-improve")));
  }
}
