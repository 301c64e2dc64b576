package io.github.memplan.solvers.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.LmemValidator;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.solvers.lmem.cpsat.LmemCpSatPlanner;
import io.github.memplan.solvers.lmem.cpsat.LmemCpSatPlannerTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The oracle's question after a search: can a chosen group's bank conflicts be placed away? */
class LmemOracleTest {
  private static final LmemOracle CHAIN = LmemOracle.of("test", "test-lmem-stack+lmem-exact");

  @BeforeAll
  static void natives() {
    assumeTrue(LmemCpSatPlanner.available(), "OR-Tools has no native library for this platform");
  }

  /**
   * {@link LmemCpSatPlannerTest#greedyTrap}: z at 0, x at 32 and y at 48 put x (the TIU's) and y
   * (the GDMA's) in bank 1, one conflict; x at 0, z at 16, y at 48 has none, so the conflict is
   * placed away, and the new placement passes the validator.
   */
  @Test
  void anAvoidableConflictIsPlacedAway() {
    LmemInstance inst = LmemCpSatPlannerTest.greedyTrap();
    LmemSolution greedy = new LmemSolution(new long[] {32, 48, 0});
    assertThat(LmemBanks.report(inst, greedy).conflictCount()).isEqualTo(1);
    LmemOracle.ConflictCheck c = CHAIN.withoutConflicts(inst, greedy, SolveContext.unlimited());
    assertThat(c.verdict()).isEqualTo(LmemOracle.ConflictVerdict.REMOVED);
    assertThat(new LmemValidator().validate(inst, c.placement())).isEmpty();
    assertThat(LmemBanks.report(inst, c.placement()).conflictCount()).isZero();
  }

  /**
   * {@link LmemCpSatPlannerTest#threeInTwoBanks}: three pairwise conflicting buffers in two banks,
   * so every placement has a conflict: proven, and the placement is kept; one without conflicts is
   * left alone; and a chain that cannot forbid conflicts leaves them undecided.
   */
  @Test
  void anUnavoidableConflictIsProvenAndAPlacementWithoutIsKept() {
    LmemInstance inst = LmemCpSatPlannerTest.threeInTwoBanks();
    LmemSolution stacked = new LmemSolution(new long[] {0, 16, 32});
    assertThat(LmemBanks.report(inst, stacked).conflictCount()).isPositive();
    LmemOracle.ConflictCheck c = CHAIN.withoutConflicts(inst, stacked, SolveContext.unlimited());
    assertThat(c.verdict()).isEqualTo(LmemOracle.ConflictVerdict.UNAVOIDABLE);
    assertThat(c.placement()).isSameAs(stacked);

    LmemInstance trap = LmemCpSatPlannerTest.greedyTrap();
    LmemSolution clean = new LmemSolution(new long[] {0, 48, 16});
    assertThat(CHAIN.withoutConflicts(trap, clean, SolveContext.unlimited()).verdict())
        .isEqualTo(LmemOracle.ConflictVerdict.NONE);

    assertThat(
            LmemOracle.of("test", "test-lmem-stack")
                .withoutConflicts(inst, stacked, SolveContext.unlimited())
                .verdict())
        .isEqualTo(LmemOracle.ConflictVerdict.UNDECIDED);
  }
}
