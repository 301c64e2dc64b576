package io.github.memplan.baseline.vela;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The DSA contract for {@code vela-hill-climb}, its initial order and one climb by hand. */
class VelaHillClimbPlannerTest extends DsaPlannerContract {
  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return new VelaHillClimbPlanner();
  }

  @Override
  protected boolean supportsFixedOffsets() {
    return false;
  }

  /**
   * Loads per timestep 4, 4, 1, 3: max load 4, reached by b at 0, a at 3, c at 0, d at 1, e at 1.
   */
  private static DsaInstance climb() {
    return DsaInstance.of(
        "climb",
        List.of(
            Buffer.of("a", 0, 2, 1),
            Buffer.of("b", 0, 1, 3),
            Buffer.of("c", 1, 4, 1),
            Buffer.of("d", 1, 2, 2),
            Buffer.of("e", 3, 4, 2)));
  }

  /**
   * The heuristic order: urgency (largest load while alive) 4 for a, b, c, d and 3 for e; then
   * longer first (c lives 3 steps, a 2), then earlier start (b before d): c, a, b, d, e. Decoded: c
   * at 0; a is pushed above c to 1; b above a to 2 (predecessor a); d above a to 2; e above c to 1.
   * Peak 5 (b ends at 5).
   */
  @Test
  void initialHeuristicOrder() {
    DsaInstance inst = climb();
    var out =
        new VelaHillClimbPlanner(0, 50, 0).solve(inst, SolveContext.of(7, Budget.unlimited()));
    assertSolved(inst, out);
    assertThat(out.solution().offsets()).containsExactly(1, 2, 0, 2, 1);
    assertThat(out.stats()).containsEntry("iterations", 0.0).containsEntry("initial-peak", 5.0);
  }

  /**
   * The bottleneck is b (end 5); the turns that shaped it are b's (2), its predecessor a's (1) and
   * a's predecessor c's (0); b's only neighbour, a, adds nothing. Whatever the random numbers, the
   * first iteration swaps two of these three turns, and each swap decodes to peak 4 (orders b a c d
   * e, a c b d e and c b a d e), the max load: the search stops there, proven optimal.
   */
  @Test
  void oneSwapReachesTheMaxLoad() {
    DsaInstance inst = climb();
    for (long seed : new long[] {1, 2, 3}) {
      var out = new VelaHillClimbPlanner().solve(inst, SolveContext.of(seed, Budget.unlimited()));
      assertThat(assertSolved(inst, out)).isEqualTo(4);
      assertThat(out.status()).isEqualTo(Status.OPTIMAL);
      assertThat(out.stats()).containsEntry("iterations", 1.0).containsEntry("improvements", 1.0);
    }
  }

  @Test
  void negativeIterationLimitsAreRefused() {
    assertThatThrownBy(() -> new VelaHillClimbPlanner(-1, 50, 500))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max-iterations=-1");
  }
}
