package io.github.memplan.solvers.lmem.timefold;

import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.BasePlannerProvider;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.solvers.lmem.LmemRules;
import java.util.stream.Stream;

/** Registers {@link LmemTimefoldPlanner} as {@code lmem-timefold}. */
public final class LmemTimefoldPlannerProvider
    extends BasePlannerProvider<LmemInstance, LmemSolution> {
  public static final String ID = "lmem-timefold";

  public LmemTimefoldPlannerProvider() {
    super(
        ID,
        LmemInstance.class,
        "Timefold Solver local search over LMEM placement orders decoded by lowest-address"
            + " placement under the bank rules (straddle, conflict: off/soft/hard); objective"
            + " conflicts, then straddles, then peak; seeded, anytime.",
        "Timefold Solver 1.32 (timefold.ai); rules of TPU-MLIR LmemAllocator::assignLmemAddr"
            + " (reference/tpu-mlir.md §2.10, §2.13; opportunity of §6 (3)), bank rules as"
            + " core.lmem.LmemBanks; departure: a search over orders, not TPU-MLIR's greedy",
        Stream.concat(
                LmemRules.parameters().stream(),
                Stream.of(
                    new Parameter("steps", "cap on local search steps (0: none)", "0"),
                    new Parameter(
                        "unimproved-steps",
                        "stop after this many steps without a better solution (0: never; then only"
                            + " the budget, the steps cap or the bound stop the search)",
                        String.valueOf(LmemTimefoldPlanner.DEFAULT_UNIMPROVED_STEPS))))
            .toList(),
        config ->
            new LmemTimefoldPlanner(
                LmemTimefoldPlanner.Options.defaults()
                    .withRules(LmemRules.from(config))
                    .withSteps(
                        config.intValue("steps", 0), config.intValue("unimproved-steps", 0))));
  }
}
