package io.github.memplan.solvers.dsa.timefold;

import ai.timefold.solver.test.api.score.stream.ConstraintVerifier;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each constraint of {@link DsaConstraints}, alone, with Timefold's {@link ConstraintVerifier}. */
class DsaConstraintsTest {
  private static final ConstraintVerifier<DsaConstraints, DsaPlan> VERIFIER =
      ConstraintVerifier.build(new DsaConstraints(), DsaPlan.class, Placement.class, Block.class);

  @Test
  void overCapacityPenalisesTheExcessOnly() {
    VERIFIER
        .verifyThat(DsaConstraints::overCapacity)
        .given(Placement.withPeak(1_300, 2), new Limits(1_024, false))
        .penalizesBy(276L);
    VERIFIER
        .verifyThat(DsaConstraints::overCapacity)
        .given(Placement.withPeak(1_024, 2), new Limits(1_024, false))
        .penalizesBy(0L);
    VERIFIER
        .verifyThat(DsaConstraints::overCapacity)
        .given(Placement.withPeak(1L << 40, 1), new Limits(DsaInstance.UNBOUNDED, false))
        .penalizesBy(0L);
  }

  @Test
  void peakPenalisesThePeak() {
    VERIFIER
        .verifyThat(DsaConstraints::peak)
        .given(Placement.withPeak(1_300, 2), new Limits(1_024, false))
        .penalizesBy(1_300L);
    VERIFIER
        .verifyThat(DsaConstraints::peak)
        .given(Placement.withPeak(0, 0), new Limits(1_024, false))
        .penalizesBy(0L);
  }

  @Test
  void atPeakCountsOnlyWhenSwitchedOn() {
    VERIFIER
        .verifyThat(DsaConstraints::atPeak)
        .given(Placement.withPeak(1_300, 3), new Limits(DsaInstance.UNBOUNDED, true))
        .penalizesBy(3);
    VERIFIER
        .verifyThat(DsaConstraints::atPeak)
        .given(Placement.withPeak(1_300, 3), new Limits(DsaInstance.UNBOUNDED, false))
        .penalizesBy(0);
  }

  /**
   * The constraints on a real solution whose shadow variables Timefold sets through {@link
   * DecodeListener}: a (4 bytes, steps [0,2)) then b (2 bytes, [1,3)) then c (5 bytes, [2,4))
   * decode to a=0, b=4 (above a), c=6 (a is dead by then, but c needs 5 bytes and b holds [4,6)):
   * peak 11, one over the capacity 10, one block (c) at the peak.
   */
  @Test
  void decodedSolution() {
    DsaInstance inst =
        DsaInstance.of(
                "abc",
                List.of(Buffer.of("a", 0, 2, 4), Buffer.of("b", 1, 3, 2), Buffer.of("c", 2, 4, 5)))
            .withCapacity(10);
    Decoder decoder = new Decoder(inst);
    DsaPlan plan = TimefoldPlanner.plan(inst, decoder, new int[] {0, 1, 2}, true);
    // forget the offsets the planner decoded, so that the verifier's listeners must set them again
    plan.getBlocks().forEach(b -> b.setOffset(null));
    VERIFIER
        .verifyThat(DsaConstraints::peak)
        .givenSolution(plan)
        .settingAllShadowVariables()
        .penalizesBy(11L);
    VERIFIER
        .verifyThat(DsaConstraints::overCapacity)
        .givenSolution(plan)
        .settingAllShadowVariables()
        .penalizesBy(1L);
    VERIFIER
        .verifyThat(DsaConstraints::atPeak)
        .givenSolution(plan)
        .settingAllShadowVariables()
        .penalizesBy(1);
  }
}
