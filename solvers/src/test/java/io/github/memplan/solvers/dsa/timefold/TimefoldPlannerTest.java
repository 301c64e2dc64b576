package io.github.memplan.solvers.dsa.timefold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.timefold.solver.core.config.solver.EnvironmentMode;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaFixtures;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.Gap;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.dsa.greedy.GreedyIncumbents;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TimefoldPlannerTest {

  /** Random instances, plain and with gaps, windows, alignments and a fixed buffer. */
  private static List<DsaInstance> instances() {
    List<DsaInstance> out = new ArrayList<>(DsaFixtures.randomInstances(7, 40));
    SplittableRandom r = new SplittableRandom(11);
    for (int i = 0; i < 40; i++) {
      out.add(DecoderTest.randomWithGaps(r, "gaps-" + i));
    }
    DsaFixtures.knownOptima().forEach(f -> out.add(f.instance()));
    return out;
  }

  /**
   * The first random instance on which 3,000 moves do not reach the lower bound: a search on it
   * runs until its budget stops it.
   */
  private static DsaInstance hard() {
    for (DsaInstance inst : DsaFixtures.randomInstances(7, 40)) {
      Outcome<DsaSolution> out =
          new TimefoldPlanner().solve(inst, SolveContext.of(1, Budget.of(null, 3_000)));
      if (out.status() == Status.FEASIBLE
          && out.stats().get("move-evaluations") >= 3_000
          && out.stats().get("improvements") >= 1) {
        return inst;
      }
    }
    throw new AssertionError("no random instance keeps the search busy");
  }

  private static boolean hasWindows(DsaInstance inst) {
    return inst.buffers().stream().flatMap(b -> b.gaps().stream()).anyMatch(Gap::hasWindow);
  }

  /**
   * Decoding the greedy placement's offset order puts every buffer at or below its greedy offset
   * (without windows: see {@link TimefoldPlanner}), hence a peak no higher than the greedy's.
   */
  @Test
  void greedyOrderDecodesNoHigherThanTheGreedy() {
    int checked = 0;
    for (DsaInstance inst : instances()) {
      DsaSolution greedy = GreedyIncumbents.best(inst);
      if (greedy == null) {
        continue;
      }
      long[] g = greedy.offsets();
      long[] d = new Decoder(inst).decode(TimefoldPlanner.startOrder(inst, g));
      DsaPlannerContract.assertSolutionValid(
          inst.withCapacity(DsaInstance.UNBOUNDED), new DsaSolution(d));
      if (!hasWindows(inst)) {
        for (int i = 0; i < inst.size(); i++) {
          assertThat(d[i]).as("%s buffer %d", inst.name(), i).isLessThanOrEqualTo(g[i]);
        }
        assertThat(inst.peak(new DsaSolution(d))).isLessThanOrEqualTo(inst.peak(greedy));
        checked++;
      }
    }
    assertThat(checked).as("instances without windows").isGreaterThan(60);
  }

  /** The outcome never exceeds the greedy start, even with a budget of a handful of moves. */
  @Test
  void neverWorseThanTheGreedy() {
    TimefoldPlanner planner = new TimefoldPlanner();
    for (DsaInstance inst : instances()) {
      Outcome<DsaSolution> out = planner.solve(inst, SolveContext.of(3, Budget.of(null, 50)));
      long peak = DsaPlannerContract.assertSolved(inst, out);
      DsaSolution greedy = GreedyIncumbents.best(inst);
      assertThat(peak).as(inst.name()).isLessThanOrEqualTo(inst.peak(greedy));
    }
  }

  /**
   * Timefold's FULL_ASSERT mode recomputes every shadow variable from scratch after each move and
   * fails on any difference from the incremental decode, and checks the score likewise.
   */
  @Test
  void incrementalDecodeAgreesWithFullAssert() {
    TimefoldPlanner planner =
        new TimefoldPlanner(TimefoldPlanner.Options.defaults().withPeakCount(true));
    int searched = 0;
    for (DsaInstance inst : instances().subList(30, 60)) {
      Outcome<DsaSolution> out =
          planner.solve(
              inst, SolveContext.of(5, Budget.of(null, 150)), EnvironmentMode.FULL_ASSERT);
      DsaPlannerContract.assertSolved(inst, out);
      if (out.stats().getOrDefault("move-evaluations", 0.0) > 0) {
        searched++;
      }
    }
    assertThat(searched).as("runs that searched").isGreaterThan(10);
  }

  @Test
  void sameSeedAndMoveCapSameSolution() {
    DsaInstance inst = hard();
    TimefoldPlanner planner = new TimefoldPlanner();
    List<Outcome<DsaSolution>> runs = new ArrayList<>();
    for (int k = 0; k < 2; k++) {
      runs.add(planner.solve(inst, SolveContext.of(17, Budget.of(null, 2_000))));
    }
    assertThat(runs.get(1).solution()).isEqualTo(runs.get(0).solution());
    assertThat(runs.get(0).stats().get("move-evaluations")).isEqualTo(2_000.0);
    assertThat(runs.get(1).stats().get("move-evaluations")).isEqualTo(2_000.0);
  }

  /** Capacity below the peak of every solution the search finds, but not below the bound. */
  @Test
  void capacityBelowTheBestPeakIsNoSolutionNotInfeasible() {
    DsaFixtures.Fixture f = DsaFixtures.fragmentation();
    DsaInstance inst = f.instance().withCapacity(f.optimum() - 1);
    Outcome<DsaSolution> out =
        new TimefoldPlanner().solve(inst, SolveContext.of(0, Budget.of(null, 200)));
    assertThat(out.status()).isIn(Status.NO_SOLUTION_IN_BUDGET, Status.INFEASIBLE);
    assertThat(out.solution()).isNull();
  }

  @Test
  void provenInfeasibleCases() {
    TimefoldPlanner planner = new TimefoldPlanner();
    DsaInstance collide =
        DsaInstance.of(
            "collide",
            List.of(
                Buffer.of("a", 0, 2, 8).withFixedOffset(0),
                Buffer.of("b", 1, 3, 8).withFixedOffset(4)));
    assertThat(planner.solve(collide, SolveContext.unlimited()).status())
        .isEqualTo(Status.INFEASIBLE);
    DsaInstance load =
        DsaInstance.of("load", List.of(Buffer.of("a", 0, 2, 8), Buffer.of("b", 1, 3, 8)))
            .withCapacity(15);
    assertThat(planner.solve(load, SolveContext.unlimited()).status()).isEqualTo(Status.INFEASIBLE);
  }

  /** Progress reports never get worse, and the outcome's peak is the last one reported. */
  @Test
  void progressIsMonotoneAndEndsAtTheResult() {
    DsaInstance inst = hard();
    List<Long> seen = new ArrayList<>();
    SolveContext ctx =
        SolveContext.of(1, Budget.of(null, 3_000))
            .withProgress((obj, bound, note) -> seen.add(obj));
    Outcome<DsaSolution> out = new TimefoldPlanner().solve(inst, ctx);
    long peak = DsaPlannerContract.assertSolved(inst, out);
    assertThat(seen)
        .isNotEmpty()
        .doesNotHaveDuplicates()
        .isSortedAccordingTo((a, b) -> Long.compare(b, a));
    assertThat(seen.get(seen.size() - 1)).isEqualTo(peak);
  }

  /** A budget cancelled from the progress listener mid-search stops the solver (the watcher). */
  @Test
  void cancellationStopsTheSearch() {
    DsaInstance inst = hard();
    // a move cap far above what the run needs bounds it should the cancellation be ignored
    Budget budget = Budget.of(null, 200_000);
    List<Long> improvements = new ArrayList<>();
    SolveContext ctx =
        SolveContext.of(1, budget)
            .withProgress(
                (obj, bound, note) -> {
                  if (note.equals("timefold")) {
                    budget.cancel();
                  }
                  improvements.add(obj);
                });
    // no deadline and no unimproved limit: only the cancellation (or the cap) ends this run
    Outcome<DsaSolution> out = new TimefoldPlanner().solve(inst, ctx);
    DsaPlannerContract.assertSolved(inst, out);
    assertThat(out.status()).isEqualTo(Status.FEASIBLE);
    assertThat(out.stats().get("move-evaluations")).isPositive().isLessThan(200_000.0);
    assertThat(improvements).hasSizeGreaterThan(1); // the greedy start, then the first improvement
  }

  @Test
  void providerIsRegisteredAndChecksItsParameters() {
    Planner<DsaInstance, DsaSolution> p =
        Planners.<DsaInstance, DsaSolution>get("timefold", DsaInstance.class)
            .create(Map.of("unimproved-time", "2s", "peak-count", "true"));
    assertThat(p).isInstanceOf(TimefoldPlanner.class);
    TimefoldPlanner.Options o = ((TimefoldPlanner) p).options();
    assertThat(o.unimproved()).isEqualTo(Duration.ofSeconds(2));
    assertThat(o.peakCount()).isTrue();
    TimefoldPlannerProvider provider = new TimefoldPlannerProvider();
    assertThatThrownBy(() -> provider.create(Map.of("bogus", "1")))
        .hasMessageContaining("timefold")
        .hasMessageContaining("bogus");
    assertThatThrownBy(() -> provider.create(Map.of("local-search", "annealing-ish")))
        .hasMessageContaining("timefold");
    assertThatThrownBy(() -> provider.create(Map.of("unimproved-time", "soon")))
        .hasMessageContaining("timefold");
    assertThatThrownBy(() -> provider.create(Map.of("unimproved-time", "0s")))
        .hasMessageContaining("timefold")
        .hasMessageContaining("positive");
    assertThat(unimproved(provider, "none")).isNull();
    assertThat(unimproved(provider, "500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(unimproved(provider, "PT1M")).isEqualTo(Duration.ofMinutes(1));
  }

  private static Duration unimproved(TimefoldPlannerProvider provider, String text) {
    return ((TimefoldPlanner) provider.create(Map.of("unimproved-time", text)))
        .options()
        .unimproved();
  }

  @Test
  void fixedBuffersArePinnedFirst() {
    DsaInstance inst =
        DsaInstance.of(
            "pinned",
            List.of(
                Buffer.of("x", 0, 4, 8),
                Buffer.of("f", 0, 4, 5).withFixedOffset(10),
                Buffer.of("y", 0, 4, 8),
                new Buffer("z", 1, 3, 4, 4, List.of(), OptionalLong.empty())));
    Outcome<DsaSolution> out =
        new TimefoldPlanner().solve(inst, SolveContext.of(0, Budget.of(null, 500)));
    DsaPlannerContract.assertSolved(inst, out);
    assertThat(out.solution().offset(1)).isEqualTo(10);
    int[] order = TimefoldPlanner.startOrder(inst, GreedyIncumbents.best(inst).offsets());
    assertThat(order[0]).isEqualTo(1);
  }
}
