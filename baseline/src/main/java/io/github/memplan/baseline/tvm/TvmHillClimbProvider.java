package io.github.memplan.baseline.tvm;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/** Registers {@link HillClimbPlanner} as {@code tvm-hill-climb}. */
public final class TvmHillClimbProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  static final String MAX_ATTEMPTS = "max-attempts";
  static final String MEMORY_PRESSURE = "memory-pressure";
  static final String RNG = "rng";

  @Override
  public String id() {
    return "tvm-hill-climb";
  }

  @Override
  public String description() {
    return "TVM USMP hill_climb: random swaps of neighbours of the top buffer in the placement"
        + " order, each order decoded first fit.";
  }

  @Override
  public String citation() {
    return "apache/tvm src/tir/usmp/algo/hill_climb.cc (HillClimbAllocator); seeded generator"
        + " by default, glibc rand_r(0) with rng=rand_r";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public List<Parameter> parameters() {
    return List.of(
        new Parameter(
            MAX_ATTEMPTS,
            "decodes at most (the source's _max_attempts)",
            String.valueOf(HillClimbPlanner.MAX_ATTEMPTS)),
        new Parameter(
            MEMORY_PRESSURE,
            "stop once an accepted peak is at most this many bytes; 'load' for the max load,"
                + " which USMP passes",
            "load"),
        new Parameter(
            RNG,
            "'context' for the run's seeded generator, 'rand_r' for glibc rand_r from state 0"
                + " (TVM on Linux)",
            "context"));
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    String pressure = config.string(MEMORY_PRESSURE).trim();
    OptionalLong memoryPressure =
        pressure.equalsIgnoreCase("load")
            ? OptionalLong.empty()
            : OptionalLong.of(config.longValue(MEMORY_PRESSURE));
    String rng = config.string(RNG).trim().toLowerCase(Locale.ROOT);
    HillClimbPlanner.Rng source =
        switch (rng) {
          case "context" -> HillClimbPlanner.Rng.CONTEXT;
          case "rand_r" -> HillClimbPlanner.Rng.RAND_R;
          default ->
              throw new IllegalArgumentException(
                  "planner '"
                      + id()
                      + "': parameter '"
                      + RNG
                      + "' must be 'context' or 'rand_r', not '"
                      + config.string(RNG)
                      + "'");
        };
    return new HillClimbPlanner(config.intValue(MAX_ATTEMPTS), memoryPressure, source);
  }
}
