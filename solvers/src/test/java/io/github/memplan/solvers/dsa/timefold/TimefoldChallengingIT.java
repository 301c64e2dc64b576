package io.github.memplan.solvers.dsa.timefold;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dataset.Datasets;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.MiniMallocCsv;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code timefold} on three of MiniMalloc's "challenging" instances (the shipped dataset {@code
 * minimalloc/challenging}) with a cap of {@value #MOVES} evaluated moves, so that the runs are the
 * same on every machine: each result is valid and strictly below the greedy start (the search does
 * work on real instances). Peaks are printed to the failsafe report.
 */
class TimefoldChallengingIT {
  static final long MOVES = 3_000;

  @TestFactory
  Stream<DynamicTest> challenging() {
    return Stream.of("A", "F", "K")
        .map(name -> DynamicTest.dynamicTest(name, () -> improves(name)));
  }

  private void improves(String name) throws Exception {
    DsaInstance inst = MiniMallocCsv.readInstance(Datasets.resolve("minimalloc:" + name));
    Outcome<DsaSolution> out =
        new TimefoldPlanner().solve(inst, SolveContext.of(0, Budget.of(null, MOVES)));
    long peak = DsaPlannerContract.assertSolved(inst, out);
    double start = out.stats().get("start-peak");
    System.out.printf(
        "timefold %s: %d moves, start %.0f, peak %d, peak/2^20 %.4f%n",
        name, MOVES, start, peak, peak / (double) (1 << 20));
    assertThat((double) peak).isLessThan(start);
    assertThat(out.stats().get("move-evaluations")).isEqualTo((double) MOVES);
  }
}
