package io.github.memplan.solvers.group.timefold;

import static org.assertj.core.api.Assertions.assertThat;

import ai.timefold.solver.test.api.score.stream.ConstraintVerifier;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each constraint of {@link CutConstraints}, alone, with Timefold's {@link ConstraintVerifier}, on
 * two base groups: ops 0..3 and ops 5..7 (op 4 cannot be grouped), every op costing 10 alone.
 */
class CutConstraintsTest {
  private static final ConstraintVerifier<CutConstraints, CutPlan> VERIFIER =
      ConstraintVerifier.build(new CutConstraints(), CutPlan.class, Boundary.class);

  private static TableOracle oracle() {
    return new TableOracle(
            8,
            List.of(new int[] {0, 3}, new int[] {5, 7}),
            new long[] {10, 10, 10, 10, 10, 10, 10, 10})
        .with(0, 1, 15) // saves 5
        .with(2, 3, 25) // costs 5 more than alone
        .with(0, 3, 30) // saves 10
        .with(5, 7, 21); // saves 9; 5..6, 6..7 and 1..3 are invalid
  }

  /** Boundaries 0..2 (base 0) and 5..6 (base 1), joined where {@code joined} is set. */
  private static Object[] boundaries(boolean... joined) {
    int[] index = {0, 1, 2, 5, 6};
    int[] base = {0, 0, 0, 1, 1};
    Object[] out = new Object[index.length];
    for (int i = 0; i < index.length; i++) {
      out[i] = new Boundary(index[i], base[i], !joined[i]);
    }
    return out;
  }

  private static Object[] with(CutCosts costs, Object... entities) {
    Object[] out = java.util.Arrays.copyOf(entities, entities.length + 1);
    out[entities.length] = costs;
    return out;
  }

  @Test
  void everyOpGlobalIsTheConstantSumOfGlobalCosts() {
    CutCosts costs = new CutCosts(oracle());
    VERIFIER
        .verifyThat(CutConstraints::allGlobal)
        .given(with(costs, boundaries(true, true, true, true, true)))
        .penalizesBy(80L);
  }

  @Test
  void invalidCountsRunsWithNoValidGroup() {
    CutCosts costs = new CutCosts(oracle());
    // runs 1..3 (invalid) and 5..6 (invalid): two
    VERIFIER
        .verifyThat(CutConstraints::invalid)
        .given(with(costs, boundaries(false, true, true, true, false)))
        .penalizesBy(2);
    // runs 0..1 and 2..3 (both valid), 5..7 (valid)
    VERIFIER
        .verifyThat(CutConstraints::invalid)
        .given(with(costs, boundaries(true, false, true, true, true)))
        .penalizesBy(0);
    // every op global: no run at all
    VERIFIER
        .verifyThat(CutConstraints::invalid)
        .given(with(costs, boundaries(false, false, false, false, false)))
        .penalizesBy(0);
  }

  @Test
  void savingRewardsEachValidRunCheaperThanItsOpsAlone() {
    CutCosts costs = new CutCosts(oracle());
    // 0..3 saves 10, 5..7 saves 9
    VERIFIER
        .verifyThat(CutConstraints::saving)
        .given(with(costs, boundaries(true, true, true, true, true)))
        .rewardsWith(19L);
    // 0..1 saves 5; 2..3 loses 5 and 5..6 is invalid: neither counts here
    VERIFIER
        .verifyThat(CutConstraints::saving)
        .given(with(costs, boundaries(true, false, true, true, false)))
        .rewardsWith(5L);
  }

  @Test
  void lossPenalisesEachValidRunCostlierThanItsOpsAlone() {
    CutCosts costs = new CutCosts(oracle());
    // 2..3 loses 5; 0..1 saves 5; 5..6 is invalid
    VERIFIER
        .verifyThat(CutConstraints::loss)
        .given(with(costs, boundaries(true, false, true, true, false)))
        .penalizesBy(5L);
    VERIFIER
        .verifyThat(CutConstraints::loss)
        .given(with(costs, boundaries(true, true, true, true, true)))
        .penalizesBy(0L);
  }

  /** The runs never cross base groups, even when every boundary is joined. */
  @Test
  void runsStopAtBaseGroups() {
    CutPlan plan =
        new CutPlan(
            List.of(boundaries(true, true, true, true, true)).stream()
                .map(Boundary.class::cast)
                .toList(),
            new CutCosts(oracle()));
    assertThat(plan.runs()).containsExactly(new Run(0, 3), new Run(5, 7));
    VERIFIER
        .verifyThat()
        .givenSolution(plan)
        .scores(
            ai.timefold.solver.core.api.score.buildin.hardsoftlong.HardSoftLongScore.of(0, -61));
  }
}
