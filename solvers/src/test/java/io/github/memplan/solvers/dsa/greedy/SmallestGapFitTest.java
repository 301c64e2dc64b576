package io.github.memplan.solvers.dsa.greedy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaFixtures;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.dsa.SearchModel;
import io.github.memplan.solvers.dsa.bnb.ExactPlanner;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The incumbents of {@link ExactPlanner}: {@link SmallestGapFit}'s two placements. */
class SmallestGapFitTest {

  @Test
  void bothGreediesAreValidOnTheContractsRandomInstances() {
    for (DsaInstance inst : DsaFixtures.randomInstances(DsaFixtures.RANDOM_SEED + 7, 200)) {
      SearchModel md = new SearchModel(inst);
      long[] searched = SmallestGapFit.bestFit(md);
      long[] offs = md.trivialOffset.clone();
      for (int k = 0; k < md.n; k++) {
        offs[md.index[k]] = searched[k];
      }
      DsaPlannerContract.assertSolutionValid(inst, new DsaSolution(offs));
      DsaPlannerContract.assertSolutionValid(inst, new DsaSolution(SmallestGapFit.online(inst)));
    }
  }

  /**
   * By decreasing size: w (5) at 0; x (3) lives with w, so at 5; y (2) lives only with x (w dies
   * when y starts), so it may go below x (offsets 0 to 3) or above it (8 on): best fit takes the
   * bounded gap, 0.
   */
  @Test
  void bestFitTakesTheSmallestGapThatHolds() {
    DsaInstance inst =
        DsaInstance.of(
            "best-fit",
            List.of(Buffer.of("w", 0, 2, 5), Buffer.of("x", 0, 4, 3), Buffer.of("y", 2, 4, 2)));
    long[] off = SmallestGapFit.bestFit(new SearchModel(inst));
    assertThat(off).containsExactly(0, 5, 0);
  }

  /**
   * a at 0 and b at 2 start together; a's block [0,2) is free when c starts, so c goes there; b's
   * block [2,3) is the top when b dies, so the top drops to 2 and d starts there.
   */
  @Test
  void onlineFitReusesFreedBlocksAndLowersTheTop() {
    DsaInstance inst =
        DsaInstance.of(
            "online",
            List.of(
                Buffer.of("a", 0, 2, 2),
                Buffer.of("b", 0, 3, 1),
                Buffer.of("c", 2, 4, 2),
                Buffer.of("d", 3, 4, 3)));
    assertThat(SmallestGapFit.online(inst)).containsExactly(0, 2, 0, 2);
  }

  /** 6000 buffers alive together make 18M pairs: too dense to model, still planned. */
  @Test
  void tooDenseInstancesFallBackToOnlineFit() {
    List<Buffer> bs = new ArrayList<>();
    for (int i = 0; i < 6000; i++) {
      bs.add(Buffer.of("b" + i, 0, 1 + i % 7, 1 + i % 5));
    }
    DsaInstance inst = DsaInstance.of("dense", bs);
    Outcome<DsaSolution> out = new ExactPlanner().solve(inst, SolveContext.unlimited());
    long peak = DsaPlannerContract.assertSolved(inst, out);
    assertThat(out.stats()).containsKey("co-active-pairs");
    // all alive at time 0: stacking is optimal, and online fit stacks
    assertThat(peak).isEqualTo(LowerBounds.maxLoad(inst));
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
  }
}
