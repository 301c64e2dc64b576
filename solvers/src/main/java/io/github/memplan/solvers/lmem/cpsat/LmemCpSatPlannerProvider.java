package io.github.memplan.solvers.lmem.cpsat;

import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.BasePlannerProvider;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.solvers.lmem.LmemRules;
import java.util.List;
import java.util.stream.Stream;

/** Registers {@link LmemCpSatPlanner} as {@code lmem-exact}. */
public final class LmemCpSatPlannerProvider
    extends BasePlannerProvider<LmemInstance, LmemSolution> {
  public static final String ID = "lmem-exact";

  public LmemCpSatPlannerProvider() {
    super(
        ID,
        LmemInstance.class,
        "OR-Tools CP-SAT model of one layer group's LMEM placement: bank conflicts, then"
            + " straddles, then peak, each bank rule off, soft or hard; proves the optimum or that"
            + " no placement obeys the hard rules.",
        "reference/tpu-mlir.md §2.10 (LmemAllocator::assignLmemAddr rules), §2.13 (v0 bank"
            + " straddling), §6.3 (exact placement); bank rules of LmemBanks; departures: bank"
            + " rules may be hard, lexicographic objective",
        Stream.concat(
                LmemRules.parameters().stream(),
                Stream.of(
                    new Parameter(
                        "workers",
                        "CP-SAT search workers (num_workers)",
                        "" + LmemCpSatPlanner.Options.defaults().workers()),
                    new Parameter(
                        "deterministic-time",
                        "CP-SAT's max_deterministic_time, on one worker, for byte-reproducible"
                            + " runs (0: none)",
                        "0"),
                    new Parameter(
                        "goal",
                        "optimise: conflicts, then straddles, then peak; satisfy: stop at the"
                            + " first placement obeying the hard rules (a feasibility oracle)",
                        LmemCpSatPlanner.Options.defaults().goal().id())))
            .toList(),
        config ->
            config.named(
                () ->
                    new LmemCpSatPlanner(
                        new LmemCpSatPlanner.Options(
                            LmemRules.from(config),
                            config.intValue("workers"),
                            config.doubleValue("deterministic-time"),
                            config
                                    .choice("goal", List.of("optimize", "optimise", "satisfy"))
                                    .equals("satisfy")
                                ? LmemCpSatPlanner.Goal.SATISFY
                                : LmemCpSatPlanner.Goal.OPTIMISE))));
  }
}
