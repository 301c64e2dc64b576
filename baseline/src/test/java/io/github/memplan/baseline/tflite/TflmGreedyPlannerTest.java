package io.github.memplan.baseline.tflite;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The DSA contract for {@code tflm} and its first-fit and ordering rules by hand. */
class TflmGreedyPlannerTest extends DsaPlannerContract {
  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return new TflmGreedyPlanner();
  }

  private static DsaSolution solve(DsaInstance inst) {
    var out = new TflmGreedyPlanner().solve(inst, SolveContext.unlimited());
    assertSolved(inst, out);
    return out.solution();
  }

  /**
   * The walls of {@link TfliteArenaPlannerTest#walls()}: the offline (fixed) walls first; of the
   * two 3-byte buffers the one added last, s1, goes first, into the <em>first</em> gap that holds
   * it, 0; s2 then finds no gap below V (the bottom has 2 bytes left, W closes 11..14) and goes to
   * 20: peak 23, where the arena's best fit reaches 20.
   */
  @Test
  void firstFitFragmentsTheLargeGap() {
    DsaInstance inst = TfliteArenaPlannerTest.walls();
    DsaSolution s = solve(inst);
    assertThat(s.offsets()).containsExactly(5, 14, 11, 20, 0);
    assertThat(inst.peak(s)).isEqualTo(23);
  }

  /**
   * Equal sizes are planned in reverse order of addition (the list is filled from its tail and
   * sorted stably): b, added second, takes 0, a goes on top. The arena takes a first.
   */
  @Test
  void equalSizesInReverseOrderOfAddition() {
    DsaInstance inst =
        DsaInstance.of("tie", List.of(Buffer.of("a", 0, 2, 4), Buffer.of("b", 0, 2, 4)));
    assertThat(solve(inst).offsets()).containsExactly(4, 0);
    var arena = new TfliteArenaPlanner().solve(inst, SolveContext.unlimited());
    assertThat(arena.solution().offsets()).containsExactly(0, 4);
  }
}
