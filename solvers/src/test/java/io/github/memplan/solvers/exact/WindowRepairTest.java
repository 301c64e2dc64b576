package io.github.memplan.solvers.exact;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link WindowRepair}, the anytime mode of {@code exact} for very large instances. */
class WindowRepairTest {

  /** A schedule-like instance: chain outputs, residuals, some long skips, sizes in 1 KiB units. */
  static DsaInstance chain(int n, long seed) {
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
    return WindowRepair.solve(in, SolveContext.of(1, budget));
  }

  @Test
  void validNeverWorseThanTheGreedyAndBoundIsMaxLoad() {
    for (long seed = 1; seed <= 4; seed++) {
      DsaInstance in = chain(3_000, seed);
      long greedy = in.peak(Greedies.best(in));
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
    long greedy = in.peak(Greedies.best(in));
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
        .isEqualTo(in.peak(Greedies.best(in)));
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
}
