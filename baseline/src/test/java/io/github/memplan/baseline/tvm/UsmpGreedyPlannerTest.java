package io.github.memplan.baseline.tvm;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-worked runs of USMP's greedy_by_size and greedy_by_conflicts. */
class UsmpGreedyPlannerTest {

  private static long[] plan(UsmpGreedyPlanner.Order order, DsaInstance instance) {
    Outcome<DsaSolution> o = new UsmpGreedyPlanner(order).solve(instance, SolveContext.unlimited());
    DsaPlannerContract.assertSolved(instance, o);
    return o.solution().offsets();
  }

  /**
   * P(10) lives [0,2), Q(8) [1,4), R(5) [2,4); loads 10, 18, 13, 13, so 18 is a bound. Conflicts:
   * P-Q and Q-R (P is dead when R is born): counts P 1, Q 2, R 1.
   *
   * <p>By size: P at 0; Q on top of P at 10; R's only placed conflict is Q, so R goes on top of Q
   * at 18 although [0,10) is free while R lives (P is dead): peak 23. By conflicts: Q first at 0,
   * then P (size 10 before R's 5) on top of Q at 8, R on top of Q at 8: peak 18.
   */
  private static final DsaInstance PQR =
      DsaInstance.of(
          "pqr",
          List.of(Buffer.of("P", 0, 2, 10), Buffer.of("Q", 1, 4, 8), Buffer.of("R", 2, 4, 5)));

  @Test
  void bySizeStacksOnEveryPlacedConflictAndSkipsTheGapBelow() {
    assertThat(plan(UsmpGreedyPlanner.Order.BY_SIZE, PQR)).containsExactly(0, 10, 18);
  }

  @Test
  void byConflictsPlacesTheMostConflictedBufferFirst() {
    long[] offsets = plan(UsmpGreedyPlanner.Order.BY_CONFLICTS, PQR);
    assertThat(offsets).containsExactly(8, 0, 8);
    assertThat(
            new UsmpGreedyPlanner(UsmpGreedyPlanner.Order.BY_CONFLICTS)
                .solve(PQR, SolveContext.unlimited())
                .status())
        .isEqualTo(Status.OPTIMAL);
  }

  /** Equal sizes and conflict counts: the larger name goes first (std::string a > b), so b at 0. */
  @Test
  void tiesGoToTheLargerNameFirst() {
    DsaInstance instance =
        DsaInstance.of("names", List.of(Buffer.of("a", 0, 2, 4), Buffer.of("b", 0, 2, 4)));
    assertThat(plan(UsmpGreedyPlanner.Order.BY_SIZE, instance)).containsExactly(4, 0);
    assertThat(plan(UsmpGreedyPlanner.Order.BY_CONFLICTS, instance)).containsExactly(4, 0);
  }

  /**
   * The next offset is rounded with the placed conflict's alignment: big(5, aligned 8) first at 0,
   * then small(3) at round_up(5, 8) = 8, not 5.
   */
  @Test
  void roundsWithTheConflictsAlignment() {
    DsaInstance instance =
        DsaInstance.of(
            "align",
            List.of(Buffer.of("small", 0, 2, 3), Buffer.of("big", 0, 2, 5).withAlignment(8)));
    assertThat(plan(UsmpGreedyPlanner.Order.BY_SIZE, instance)).containsExactly(8, 0);
  }
}
