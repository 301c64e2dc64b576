package io.github.memplan.solvers.lmem.timefold;

import ai.timefold.solver.core.api.score.stream.Constraint;
import ai.timefold.solver.core.api.score.stream.ConstraintFactory;
import ai.timefold.solver.test.api.score.stream.ConstraintVerifier;
import io.github.memplan.solvers.lmem.BankRule;
import io.github.memplan.solvers.lmem.LmemRules;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * Each constraint of {@link LmemConstraints}, alone, with Timefold's {@link ConstraintVerifier}.
 */
class LmemConstraintsTest {
  private static final ConstraintVerifier<LmemConstraints, LmemPlan> VERIFIER =
      ConstraintVerifier.build(new LmemConstraints(), LmemPlan.class, Sequence.class, Slot.class);

  private static final long BANK = 64;

  private static LmemLimits limits(BankRule straddle, BankRule conflict) {
    return new LmemLimits(256, straddle, conflict, 5);
  }

  @Test
  void overCapacityPenalisesTheExcessOnly() {
    LmemLimits l = limits(BankRule.SOFT, BankRule.SOFT);
    VERIFIER
        .verifyThat(LmemConstraints::overCapacity)
        .given(Sequence.withPeak(300), l)
        .penalizesBy(44L);
    VERIFIER
        .verifyThat(LmemConstraints::overCapacity)
        .given(Sequence.withPeak(256), l)
        .penalizesBy(0L);
  }

  @Test
  void peakPenalisesThePeak() {
    VERIFIER
        .verifyThat(LmemConstraints::peak)
        .given(Sequence.withPeak(208), limits(BankRule.OFF, BankRule.OFF))
        .penalizesBy(208L);
  }

  /**
   * The slots, in a sequence (list elements outside any list do not count), slot 0 at [0, 32) (bank
   * 0), slot 1 at [48, 80) (banks 0-1, a straddle), slot 2 at [128, 160) (bank 2), slot 3 at [64,
   * 192) (banks 1-2, larger than a bank: never a straddle). Of the conflicting pairs, (0, 1) and
   * (2, 3) share a bank, (0, 2) does not.
   */
  private static Object[] facts(LmemLimits l) {
    List<Slot> slots =
        List.of(
            Slot.at(0, 32, BANK, 0),
            Slot.at(1, 32, BANK, 48),
            Slot.at(2, 32, BANK, 128),
            Slot.at(3, 128, BANK, 64));
    List<Object> out = new ArrayList<>(List.of(l, new Sequence(slots)));
    out.addAll(slots);
    out.addAll(List.of(new ConflictPair(0, 1), new ConflictPair(0, 2), new ConflictPair(2, 3)));
    return out.toArray();
  }

  /** Asserts the penalty of one constraint on {@link #facts} under the given rules. */
  private static void assertPenalty(
      BiFunction<LmemConstraints, ConstraintFactory, Constraint> constraint,
      BankRule straddle,
      BankRule conflict,
      long expected) {
    VERIFIER.verifyThat(constraint).given(facts(limits(straddle, conflict))).penalizesBy(expected);
  }

  @Test
  void softConflictsWeighConflictingPairsThatShareABank() {
    assertPenalty(LmemConstraints::softConflict, BankRule.OFF, BankRule.SOFT, 2 * 5L);
    assertPenalty(LmemConstraints::softConflict, BankRule.OFF, BankRule.HARD, 0);
    assertPenalty(LmemConstraints::softConflict, BankRule.SOFT, BankRule.OFF, 0);
  }

  @Test
  void hardConflictsCountUnderTheHardRuleOnly() {
    assertPenalty(LmemConstraints::hardConflict, BankRule.OFF, BankRule.HARD, 2);
    assertPenalty(LmemConstraints::hardConflict, BankRule.HARD, BankRule.SOFT, 0);
  }

  @Test
  void straddlesCountBuffersOfAtMostOneBankCrossingABoundary() {
    assertPenalty(LmemConstraints::softStraddle, BankRule.SOFT, BankRule.OFF, 1);
    assertPenalty(LmemConstraints::softStraddle, BankRule.HARD, BankRule.OFF, 0);
    assertPenalty(LmemConstraints::hardStraddle, BankRule.HARD, BankRule.OFF, 1);
    assertPenalty(LmemConstraints::hardStraddle, BankRule.OFF, BankRule.HARD, 0);
  }

  /**
   * A real solution whose shadow variables Timefold sets through {@link LmemDecodeListener}: the
   * hand-worked instance of {@link LmemTimefoldPlannerTest#stuckGreedy} in its start order decodes
   * to p=0, q=96, r=192, s=224: one conflict (r and s in bank 3), peak 256.
   */
  @Test
  void decodedStartOrder() {
    var inst = LmemTimefoldPlannerTest.stuckGreedy();
    LmemDecoder decoder = new LmemDecoder(inst, LmemRules.defaults());
    LmemPlan plan = LmemTimefoldPlanner.plan(inst, decoder, LmemTimefoldPlanner.startOrder(inst));
    plan.getSlots().forEach(s -> s.setAddress(null));
    VERIFIER
        .verifyThat(LmemConstraints::softConflict)
        .givenSolution(plan)
        .settingAllShadowVariables()
        .penalizesBy(inst.buffers().size() + 1L);
    VERIFIER
        .verifyThat(LmemConstraints::peak)
        .givenSolution(plan)
        .settingAllShadowVariables()
        .penalizesBy(256L);
    VERIFIER
        .verifyThat(LmemConstraints::overCapacity)
        .givenSolution(plan)
        .settingAllShadowVariables()
        .penalizesBy(0L);
  }
}
