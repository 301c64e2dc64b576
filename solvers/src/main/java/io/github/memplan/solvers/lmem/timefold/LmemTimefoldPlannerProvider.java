package io.github.memplan.solvers.lmem.timefold;

import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.solvers.lmem.LmemRules;
import java.util.ArrayList;
import java.util.List;

/** Registers {@link LmemTimefoldPlanner} as {@code lmem-timefold}. */
public final class LmemTimefoldPlannerProvider
    implements PlannerProvider<LmemInstance, LmemSolution> {
  public static final String ID = "lmem-timefold";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String description() {
    return "Timefold Solver local search over LMEM placement orders decoded by lowest-address"
        + " placement under the bank rules (straddle, conflict: off/soft/hard); objective"
        + " conflicts, then straddles, then peak; seeded, anytime.";
  }

  @Override
  public String citation() {
    return "Timefold Solver 1.32 (timefold.ai); rules of TPU-MLIR LmemAllocator::assignLmemAddr"
        + " (reference/tpu-mlir.md §2.10, §2.13; opportunity of §6 (3)), bank rules as core.lmem.LmemBanks;"
        + " departure: a search over orders, not TPU-MLIR's greedy";
  }

  @Override
  public Class<LmemInstance> instanceType() {
    return LmemInstance.class;
  }

  @Override
  public List<Parameter> parameters() {
    List<Parameter> out = new ArrayList<>(LmemRules.parameters());
    out.add(new Parameter("steps", "cap on local search steps (0: none)", "0"));
    out.add(
        new Parameter(
            "unimproved-steps",
            "stop after this many steps without a better solution (0: never; then only the"
                + " budget, the steps cap or the bound stop the search)",
            String.valueOf(LmemTimefoldPlanner.DEFAULT_UNIMPROVED_STEPS)));
    return out;
  }

  @Override
  public Planner<LmemInstance, LmemSolution> create(PlannerConfig config) {
    LmemRules rules;
    try {
      rules = LmemRules.from(config);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("planner '" + ID + "': " + e.getMessage(), e);
    }
    int steps = nonNegative(config, "steps");
    int unimproved = nonNegative(config, "unimproved-steps");
    return new LmemTimefoldPlanner(
        LmemTimefoldPlanner.Options.defaults().withRules(rules).withSteps(steps, unimproved));
  }

  private static int nonNegative(PlannerConfig config, String key) {
    int v = config.intValue(key);
    if (v < 0) {
      throw new IllegalArgumentException(
          "planner '" + ID + "': parameter '" + key + "' must not be negative: " + v);
    }
    return v;
  }
}
