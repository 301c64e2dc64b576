package io.github.memplan.solvers.dsa.cpsat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.memplan.core.dataset.Datasets;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaFixtures;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.Gap;
import io.github.memplan.core.dsa.MiniMallocCsv;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.dsa.greedy.GreedyIncumbents;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CpSatPlannerTest {
  static final CpSatPlanner.Options DETERMINISTIC =
      CpSatPlanner.Options.defaults().withDeterministicTime(20);

  @BeforeAll
  static void natives() {
    assumeTrue(CpSatPlanner.available(), "OR-Tools has no native library for this platform");
  }

  static CpSatPlanner planner(CpSatPlanner.Formulation f) {
    return new CpSatPlanner(DETERMINISTIC.withFormulation(f));
  }

  static Outcome<DsaSolution> solve(Planner<DsaInstance, DsaSolution> p, DsaInstance inst) {
    return p.solve(inst, SolveContext.unlimited());
  }

  /**
   * Greedy hint 7, optimum 6. At t3, a, b and c (2 bytes each) fill 6 bytes; d (3 bytes, t1-t2)
   * meets only a. Best fit by size puts d at 0 and a at 3, so b and c (t3) find [0,3) and [5,..):
   * 7; online best fit does the same in order of start. The optimum puts a at 0, d at 2, b at 2, c
   * at 4: peak 6, the max load.
   */
  static DsaInstance greedyNotOptimal() {
    return DsaInstance.of(
        "greedy-not-optimal",
        List.of(
            Buffer.of("a", 2, 4, 2),
            Buffer.of("b", 3, 4, 2),
            Buffer.of("c", 3, 4, 2),
            Buffer.of("d", 1, 3, 3)));
  }

  @ParameterizedTest
  @EnumSource(CpSatPlanner.Formulation.class)
  void improvesOnTheGreedyHint(CpSatPlanner.Formulation f) {
    DsaInstance inst = greedyNotOptimal();
    assertThat(inst.peak(GreedyIncumbents.best(inst))).isEqualTo(7);
    Outcome<DsaSolution> out = solve(planner(f), inst);
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(DsaPlannerContract.assertSolved(inst, out)).isEqualTo(6);
    assertThat(out.stats()).containsEntry("hint-peak", 7.0).containsKey("branches");
    assertThat(out.message()).contains("CP-SAT OPTIMAL");
  }

  @Test
  void hintAtTheBoundIsReturnedWithoutSolving() {
    DsaInstance inst =
        DsaInstance.of("stack", List.of(Buffer.of("a", 0, 2, 4), Buffer.of("b", 1, 3, 4)));
    Outcome<DsaSolution> out = solve(new CpSatPlanner(DETERMINISTIC), inst);
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(DsaPlannerContract.assertSolved(inst, out)).isEqualTo(8);
    assertThat(out.stats()).doesNotContainKey("branches");
    assertThat(out.message()).contains("CP-SAT not run");
  }

  @ParameterizedTest
  @EnumSource(CpSatPlanner.Formulation.class)
  void withoutHintStillOptimal(CpSatPlanner.Formulation f) {
    DsaInstance inst = greedyNotOptimal();
    CpSatPlanner p =
        new CpSatPlanner(
            DETERMINISTIC.withFormulation(f).withWarmStart(new CpSatPlanner.WarmStart.None()));
    Outcome<DsaSolution> out = solve(p, inst);
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(DsaPlannerContract.assertSolved(inst, out)).isEqualTo(6);
    assertThat(out.stats()).doesNotContainKey("hint-peak");
  }

  /** The fragmentation fixture: max load 4, optimum 5; capacity 4 needs CP-SAT's proof. */
  @ParameterizedTest
  @EnumSource(CpSatPlanner.Formulation.class)
  void capacityBelowTheOptimumIsInfeasible(CpSatPlanner.Formulation f) {
    DsaInstance inst = DsaFixtures.fragmentation().instance().withCapacity(4);
    Outcome<DsaSolution> out = solve(planner(f), inst);
    assertThat(out.status()).as(out.message()).isEqualTo(Status.INFEASIBLE);
    assertThat(out.message()).contains("CP-SAT proved");
    assertThat(out.solution()).isNull();
  }

  /** a (5 bytes, t0-t1) and b (8 bytes aligned to 8, t1-t2): b at 0, a at 8 gives 13. */
  @ParameterizedTest
  @EnumSource(CpSatPlanner.Formulation.class)
  void alignment(CpSatPlanner.Formulation f) {
    DsaInstance inst =
        DsaInstance.of(
            "aligned", List.of(Buffer.of("a", 0, 2, 5), Buffer.of("b", 1, 3, 8).withAlignment(8)));
    Outcome<DsaSolution> out = solve(planner(f), inst);
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(DsaPlannerContract.assertSolved(inst, out)).isEqualTo(13);
    assertThat(out.solution().offsets()).containsExactly(8, 0);
  }

  /**
   * a is fixed at [4, 8) during t0-t1, b (4 bytes, t0-t1) and c (6 bytes, t1-t2) meet it: c fits
   * neither below a nor beside b under 8, so b at 0, c at 8, peak 14.
   */
  @ParameterizedTest
  @EnumSource(CpSatPlanner.Formulation.class)
  void fixedOffsets(CpSatPlanner.Formulation f) {
    DsaInstance inst =
        DsaInstance.of(
            "fixed",
            List.of(
                Buffer.of("a", 0, 2, 4).withFixedOffset(4),
                Buffer.of("b", 0, 2, 4),
                Buffer.of("c", 1, 3, 6)));
    Outcome<DsaSolution> out = solve(planner(f), inst);
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(DsaPlannerContract.assertSolved(inst, out)).isEqualTo(14);
    assertThat(out.solution().offsets()).containsExactly(4, 0, 8);
  }

  @Test
  void overlappingFixedOffsetsAreInfeasible() {
    DsaInstance inst =
        DsaInstance.of(
            "clash",
            List.of(
                Buffer.of("a", 0, 2, 4).withFixedOffset(0),
                Buffer.of("b", 1, 3, 4).withFixedOffset(2)));
    for (CpSatPlanner.Formulation f : CpSatPlanner.Formulation.values()) {
      assertThat(solve(planner(f), inst).status()).isEqualTo(Status.INFEASIBLE);
    }
  }

  /**
   * A (8 bytes, t0-t2) occupies only its upper half [4, 8) during its gap at t1, where B (4 bytes)
   * lives: B fits into A's lower half, so the optimum is the max load 8. MiniMalloc's effective
   * size (B above A by 8, or A above B by 4) would give 12.
   */
  @ParameterizedTest
  @EnumSource(CpSatPlanner.Formulation.class)
  void gapWindowsAreModelledExactly(CpSatPlanner.Formulation f) {
    DsaInstance inst =
        DsaInstance.of(
            "window",
            List.of(
                new Buffer("A", 0, 3, 8, 1, List.of(new Gap(1, 2, 4, 8)), OptionalLong.empty()),
                Buffer.of("B", 1, 2, 4)));
    Outcome<DsaSolution> out =
        solve(
            new CpSatPlanner(
                DETERMINISTIC.withFormulation(f).withWarmStart(new CpSatPlanner.WarmStart.None())),
            inst);
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(DsaPlannerContract.assertSolved(inst, out)).isEqualTo(8);
    long[] o = out.solution().offsets();
    assertThat(o[1]).isEqualTo(o[0]);
  }

  /** All values share the factor 64: the model is solved in units of 64 and scaled back. */
  @Test
  void granularity() {
    DsaInstance inst =
        DsaInstance.of(
            "coarse",
            List.of(
                Buffer.of("a", 2, 4, 128),
                Buffer.of("b", 3, 4, 128).withAlignment(64),
                Buffer.of("c", 3, 4, 128),
                Buffer.of("d", 1, 3, 192)));
    Outcome<DsaSolution> out = solve(new CpSatPlanner(DETERMINISTIC), inst);
    assertThat(out.stats()).containsEntry("granularity", 64.0);
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(DsaPlannerContract.assertSolved(inst, out)).isEqualTo(384);
  }

  @Test
  void twinsAreOrdered() {
    DsaInstance inst =
        DsaInstance.of(
            "twins",
            List.of(
                Buffer.of("x", 0, 3, 4),
                Buffer.of("y", 1, 2, 2),
                Buffer.of("t1", 0, 2, 3),
                Buffer.of("t2", 0, 2, 3),
                Buffer.of("z", 2, 3, 6)));
    for (boolean symmetry : new boolean[] {true, false}) {
      Outcome<DsaSolution> out =
          solve(new CpSatPlanner(DETERMINISTIC.withSymmetry(symmetry)), inst);
      assertThat(out.status()).isEqualTo(Status.OPTIMAL);
      DsaPlannerContract.assertSolved(inst, out);
      if (symmetry && out.stats().containsKey("twin-groups")) {
        assertThat(out.solution().offset(2)).isLessThan(out.solution().offset(3));
      }
    }
  }

  /** A warm-start planner that refuses the instance leaves CP-SAT without a hint, not failing. */
  @Test
  void refusedWarmStart() {
    Planner<DsaInstance, DsaSolution> refuser =
        (inst, ctx) -> {
          throw new IllegalArgumentException("fixed offsets are not supported");
        };
    CpSatPlanner p =
        new CpSatPlanner(
            DETERMINISTIC.withWarmStart(new CpSatPlanner.WarmStart.From("no", refuser)));
    DsaInstance inst = greedyNotOptimal();
    Outcome<DsaSolution> out = solve(p, inst);
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(DsaPlannerContract.assertSolved(inst, out)).isEqualTo(6);
    assertThat(out.stats()).doesNotContainKey("hint-peak");
    assertThat(out.message()).contains("warm start 'no' refused the instance");
  }

  @Test
  void allowedSegments() {
    // forbidden [-3, 1] and [0, 4] and [7, 7]: allowed (-inf, -4], [5, 6], [8, inf)
    long[][] seg =
        CpSatPlanner.allowedSegments(new long[] {-3, 0, 7, 9}, new long[] {1, 4, 7, 8}, 4);
    assertThat(seg).isDeepEqualTo(new long[][] {{Long.MIN_VALUE, -4}, {5, 6}, {8, Long.MAX_VALUE}});
  }

  /**
   * A run cut by deterministic time (MiniMalloc's instance A, not solved in it) gives the same
   * placement twice with the same seed.
   */
  @Test
  void deterministicTimeGivesTheSameBytes() throws Exception {
    DsaInstance inst = MiniMallocCsv.readInstance(Datasets.resolve("minimalloc:A"));
    CpSatPlanner p = new CpSatPlanner(CpSatPlanner.Options.defaults().withDeterministicTime(0.05));
    Outcome<DsaSolution> first = p.solve(inst, SolveContext.of(3, Budget.unlimited()));
    Outcome<DsaSolution> second = p.solve(inst, SolveContext.of(3, Budget.unlimited()));
    DsaPlannerContract.assertSolved(inst, first);
    assertThat(second.status()).isEqualTo(first.status());
    assertThat(second.solution()).isEqualTo(first.solution());
    assertThat(second.lowerBound()).isEqualTo(first.lowerBound());
  }

  @Test
  void provider() {
    var provider = Planners.<DsaInstance, DsaSolution>get("cpsat", DsaInstance.class);
    assertThat(provider).isInstanceOf(CpSatPlannerProvider.class);
    CpSatPlanner p = (CpSatPlanner) provider.create(Map.of());
    assertThat(p.options().formulation()).isEqualTo(CpSatPlanner.Formulation.NO_OVERLAP_2D);
    assertThat(p.options().workers()).isEqualTo(2);
    assertThat(p.options().warmStart()).isInstanceOf(CpSatPlanner.WarmStart.Greedy.class);
    CpSatPlanner q =
        (CpSatPlanner)
            provider.create(Map.of("model", "pairwise", "warm-start", "exact", "workers", "1"));
    assertThat(q.options().formulation()).isEqualTo(CpSatPlanner.Formulation.PAIRWISE);
    assertThat(q.options().warmStart()).isInstanceOf(CpSatPlanner.WarmStart.From.class);
    assertThat(solve(q, greedyNotOptimal()).status()).isEqualTo(Status.OPTIMAL);
    assertThatThrownBy(() -> provider.create(Map.of("colour", "red")))
        .hasMessageContaining("planner 'cpsat'")
        .hasMessageContaining("colour");
    assertThatThrownBy(() -> provider.create(Map.of("model", "milp")))
        .hasMessageContaining("planner 'cpsat'")
        .hasMessageContaining("milp");
    assertThatThrownBy(() -> provider.create(Map.of("warm-start", "cpsat")))
        .hasMessageContaining("planner 'cpsat'");
    assertThatThrownBy(() -> provider.create(Map.of("workers", "0")))
        .hasMessageContaining("planner 'cpsat'");
  }
}
