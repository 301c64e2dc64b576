package io.github.memplan.solvers.dsa.cpsat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.memplan.core.dataset.Datasets;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.dsa.MiniMallocCsv;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.dsa.bnb.MiniMallocChallengingIT;
import io.github.memplan.solvers.dsa.greedy.GreedyIncumbents;
import java.time.Duration;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code cpsat} (defaults) minimising the peak of MiniMalloc's eleven "challenging" instances (read
 * from the shipped dataset {@code minimalloc/challenging}), {@value #SECONDS} s each (or {@code
 * -Dmemplan.it.seconds}).
 *
 * <p>Asserted, whatever the machine's speed: the placement is valid and no worse than the greedy
 * hint; the proven bound is at least the max load and at most the optimum MiniMalloc proved (the
 * best known peak on D and J); a claimed optimum equals MiniMalloc's. Status, bound, time, branches
 * and conflicts are printed (to the failsafe report), not asserted.
 */
class CpSatMiniMallocIT {
  static final long SECONDS = 3;

  @BeforeAll
  static void natives() {
    assumeTrue(CpSatPlanner.available(), "OR-Tools has no native library for this platform");
  }

  @TestFactory
  Stream<DynamicTest> challenging() {
    return Stream.of("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K")
        .map(name -> DynamicTest.dynamicTest(name + " minimise", () -> minimise(name)));
  }

  private void minimise(String name) throws Exception {
    DsaInstance inst = MiniMallocCsv.readInstance(Datasets.resolve("minimalloc:" + name));
    Duration limit = Duration.ofSeconds(Long.getLong("memplan.it.seconds", SECONDS));
    long t0 = System.nanoTime();
    Outcome<DsaSolution> out = new CpSatPlanner().solve(inst, SolveContext.of(0, Budget.of(limit)));
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "%s %-9s peak %-9s bound %-9s hint %-9.0f %6.2f s branches %.0f conflicts %.0f%n",
        name,
        out.status(),
        out.status().hasSolution() ? Long.toString(inst.peak(out.solution())) : "-",
        out.lowerBound().isPresent() ? out.lowerBound().getAsLong() : "-",
        out.stats().getOrDefault("hint-peak", 0.0),
        seconds,
        out.stats().getOrDefault("branches", 0.0),
        out.stats().getOrDefault("conflicts", 0.0));
    assertThat(out.status()).as(out.message()).isIn(Status.OPTIMAL, Status.FEASIBLE);
    long peak = DsaPlannerContract.assertSolved(inst, out);
    assertThat(peak).isLessThanOrEqualTo(inst.peak(GreedyIncumbents.best(inst)));
    long bound = out.lowerBound().orElseThrow();
    assertThat(bound).isGreaterThanOrEqualTo(LowerBounds.maxLoad(inst));
    if (MiniMallocChallengingIT.OPTIMUM.containsKey(name)) {
      assertThat(bound).isLessThanOrEqualTo(MiniMallocChallengingIT.OPTIMUM.get(name));
      if (out.status() == Status.OPTIMAL) {
        assertThat(peak).isEqualTo(MiniMallocChallengingIT.OPTIMUM.get(name));
      }
    } else {
      assertThat(bound).isLessThanOrEqualTo(MiniMallocChallengingIT.KNOWN_PEAK.get(name));
    }
  }
}
