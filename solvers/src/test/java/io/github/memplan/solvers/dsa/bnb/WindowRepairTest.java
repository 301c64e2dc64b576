package io.github.memplan.solvers.dsa.bnb;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.dsa.NaiveStackPlanner;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.ProgressListener;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.dsa.greedy.GreedyIncumbents;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link WindowRepair}, the anytime mode of {@code exact} for very large instances. */
public class WindowRepairTest {

  /** A schedule-like instance: chain outputs, residuals, some long skips, sizes in 1 KiB units. */
  public static DsaInstance chain(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Buffer> bufs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double k = r.nextDouble();
      int span = k < 0.7 ? 2 : k < 0.95 ? 3 + r.nextInt(6) : 10 + r.nextInt(60);
      long size = 1024L * (1 + r.nextInt(r.nextDouble() < 0.2 ? 64 : 16));
      bufs.add(Buffer.of("b" + i, i, i + span, size));
    }
    return DsaInstance.of("chain-" + n + "-s" + seed, bufs);
  }

  static Outcome<DsaSolution> repair(DsaInstance in, Budget budget) {
    return repair(in, budget, ExactPlanner.Options.defaults());
  }

  static Outcome<DsaSolution> repair(DsaInstance in, Budget budget, ExactPlanner.Options options) {
    return WindowRepair.solve(in, SolveContext.of(1, budget), options);
  }

  @Test
  void validNeverWorseThanTheGreedyAndBoundIsMaxLoad() {
    for (long seed = 1; seed <= 4; seed++) {
      DsaInstance in = chain(3_000, seed);
      long greedy = in.peak(GreedyIncumbents.best(in));
      Outcome<DsaSolution> out = repair(in, Budget.of(Duration.ofSeconds(30)));
      long peak = DsaPlannerContract.assertSolved(in, out);
      long lb = LowerBounds.maxLoad(in);
      assertThat(peak).isBetween(lb, greedy);
      assertThat(out.lowerBound()).hasValue(lb);
      assertThat(out.status() == Status.OPTIMAL).isEqualTo(peak == lb);
    }
  }

  /** On this instance the greedy misses the bound and the windows close the gap. */
  @Test
  void repairsTheGreedyDownToTheBound() {
    DsaInstance in = chain(3_000, 2);
    long greedy = in.peak(GreedyIncumbents.best(in));
    long lb = LowerBounds.maxLoad(in);
    assertThat(greedy).isGreaterThan(lb);
    Outcome<DsaSolution> out = repair(in, Budget.of(Duration.ofSeconds(60)));
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(in.peak(out.solution())).isEqualTo(lb);
    assertThat(out.stats().get("windows-repaired")).isPositive();
  }

  @Test
  void noTimeLeavesTheGreedy() {
    DsaInstance in = chain(3_000, 2);
    Outcome<DsaSolution> out = repair(in, Budget.of(Duration.ZERO));
    assertThat(in.peak(DsaSolution.class.cast(out.solution())))
        .isEqualTo(in.peak(GreedyIncumbents.best(in)));
    assertThat(out.status()).isEqualTo(Status.FEASIBLE);
  }

  @Test
  void fixedOffsetsStayAndCapacityIsKept() {
    DsaInstance base = chain(2_000, 3);
    List<Buffer> bufs = new ArrayList<>(base.buffers());
    long top = 4 * LowerBounds.maxLoad(base);
    for (int i = 0; i < bufs.size(); i += 97) {
      bufs.set(i, bufs.get(i).withFixedOffset(top + 1024L * 64 * (i % 2)));
    }
    DsaInstance in = DsaInstance.of("fixed", bufs);
    Outcome<DsaSolution> out = repair(in, Budget.of(Duration.ofSeconds(30)));
    DsaPlannerContract.assertSolved(in, out);
    for (int i = 0; i < bufs.size(); i += 97) {
      assertThat(out.solution().offset(i)).isEqualTo(bufs.get(i).fixedOffset().getAsLong());
    }
    long tight = LowerBounds.maxLoad(in) - 1024;
    assertThat(repair(in.withCapacity(tight), Budget.of(Duration.ofSeconds(5))).status())
        .isEqualTo(Status.INFEASIBLE);
  }

  /** Decide mode stops at the capacity: at once when the greedy fits, else once a repair does. */
  @Test
  void decideStopsAtTheCapacity() {
    DsaInstance in = chain(3_000, 2);
    long greedy = in.peak(GreedyIncumbents.best(in));
    long lb = LowerBounds.maxLoad(in);
    ExactPlanner.Options decide =
        ExactPlanner.Options.defaults().withMode(ExactPlanner.Mode.DECIDE);
    Outcome<DsaSolution> fits =
        repair(in.withCapacity(greedy), Budget.of(Duration.ofSeconds(30)), decide);
    assertThat(fits.status()).isEqualTo(Status.FEASIBLE);
    assertThat(in.peak(fits.solution())).isEqualTo(greedy);
    assertThat(fits.stats().get("windows")).isZero();
    // minimise repairs the same start down to the bound (repairsTheGreedyDownToTheBound)
    assertThat(
            repair(in.withCapacity(greedy), Budget.of(Duration.ofSeconds(60)))
                .stats()
                .get("windows"))
        .isPositive();
    long between = greedy - 1024;
    assertThat(between).isGreaterThan(lb);
    Outcome<DsaSolution> repaired =
        repair(in.withCapacity(between), Budget.of(Duration.ofSeconds(30)), decide);
    DsaPlannerContract.assertSolved(in.withCapacity(between), repaired);
    assertThat(repaired.stats().get("windows")).isPositive();
  }

  /** The run's preorders and what is left of its node limit go to every window's search. */
  @Test
  void ordersAndNodeLimitReachTheWindows() {
    ExactPlanner.Options run =
        new ExactPlanner.Options(ExactPlanner.Mode.MINIMISE, List.of("L", "ZW"), 50_000, null);
    ExactPlanner.Options window = WindowRepair.windowOptions(run, 45_000);
    assertThat(window.mode()).isEqualTo(ExactPlanner.Mode.DECIDE);
    assertThat(window.orders()).containsExactly("L", "ZW");
    assertThat(window.nodeLimit()).isEqualTo(5_000);
    assertThat(window.warmStart()).isNull();
    assertThat(WindowRepair.windowOptions(ExactPlanner.Options.defaults(), 0).nodeLimit())
        .isEqualTo(WindowRepair.NODES);
    // on a run: other orders search differently; a node limit caps the windows' nodes together
    DsaInstance in = chain(3_000, 2);
    double byDefault = repair(in, Budget.of(Duration.ofSeconds(60))).stats().get("nodes");
    Outcome<DsaSolution> byL =
        repair(
            in,
            Budget.of(Duration.ofSeconds(60)),
            new ExactPlanner.Options(ExactPlanner.Mode.MINIMISE, List.of("L"), 0, null));
    DsaPlannerContract.assertSolved(in, byL);
    assertThat(byL.stats().get("nodes")).isNotEqualTo(byDefault);
    Outcome<DsaSolution> capped =
        repair(
            in,
            Budget.of(Duration.ofSeconds(60)),
            ExactPlanner.Options.defaults().withNodeLimit(3));
    DsaPlannerContract.assertSolved(in, capped);
    assertThat(capped.stats().get("nodes")).isBetween(1.0, 3.0);
    assertThat(capped.status()).isEqualTo(Status.FEASIBLE);
  }

  /** A warm start better than the greedy is the start; a worse one is measured and left. */
  @Test
  void warmStartSeedsTheRepair() {
    DsaInstance in = chain(3_000, 2);
    DsaSolution optimal = repair(in, Budget.of(Duration.ofSeconds(60))).solution();
    Outcome<DsaSolution> better =
        repair(
            in,
            Budget.of(Duration.ofSeconds(60)),
            ExactPlanner.Options.defaults()
                .withWarmStart((i, ctx) -> Outcome.feasible(optimal, OptionalLong.empty())));
    assertThat(better.status()).isEqualTo(Status.OPTIMAL);
    assertThat(better.stats()).containsKey("incumbent-source-warm start");
    assertThat(better.stats().get("windows")).isZero();
    DsaSolution stacked = new NaiveStackPlanner().solve(in, SolveContext.unlimited()).solution();
    Outcome<DsaSolution> worse =
        repair(
            in,
            Budget.of(Duration.ofSeconds(60)),
            ExactPlanner.Options.defaults()
                .withWarmStart((i, ctx) -> Outcome.feasible(stacked, OptionalLong.empty())));
    assertThat(worse.stats())
        .containsEntry("warm-start-peak", (double) in.peak(stacked))
        .doesNotContainKey("incumbent-source-warm start");
    assertThat(worse.stats().get("windows")).isPositive();
  }

  /** The run's budget reaches the windows: a step cap counts their nodes, a cancellation stops. */
  @Test
  void theBudgetStopsTheWindows() {
    DsaInstance in = chain(3_000, 2);
    Outcome<DsaSolution> capped = repair(in, Budget.of(Duration.ofSeconds(60), 100));
    DsaPlannerContract.assertSolved(in, capped);
    // the window running when the cap is reached may take up to the cap itself
    assertThat(capped.stats().get("nodes")).isLessThan(200.0);
    // cancelled once the start is reported: no window searches, the start is returned
    Budget budget = Budget.unlimited();
    ProgressListener cancelAtStart =
        (objective, bound, note) -> {
          if (note.equals("greedy")) {
            budget.cancel();
          }
        };
    Outcome<DsaSolution> cancelled =
        WindowRepair.solve(
            in,
            SolveContext.of(1, budget).withProgress(cancelAtStart),
            ExactPlanner.Options.defaults());
    DsaPlannerContract.assertSolved(in, cancelled);
    assertThat(cancelled.status()).isEqualTo(Status.FEASIBLE);
    assertThat(in.peak(cancelled.solution())).isEqualTo(in.peak(GreedyIncumbents.best(in)));
    assertThat(cancelled.stats().get("windows")).isZero();
    assertThat(cancelled.stats().get("nodes")).isZero();
  }
}
