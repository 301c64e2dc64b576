package io.github.memplan.baseline.xla;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaOutcomes;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.Map;
import java.util.OptionalLong;

/**
 * XLA's {@code ChooseBestHeapAlgorithm} as buffer assignment builds it ({@code openxla/xla:
 * xla/service/buffer_assignment.cc}, {@code get_heap_algorithm}; {@code heap_simulator.cc}, {@code
 * ChooseBestHeapAlgorithm::Finish}): {@link GlobalDecreasingSizeBestFitHeap} in {@code kSpatial}
 * then {@code kTemporal} order, keeping the result with the smaller heap; on a tie the first
 * (spatial) wins, because only a strictly smaller heap replaces it. Departures are those of {@link
 * GlobalDecreasingSizeBestFitHeap} (one heap: the {@code Constrained...} multi-heap limit is not
 * modelled).
 */
public final class ChooseBestHeapPlanner implements Planner<DsaInstance, DsaSolution> {
  private final GlobalDecreasingSizeBestFitHeap spatial =
      new GlobalDecreasingSizeBestFitHeap(GlobalDecreasingSizeBestFitHeap.Type.SPATIAL);
  private final GlobalDecreasingSizeBestFitHeap temporal =
      new GlobalDecreasingSizeBestFitHeap(GlobalDecreasingSizeBestFitHeap.Type.TEMPORAL);

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    long[] s = spatial.place(instance, ctx);
    long[] t = s == null ? null : temporal.place(instance, ctx);
    if (t == null) {
      return Outcome.noSolution(OptionalLong.empty(), "budget exhausted while placing");
    }
    long sp = heap(instance, s);
    long tp = heap(instance, t);
    boolean temporalWins = tp < sp;
    return DsaOutcomes.fromOffsets(
        instance,
        temporalWins ? t : s,
        Map.of("spatial-peak", sp, "temporal-peak", tp, "temporal-chosen", temporalWins ? 1 : 0));
  }

  private static long heap(DsaInstance instance, long[] offsets) {
    long top = 0;
    for (int i = 0; i < offsets.length; i++) {
      top = Math.max(top, offsets[i] + instance.buffer(i).size());
    }
    return top;
  }
}
