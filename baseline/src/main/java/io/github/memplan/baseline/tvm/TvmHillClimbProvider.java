package io.github.memplan.baseline.tvm;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.PlannerConfig;
import java.util.List;
import java.util.OptionalLong;

/** Registers {@link HillClimbPlanner} as {@code tvm-hill-climb}. */
public final class TvmHillClimbProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public TvmHillClimbProvider() {
    super(
        "tvm-hill-climb",
        DsaInstance.class,
        "TVM USMP hill_climb: random swaps of neighbours of the top buffer in the placement"
            + " order, each order decoded first fit.",
        "apache/tvm src/tir/usmp/algo/hill_climb.cc (HillClimbAllocator); seeded generator"
            + " by default, glibc rand_r(0) with rng=rand_r",
        List.of(
            new Parameter(
                "max-attempts",
                "decodes at most (the source's _max_attempts)",
                String.valueOf(HillClimbPlanner.MAX_ATTEMPTS)),
            new Parameter(
                "memory-pressure",
                "stop once an accepted peak is at most this many bytes; 'load' for the max load,"
                    + " which USMP passes",
                "load"),
            new Parameter(
                "rng",
                "'context' for the run's seeded generator, 'rand_r' for glibc rand_r from state 0"
                    + " (TVM on Linux)",
                "context")),
        TvmHillClimbProvider::planner);
  }

  private static HillClimbPlanner planner(PlannerConfig config) {
    boolean load = config.string("memory-pressure").trim().equalsIgnoreCase("load");
    return new HillClimbPlanner(
        config.intValue("max-attempts"),
        load ? OptionalLong.empty() : OptionalLong.of(config.longValue("memory-pressure")),
        config.choice("rng", List.of("context", "rand_r")).equals("rand_r")
            ? HillClimbPlanner.Rng.RAND_R
            : HillClimbPlanner.Rng.CONTEXT);
  }
}
