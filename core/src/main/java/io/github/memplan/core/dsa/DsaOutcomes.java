package io.github.memplan.core.dsa;

import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Status;
import java.util.Map;
import java.util.OptionalLong;

/** Builds honest outcomes for DSA planners from their offsets. */
public final class DsaOutcomes {
  private DsaOutcomes() {}

  /**
   * The outcome of a heuristic that placed every buffer at {@code offsets}: {@link Status#OPTIMAL}
   * when the peak equals the max-load bound (which proves it), {@link Status#FEASIBLE} when it fits
   * the capacity, and {@link Status#FAILED_TO_PLACE} (the heuristic found nothing that fits, and
   * proved nothing) when it does not.
   */
  public static Outcome<DsaSolution> fromOffsets(
      DsaInstance instance, long[] offsets, Map<String, ? extends Number> stats) {
    DsaSolution solution = new DsaSolution(offsets);
    long peak = instance.peak(solution);
    long lb = LowerBounds.maxLoad(instance);
    Outcome<DsaSolution> out;
    if (peak > instance.capacity()) {
      out =
          Outcome.failedToPlace(
              OptionalLong.of(lb), "peak " + peak + " exceeds the capacity " + instance.capacity());
    } else if (peak == lb) {
      out = Outcome.optimal(solution, lb);
    } else {
      out = Outcome.feasible(solution, OptionalLong.of(lb));
    }
    return out.withStats(stats);
  }
}
