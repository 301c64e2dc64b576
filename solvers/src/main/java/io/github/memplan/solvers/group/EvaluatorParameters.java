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
                + " places the group (e.g. lmem-tpumlir+lmem-exact)",
            "lmem-tpumlir"),
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

  /** {@code moves}: on or off, else an error naming {@code planner}. */
  public static boolean moves(String planner, PlannerConfig config) {
    String v = config.string("moves").trim();
    return switch (v) {
      case "on" -> true;
      case "off" -> false;
      default ->
          throw new IllegalArgumentException(
              "planner '" + planner + "': moves must be on or off: " + v);
    };
  }

  /** The oracle named by {@code lmem}. */
  public static LmemOracle oracle(String planner, PlannerConfig config) {
    return LmemOracle.of(planner, config.string("lmem"));
  }

  /** {@code max-iterations}, at least 1, else an error naming {@code planner}. */
  public static int maxIterations(String planner, PlannerConfig config) {
    int maxIterations = config.intValue("max-iterations");
    if (maxIterations < 1) {
      throw new IllegalArgumentException(
          "planner '" + planner + "': max-iterations must be >= 1: " + maxIterations);
    }
    return maxIterations;
  }
}
