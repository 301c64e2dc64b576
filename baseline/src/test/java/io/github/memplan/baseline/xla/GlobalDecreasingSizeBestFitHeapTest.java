package io.github.memplan.baseline.xla;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-worked runs of XLA's global decreasing-size best-fit heap and its chooser. */
class GlobalDecreasingSizeBestFitHeapTest {

  private static final GlobalDecreasingSizeBestFitHeap SPATIAL =
      new GlobalDecreasingSizeBestFitHeap(GlobalDecreasingSizeBestFitHeap.Type.SPATIAL);
  private static final GlobalDecreasingSizeBestFitHeap TEMPORAL =
      new GlobalDecreasingSizeBestFitHeap(GlobalDecreasingSizeBestFitHeap.Type.TEMPORAL);

  private static Outcome<DsaSolution> run(
      Planner<DsaInstance, DsaSolution> planner, DsaInstance instance) {
    Outcome<DsaSolution> o = planner.solve(instance, SolveContext.unlimited());
    DsaPlannerContract.assertSolved(instance, o);
    return o;
  }

  /** A(3) [3,4), B(5) [0,3), C(4) [0,4), D(3) [3,4): loads 9, 9, 9, 10, so 10 is a bound. */
  private static final DsaInstance ORDERS =
      DsaInstance.of(
          "orders",
          List.of(
              Buffer.of("A", 3, 4, 3),
              Buffer.of("B", 0, 3, 5),
              Buffer.of("C", 0, 4, 4),
              Buffer.of("D", 3, 4, 3)));

  /**
   * Values sorted by (start, end, id): B, C, A, D. Step 0: Alloc B (clock 0), C (1); step 2: Free B
   * (2); step 3: Alloc A (3), D (4), then Free C (5), A (6), D (7).
   */
  @Test
  void theHeapClockCountsAllocAndFreeEvents() {
    long[][] events = GlobalDecreasingSizeBestFitHeap.eventIntervals(ORDERS);
    assertThat(events[0]).containsExactly(3, 6);
    assertThat(events[1]).containsExactly(0, 2);
    assertThat(events[2]).containsExactly(1, 5);
    assertThat(events[3]).containsExactly(4, 7);
  }

  /**
   * Spatial (size, then event duration): B, C, A (3, duration 3), D (3, duration 3; id after A). B
   * at 0; C over B at 5; A's only overlap is C at [5,9), and the free range [0,5) fits: A at 0; D
   * overlaps A [0,3) and C [5,9): the range [3,5) is too small, so D goes on top at 9: peak 12.
   *
   * <p>Temporal (duration, then size): C (4), A (3), D (3), B (2). C at 0, A at 4, D at 7, B over C
   * at 4 (A and D are not alive with B): peak 10, the bound. The chooser keeps the temporal plan.
   */
  @Test
  void spatialAndTemporalOrdersGiveDifferentPeaks() {
    assertThat(run(SPATIAL, ORDERS).solution().offsets()).containsExactly(0, 0, 5, 9);
    assertThat(run(TEMPORAL, ORDERS).solution().offsets()).containsExactly(4, 4, 0, 7);
    Outcome<DsaSolution> best = run(new ChooseBestHeapPlanner(), ORDERS);
    assertThat(best.solution().offsets()).containsExactly(4, 4, 0, 7);
    assertThat(best.status()).isEqualTo(Status.OPTIMAL);
    assertThat(best.stats())
        .containsEntry("spatial-peak", 12.0)
        .containsEntry("temporal-peak", 10.0)
        .containsEntry("temporal-chosen", 1.0);
  }

  /**
   * Two fixed buffers at [10,20) and [26,40) leave free ranges [0,10) (length 10), [20,26) (6) and
   * [40, inf) while n (5 bytes) lives. Best fit takes the smallest range that fits: 20, not 0.
   */
  @Test
  void takesTheSmallestFreeRangeNotTheLowest() {
    DsaInstance instance =
        DsaInstance.of(
            "best-fit",
            List.of(
                Buffer.of("f1", 0, 1, 10).withFixedOffset(10),
                Buffer.of("f2", 0, 1, 14).withFixedOffset(26),
                Buffer.of("n", 0, 1, 5)));
    assertThat(run(SPATIAL, instance).solution().offset(2)).isEqualTo(20);
    assertThat(run(TEMPORAL, instance).solution().offset(2)).isEqualTo(20);
  }

  /**
   * Free ranges start on the used chunk's end rounded up to the alignment: a(5) at 0, b(4, aligned
   * 8) over it at 8, not 5. Two equal ranges: the lower one wins (c at 0 when x is between).
   */
  @Test
  void roundsRangeStartsAndBreaksTiesByOffset() {
    DsaInstance aligned =
        DsaInstance.of(
            "aligned", List.of(Buffer.of("a", 0, 2, 5), Buffer.of("b", 0, 2, 4).withAlignment(8)));
    assertThat(run(SPATIAL, aligned).solution().offsets()).containsExactly(0, 8);
    DsaInstance tie =
        DsaInstance.of(
            "tie",
            List.of(
                Buffer.of("x", 0, 1, 4).withFixedOffset(4),
                Buffer.of("y", 0, 1, 4).withFixedOffset(12),
                Buffer.of("c", 0, 1, 4)));
    // ranges [0,4) and [8,12) both have length 4: the lower one, 0
    assertThat(run(SPATIAL, tie).solution().offset(2)).isZero();
  }

  /** On a tie the chooser keeps the spatial plan (only a strictly smaller heap replaces it). */
  @Test
  void theChooserKeepsSpatialOnATie() {
    DsaInstance one = DsaInstance.of("one", List.of(Buffer.of("a", 0, 1, 7)));
    assertThat(run(new ChooseBestHeapPlanner(), one).stats()).containsEntry("temporal-chosen", 0.0);
  }
}
