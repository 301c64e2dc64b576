package io.github.memplan.solvers.group.timefold;

import static org.assertj.core.api.Assertions.assertThat;

import ai.timefold.solver.core.config.localsearch.LocalSearchType;
import ai.timefold.solver.core.config.solver.EnvironmentMode;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link CutSearch} on hand-made cost tables, checked against brute force over all cuts. */
class CutSearchTest {
  private static final CutSearch.Options OPTIONS =
      new CutSearch.Options(300, LocalSearchType.LATE_ACCEPTANCE);

  private static CutSearch.Result search(
      TableOracle o,
      boolean[] joined,
      SolveContext ctx,
      CutSearch.Options options,
      EnvironmentMode mode) {
    return CutSearch.run(CutPlan.of(o, joined), ctx, options, mode, "test", Long.MAX_VALUE);
  }

  private static long cost(TableOracle o, List<Run> runs) {
    CutCosts c = new CutCosts(o);
    long total = c.allGlobal();
    for (Run r : runs) {
      total -= c.saving(r);
    }
    return total;
  }

  /**
   * A chain where greedy merging is a trap: 0..1 and 2..3 each save 4, 1..2 saves 6, and 0..3 saves
   * 10. From every op global, flipping boundary 1 first (the best single flip) leads to 1..2; the
   * optimum joins all four.
   */
  @Test
  void reachesTheWholeChainPastTheBestSingleMerge() {
    TableOracle o =
        new TableOracle(4, List.of(new int[] {0, 3}), new long[] {10, 10, 10, 10})
            .with(0, 1, 16)
            .with(2, 3, 16)
            .with(1, 2, 14)
            .with(0, 2, 27)
            .with(1, 3, 27)
            .with(0, 3, 30);
    CutSearch.Result r =
        search(
            o,
            new boolean[4],
            SolveContext.of(0, Budget.unlimited()),
            OPTIONS,
            EnvironmentMode.FULL_ASSERT);
    assertThat(r.runs()).containsExactly(new Run(0, 3));
    assertThat(r.score().softScore()).isEqualTo(-30);
    assertThat(r.score().hardScore()).isZero();
  }

  /**
   * On seeded random tables of 9 ops (256 cut sets), the search ends at the brute-force optimum.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void reachesTheBruteForceOptimum(long tableSeed) {
    TableOracle o = TableOracle.random(9, 5, tableSeed);
    List<Run> optimum = new ArrayList<>();
    long best = o.bruteForce(optimum);
    CutSearch.Result r =
        search(
            o,
            new boolean[9],
            SolveContext.of(7, Budget.unlimited()),
            OPTIONS,
            EnvironmentMode.NO_ASSERT);
    assertThat(r.score().hardScore()).isZero();
    assertThat(-r.score().softScore()).isEqualTo(best);
    assertThat(cost(o, r.runs())).isEqualTo(best);
    assertThat(best).isLessThan(90); // the table leaves something to find
  }

  @Test
  void sameSeedAndStepCapGiveTheSameCuts() {
    List<List<Run>> out = new ArrayList<>();
    List<Long> evaluations = new ArrayList<>();
    for (int rep = 0; rep < 2; rep++) {
      TableOracle o = TableOracle.random(30, 8, 11);
      CutSearch.Result r =
          search(
              o,
              new boolean[30],
              SolveContext.of(3, Budget.of(null, 400)),
              new CutSearch.Options(0, LocalSearchType.LATE_ACCEPTANCE),
              EnvironmentMode.NO_ASSERT);
      out.add(r.runs());
      evaluations.add(r.stats().get("move-evaluations").longValue());
    }
    assertThat(out.get(1)).isEqualTo(out.get(0));
    assertThat(evaluations.get(0)).isEqualTo(400L);
    assertThat(evaluations.get(1)).isEqualTo(400L);
  }

  @Test
  void aCancelledBudgetReturnsTheStartUnsearched() {
    TableOracle o = TableOracle.random(9, 5, 1);
    boolean[] joined = new boolean[9];
    joined[2] = true;
    CutSearch.Result r =
        search(
            o,
            joined,
            SolveContext.of(0, Budget.cancelledNow()),
            OPTIONS,
            EnvironmentMode.NO_ASSERT);
    assertThat(r.runs()).containsExactly(new Run(2, 3));
    assertThat(o.asked).isEmpty();
  }
}
