package io.github.memplan.solvers.dsa.greedy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaFixtures;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.solvers.dsa.bnb.ExactPlanner;
import io.github.memplan.solvers.dsa.bnb.WindowRepairTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Portfolio}: the greedy orders, and {@code exact} never worse than the best of them. */
class PortfolioTest {

  /** Every order alone, with no budget, each validated; the least peak. */
  private static long bestGreedy(DsaInstance in) {
    long best = in.peak(new DsaSolution(SmallestGapFit.online(in)));
    Portfolio.Result r = Portfolio.best(in, Budget.unlimited());
    DsaPlannerContract.assertSolutionValid(in, new DsaSolution(r.offsets()));
    return Math.min(best, r.peak());
  }

  /** Buffers alive throughout, stacked under the rest; the others as in a chain. */
  private static DsaInstance withUniversal(int n, long seed) {
    DsaInstance chain = WindowRepairTest.chain(n, seed);
    List<Buffer> bufs = new ArrayList<>(chain.buffers());
    int end = chain.horizon();
    for (int k = 0; k < 5; k++) {
      bufs.add(Buffer.of("w" + k, 0, end, 4096L * (k + 1)));
    }
    return DsaInstance.of(chain.name() + "+w", bufs);
  }

  @Test
  void everyOrderIsValidAndTheBestIsKept() {
    for (DsaInstance in : DsaFixtures.randomInstances(7, 40)) {
      if (!Portfolio.applies(in)) {
        continue;
      }
      Portfolio.Result r = Portfolio.best(in, Budget.unlimited());
      assertThat(r).isNotNull();
      DsaPlannerContract.assertSolutionValid(in, new DsaSolution(r.offsets()));
      assertThat(Portfolio.ORDERS).contains(r.order());
      assertThat(in.peak(new DsaSolution(r.offsets()))).isEqualTo(r.peak());
    }
    DsaInstance in = withUniversal(2_000, 3);
    Portfolio.Result r = Portfolio.best(in, Budget.unlimited());
    DsaPlannerContract.assertSolutionValid(in, new DsaSolution(r.offsets()));
  }

  @Test
  void anExhaustedBudgetGivesNoPlacement() {
    assertThat(Portfolio.best(withUniversal(2_000, 1), Budget.cancelledNow())).isNull();
  }

  /** The search starts from the best greedy: with a small node limit it is never worse. */
  @Test
  void exactIsNeverWorseThanTheBestGreedy() {
    List<DsaInstance> instances = new ArrayList<>(DsaFixtures.randomInstances(11, 30));
    instances.add(withUniversal(1_500, 2));
    instances.add(WindowRepairTest.chain(1_500, 5));
    ExactPlanner exact = new ExactPlanner(ExactPlanner.Options.defaults().withNodeLimit(2_000));
    for (DsaInstance in : instances) {
      if (!Portfolio.applies(in)) {
        continue;
      }
      Outcome<DsaSolution> out = exact.solve(in, SolveContext.of(1, Budget.unlimited()));
      long peak = DsaPlannerContract.assertSolved(in, out);
      assertThat(peak).as(in.name()).isLessThanOrEqualTo(bestGreedy(in));
    }
  }

  /** The anytime mode above {@link ExactPlanner#LARGE} buffers starts from the best greedy too. */
  @Test
  void largeInstancesStartFromTheBestGreedy() {
    DsaInstance in = withUniversal(ExactPlanner.LARGE + 2_000, 4);
    long greedy = bestGreedy(in);
    Outcome<DsaSolution> out =
        new ExactPlanner()
            .solve(in, SolveContext.of(1, Budget.of(java.time.Duration.ofSeconds(5))));
    assertThat(DsaPlannerContract.assertSolved(in, out)).isLessThanOrEqualTo(greedy);
  }
}
