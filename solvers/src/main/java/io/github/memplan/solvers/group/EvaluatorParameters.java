package io.github.memplan.solvers.group;

import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.PlannerConfig;
import java.util.List;

/**
 * The parameters of a {@link GroupEvaluator} that every group search planner exposes: {@code lmem}
 * (the oracle chain), {@code max-iterations} (the cap of the secs space) and {@code moves} (the
 * {@link TransferSearch} post-pass), declared and read in one place.
 */
public final class EvaluatorParameters {
  private EvaluatorParameters() {}

  /** The declarations of {@code lmem}, {@code max-iterations} and {@code moves}, with defaults. */
  public static List<Parameter> declarations() {
    return List.of(
        new Parameter(
            "lmem",
            "LMEM oracle: LmemInstance planner ids joined by '+', tried in order until one"
                + " places the group (lmem-tpumlir alone: TPU-MLIR's allocator decides)",
            "lmem-tpumlir+lmem-exact"),
        new Parameter(
            "max-iterations",
            "cap on the loops (nsecs x hsecs x wsecs) of a candidate shape secs",
            Integer.toString(GroupEvaluator.DEFAULT_MAX_ITERATIONS)),
        new Parameter(
            "moves",
            "on: move the GDMA transfers of every group of the answer to lower its cycles"
                + " (TransferSearch); off: the timestep method's table unchanged",
            "on"));
  }

  /** {@code moves}: on or off. */
  public static boolean moves(PlannerConfig config) {
    return config.choice("moves", List.of("on", "off")).equals("on");
  }

  /** The oracle named by {@code lmem}. */
  public static LmemOracle oracle(PlannerConfig config) {
    return LmemOracle.of(config.plannerId(), config.string("lmem"));
  }

  /** {@code max-iterations}, at least 1. */
  public static int maxIterations(PlannerConfig config) {
    return config.intValue("max-iterations", 1);
  }
}
