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
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Hand-worked runs of USMP's hill climb and its parts. */
class HillClimbPlannerTest {

  private static Outcome<DsaSolution> run(HillClimbPlanner planner, DsaInstance instance) {
    Outcome<DsaSolution> o =
        planner.solve(
            instance, SolveContext.of(42, io.github.memplan.core.solve.Budget.unlimited()));
    DsaPlannerContract.assertSolved(instance, o);
    return o;
  }

  /**
   * The first values of glibc's rand_r from state 0, printed by a C program calling glibc's own
   * rand_r on this machine.
   */
  @Test
  void randRMatchesGlibc() {
    RandR r = new RandR(0);
    int[] glibc = {1012484, 1716955679, 1792309082, 229610924, 1639479903, 1362739833};
    for (int expected : glibc) {
      assertThat(r.next()).isEqualTo(expected);
    }
    RandR s = new RandR(12345);
    assertThat(new int[] {s.next(), s.next(), s.next()})
        .containsExactly(1036784229, 1520991917, 1373464794);
  }

  /**
   * The decoder is first fit: P(10) [0,2), Q(8) [1,4), R(5) [2,4) in size order. P at 0; Q walks
   * over P to 10; R's placed conflict Q sits at [10,18) and R fits below it, so R stays at 0
   * (USMP's greedy_by_size puts it at 18). Peak 18 is the max load, the memory pressure: the search
   * stops after the first decode.
   */
  @Test
  void theDecoderFillsTheGapBelowAConflictAndStopsAtTheMemoryPressure() {
    DsaInstance instance =
        DsaInstance.of(
            "pqr",
            List.of(Buffer.of("P", 0, 2, 10), Buffer.of("Q", 1, 4, 8), Buffer.of("R", 2, 4, 5)));
    Outcome<DsaSolution> o = run(new HillClimbPlanner(), instance);
    assertThat(o.solution().offsets()).containsExactly(0, 10, 0);
    assertThat(o.status()).isEqualTo(Status.OPTIMAL);
    assertThat(o.stats()).containsEntry("decodes", 1.0);
    assertThat(o.message()).contains("memory-pressure");
  }

  /**
   * A(5) [1,3), B(9) [3,4), C(8) [0,2), D(5) [2,4); loads 8, 13, 10, 14: the pressure is 14.
   * Conflicts A-C, A-D, B-D. Order: B (9), C (8), then D before A (same size and conflict count,
   * larger name first): positions B0 C1 D2 A3.
   *
   * <p>Decode 1: B 0, C 0, D over B to 9, A over C (8) and D (to 14): peak 19, accepted. The top
   * buffer is A (draw 1: 1012484 % 1). First level: A's conflicts earlier in the order, C and D;
   * second level: D's earlier conflicts, B (C has none). Draw 2: 1716955679 % 2 = 1 picks D; draw
   * 3: 1792309082 % 100 = 82 > 25, so draw 4 picks from the second level: B. Swap: order D C B A.
   *
   * <p>Decode 2: D 0, C 0, B over D to 5, A over C to 8 (D at [0,5) is then below it): peak 14,
   * smaller, accepted, and at the pressure: stop. Offsets A 8, B 5, C 0, D 0.
   */
  @Test
  void followsTvmsRandRTrajectory() {
    DsaInstance instance =
        DsaInstance.of(
            "swap",
            List.of(
                Buffer.of("A", 1, 3, 5),
                Buffer.of("B", 3, 4, 9),
                Buffer.of("C", 0, 2, 8),
                Buffer.of("D", 2, 4, 5)));
    HillClimbPlanner randR =
        new HillClimbPlanner(
            HillClimbPlanner.MAX_ATTEMPTS, OptionalLong.empty(), HillClimbPlanner.Rng.RAND_R);
    Outcome<DsaSolution> o = run(randR, instance);
    assertThat(o.solution().offsets()).containsExactly(8, 5, 0, 0);
    assertThat(o.stats()).containsEntry("decodes", 2.0).containsEntry("initial-peak", 19.0);
    assertThat(o.status()).isEqualTo(Status.OPTIMAL);

    HillClimbPlanner once =
        new HillClimbPlanner(1, OptionalLong.empty(), HillClimbPlanner.Rng.RAND_R);
    assertThat(run(once, instance).solution().offsets()).containsExactly(14, 0, 0, 9);
  }

  /**
   * The acceptance threshold {@code 50 * (total - last) / total / attempts}, integer arithmetic: 50
   * * 10 / 110 = 4, then / 3 = 1; an equal total gives 0, so it is never accepted.
   */
  @Test
  void worseningThresholdUsesIntegerArithmetic() {
    assertThat(HillClimbPlanner.worsening(110, 100, 1)).isEqualTo(4);
    assertThat(HillClimbPlanner.worsening(110, 100, 3)).isEqualTo(1);
    assertThat(HillClimbPlanner.worsening(100, 100, 1)).isZero();
    assertThat(HillClimbPlanner.worsening(Long.MAX_VALUE, 1, 1)).isEqualTo(49);
  }

  /**
   * Under a capacity, a buffer that cannot fit is left out of the decode; if the accepted plan
   * still lacks it, the run failed to place. Two coexisting 6-byte buffers in 10 bytes cannot fit.
   */
  @Test
  void aPlanThatCannotFitTheCapacityFailsToPlace() {
    DsaInstance instance =
        DsaInstance.of("tight", List.of(Buffer.of("a", 0, 2, 6), Buffer.of("b", 0, 2, 6)))
            .withCapacity(10);
    Outcome<DsaSolution> o = new HillClimbPlanner().solve(instance, SolveContext.unlimited());
    assertThat(o.status()).isEqualTo(Status.FAILED_TO_PLACE);
    assertThat(o.message()).contains("'a'").contains("capacity 10");
  }
}
