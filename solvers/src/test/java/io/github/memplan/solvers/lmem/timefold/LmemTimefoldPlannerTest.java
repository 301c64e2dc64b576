package io.github.memplan.solvers.lmem.timefold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.timefold.solver.core.config.solver.EnvironmentMode;
import io.github.memplan.core.lmem.InPlace;
import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemBuffer.Kind;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemPlannerContract;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.Timestep;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.lmem.BankRule;
import io.github.memplan.solvers.lmem.LmemRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LmemTimefoldPlannerTest {

  private static LmemBuffer act(String id, int start, int end, long bytes) {
    return new LmemBuffer(id, Kind.ACTIVATION, start, end, bytes, false);
  }

  private static Timestep.TiuOp op(String name, List<Integer> in, List<Integer> out) {
    return new Timestep.TiuOp(name, in, out, List.of());
  }

  /**
   * Four banks of 64 bytes, EU 16. Row 0 loads p and q (96 bytes each, larger than a bank, live in
   * both rows); row 1 runs an op reading r into s (32 bytes each, live in row 1 only), so r and s
   * are the only conflicting pair and the live bytes are exactly the capacity, 256.
   *
   * <p>First fit in the start order (longer life first: p, q, r, s) puts p at 0, q at 96, r at 192
   * (bank 3); the only room left for s is 224, bank 3 again: the greedy accepts a conflict. The
   * order r, p, s, q decodes to r at 0 (bank 0), p at 32, s at 128 (bank 2, clear of r's bank), q
   * at 160: no conflict, no straddle, peak 256 = max live, so that placement is optimal and the
   * search can say so.
   */
  static LmemInstance stuckGreedy() {
    return new LmemInstance(
        "stuck-greedy",
        256,
        4,
        64,
        16,
        List.of(act("p", 0, 1, 96), act("q", 0, 1, 96), act("r", 1, 1, 32), act("s", 1, 1, 32)),
        List.of(
            new Timestep(List.of(), List.of(0, 1)),
            new Timestep(List.of(op("op", List.of(2), List.of(3))), List.of())),
        List.of());
  }

  private static LmemTimefoldPlanner planner(LmemRules rules, int steps) {
    return new LmemTimefoldPlanner(
        LmemTimefoldPlanner.Options.defaults().withRules(rules).withSteps(steps, 0));
  }

  @Test
  void theStartOrderAcceptsAConflictTheSearchRemoves() {
    LmemInstance inst = stuckGreedy();
    LmemDecoder decoder = new LmemDecoder(inst, LmemRules.defaults());
    long[] start = decoder.decode(LmemTimefoldPlanner.startOrder(inst));
    assertThat(start).containsExactly(0, 96, 192, 224);
    assertThat(LmemBanks.report(inst, new LmemSolution(start)).conflictCount()).isEqualTo(1);
    assertThat(decoder.decode(new int[] {2, 0, 3, 1})).containsExactly(32, 160, 0, 128);

    Outcome<LmemSolution> out =
        planner(LmemRules.defaults(), 1_000).solve(inst, SolveContext.of(1, Budget.unlimited()));
    LmemPlannerContract.assertSolved(inst, out);
    LmemBanks.Report banks = LmemBanks.report(inst, out.solution());
    assertThat(banks.conflictCount()).isZero();
    assertThat(banks.straddleCount()).isZero();
    assertThat(out.solution().peak(inst)).isEqualTo(256);
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(out.stats().get("start-conflicts")).isEqualTo(1.0);
  }

  /** Under conflict=hard the start order overflows (s goes to bank 4), the search fits it. */
  @Test
  void hardConflictRuleIsNeverBrokenAndTheSearchFitsIt() {
    LmemInstance inst = stuckGreedy();
    LmemRules hard = new LmemRules(BankRule.SOFT, BankRule.HARD);
    LmemDecoder decoder = new LmemDecoder(inst, hard);
    assertThat(decoder.decode(LmemTimefoldPlanner.startOrder(inst)))
        .containsExactly(0, 96, 192, 256);
    Outcome<LmemSolution> out =
        planner(hard, 1_000).solve(inst, SolveContext.of(1, Budget.unlimited()));
    LmemPlannerContract.assertSolved(inst, out);
    assertThat(LmemBanks.report(inst, out.solution()).conflictCount()).isZero();
  }

  /**
   * Three buffers of one op in two banks: by pigeonhole two share a bank. Soft: a placement with
   * exactly one conflict; hard: no solution, and no false claim of infeasibility either.
   */
  @Test
  void unavoidableConflict() {
    LmemInstance inst =
        new LmemInstance(
            "pigeonhole",
            128,
            2,
            64,
            16,
            List.of(act("a", 0, 0, 16), act("b", 0, 0, 16), act("c", 0, 0, 16)),
            List.of(new Timestep(List.of(op("add", List.of(0, 1), List.of(2))), List.of())),
            List.of());
    Outcome<LmemSolution> soft =
        planner(LmemRules.defaults(), 300).solve(inst, SolveContext.of(2, Budget.unlimited()));
    LmemPlannerContract.assertSolved(inst, soft);
    assertThat(soft.status()).isEqualTo(Status.FEASIBLE);
    assertThat(LmemBanks.report(inst, soft.solution()).conflictCount()).isEqualTo(1);
    Outcome<LmemSolution> hard =
        planner(new LmemRules(BankRule.OFF, BankRule.HARD), 300)
            .solve(inst, SolveContext.of(2, Budget.unlimited()));
    assertThat(hard.status()).isEqualTo(Status.NO_SOLUTION_IN_BUDGET);
    assertThat(hard.message()).contains("conflict=hard");
    Outcome<LmemSolution> off =
        planner(new LmemRules(BankRule.OFF, BankRule.OFF), 300)
            .solve(inst, SolveContext.of(2, Budget.unlimited()));
    assertThat(off.status()).isEqualTo(Status.OPTIMAL);
    assertThat(off.solution().peak(inst)).isEqualTo(48);
  }

  /** A 48-byte buffer after a 32-byte one: first fit straddles banks 0 and 1 unless forbidden. */
  @Test
  void straddleRules() {
    LmemInstance inst =
        new LmemInstance(
            "straddle",
            256,
            4,
            64,
            16,
            List.of(act("a", 0, 0, 32), act("b", 0, 0, 48)),
            List.of(new Timestep(List.of(), List.of(0, 1))),
            List.of());
    int[] order = {0, 1};
    assertThat(new LmemDecoder(inst, new LmemRules(BankRule.OFF, BankRule.OFF)).decode(order))
        .containsExactly(0, 32);
    assertThat(new LmemDecoder(inst, new LmemRules(BankRule.SOFT, BankRule.OFF)).decode(order))
        .containsExactly(0, 64);
    assertThat(new LmemDecoder(inst, new LmemRules(BankRule.HARD, BankRule.OFF)).decode(order))
        .containsExactly(0, 64);
    // d (80 bytes, row 0) pushes c (48, rows 0-1) to [80, 128); a (48, row 1) takes [0, 48): the
    // only room left for b (32, row 1) is [48, 80), across banks 0 and 1
    LmemInstance tight =
        new LmemInstance(
            "straddle-tight",
            128,
            2,
            64,
            16,
            List.of(act("d", 0, 0, 80), act("c", 0, 1, 48), act("a", 1, 1, 48), act("b", 1, 1, 32)),
            List.of(new Timestep(List.of(), List.of(0, 1)), new Timestep(List.of(), List.of(2, 3))),
            List.of());
    int[] all = {0, 1, 2, 3};
    assertThat(new LmemDecoder(tight, new LmemRules(BankRule.SOFT, BankRule.OFF)).decode(all))
        .containsExactly(0, 80, 0, 48);
    assertThat(new LmemDecoder(tight, new LmemRules(BankRule.HARD, BankRule.OFF)).decode(all))
        .containsExactly(0, 80, 0, 128);
  }

  /**
   * Four banks of 64 bytes. Row 0 loads a, b (16 bytes), c (32, dead after row 0), d, e (64) and f
   * (48); row 1 runs relu on x (16) while the GDMA stores a, b, d, e and f, so x conflicts with all
   * five. In order, a, b, c fill bank 0, d, e, f banks 1 to 3; for x the free ranges are [32, 64)
   * (c is dead) in bank 0, shared with a and b, and [240, 256) in bank 3, shared with f only. First
   * fit takes 32 (two conflicts); the soft conflict rule takes 240 (one); the hard one overflows.
   */
  @Test
  void softConflictFallsBackToTheFewestConflicts() {
    LmemInstance inst =
        new LmemInstance(
            "fewest",
            256,
            4,
            64,
            16,
            List.of(
                act("a", 0, 1, 16),
                act("b", 0, 1, 16),
                act("c", 0, 0, 32),
                act("d", 0, 1, 64),
                act("e", 0, 1, 64),
                act("f", 0, 1, 48),
                act("x", 1, 1, 16)),
            List.of(
                new Timestep(List.of(), List.of(0, 1, 2, 3, 4, 5)),
                new Timestep(List.of(op("relu", List.of(6), List.of(6))), List.of(0, 1, 3, 4, 5))),
            List.of());
    int[] order = {0, 1, 2, 3, 4, 5, 6};
    assertThat(new LmemDecoder(inst, new LmemRules(BankRule.OFF, BankRule.OFF)).decode(order))
        .containsExactly(0, 16, 32, 64, 128, 192, 32);
    long[] soft = new LmemDecoder(inst, new LmemRules(BankRule.OFF, BankRule.SOFT)).decode(order);
    assertThat(soft).containsExactly(0, 16, 32, 64, 128, 192, 240);
    assertThat(LmemBanks.report(inst, new LmemSolution(soft)).conflictCount()).isEqualTo(1);
    assertThat(new LmemDecoder(inst, new LmemRules(BankRule.OFF, BankRule.HARD)).decode(order))
        .containsExactly(0, 16, 32, 64, 128, 192, 256);
  }

  /** An in-place pair may share addresses; the decoder lets the output sit on its input. */
  @Test
  void inPlacePairsShare() {
    LmemInstance inst =
        new LmemInstance(
            "in-place",
            256,
            4,
            64,
            16,
            List.of(act("x", 0, 1, 64), act("y", 1, 2, 64)),
            List.of(
                new Timestep(List.of(), List.of(0)),
                new Timestep(List.of(op("relu", List.of(0), List.of(1))), List.of()),
                new Timestep(List.of(), List.of(1))),
            List.of(new InPlace(0, 1)));
    LmemDecoder off = new LmemDecoder(inst, new LmemRules(BankRule.OFF, BankRule.OFF));
    assertThat(off.decode(new int[] {0, 1})).containsExactly(0, 0);
    // the conflict rule still sees the pair: both are touched by the relu
    LmemDecoder soft = new LmemDecoder(inst, LmemRules.defaults());
    assertThat(soft.decode(new int[] {0, 1})).containsExactly(0, 64);
  }

  private static List<LmemInstance> randomInstances(long seed, int count, double fill) {
    return LmemPlannerContract.randomInstances(seed, count, fill);
  }

  /** Random orders of random instances decode to valid placements that never break a hard rule. */
  @Test
  void decodesOfRandomOrdersAreValidAndObeyHardRules() {
    SplittableRandom rnd = new SplittableRandom(5);
    LmemRules hard = new LmemRules(BankRule.HARD, BankRule.HARD);
    for (LmemInstance inst : randomInstances(9, 40, 0.3)) {
      LmemInstance roomy =
          new LmemInstance(
              inst.name(),
              inst.bankBytes() * 1024,
              1024,
              inst.bankBytes(),
              inst.euBytes(),
              inst.buffers(),
              inst.timesteps(),
              inst.inPlace());
      for (int k = 0; k < 5; k++) {
        int[] order = shuffled(rnd, inst.buffers().size());
        for (LmemRules rules : List.of(LmemRules.defaults(), hard)) {
          long[] addr = new LmemDecoder(roomy, rules).decode(order);
          LmemPlannerContract.assertValid(roomy, new LmemSolution(addr));
          if (rules == hard) {
            LmemBanks.Report r = LmemBanks.report(roomy, new LmemSolution(addr));
            assertThat(r.conflictCount()).as(inst.name()).isZero();
            assertThat(r.straddleCount()).as(inst.name()).isZero();
          }
        }
      }
    }
  }

  private static int[] shuffled(SplittableRandom rnd, int n) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }

  /**
   * FULL_ASSERT recomputes every shadow variable and the score from scratch after each move and
   * fails on any difference from the incremental decode and score.
   */
  @Test
  void incrementalDecodeAgreesWithFullAssert() {
    int searched = 0;
    for (LmemRules rules :
        List.of(LmemRules.defaults(), new LmemRules(BankRule.HARD, BankRule.HARD))) {
      LmemTimefoldPlanner p = planner(rules, 20);
      for (LmemInstance inst : randomInstances(13, 4, 0.8)) {
        Outcome<LmemSolution> out =
            p.solve(inst, SolveContext.of(5, Budget.unlimited()), EnvironmentMode.FULL_ASSERT);
        LmemPlannerContract.assertSolvedOrFailedProperly(inst, out);
        if (out.stats().getOrDefault("steps", 0.0) > 0) {
          searched++;
        }
      }
    }
    assertThat(searched).as("runs that searched").isGreaterThan(3);
  }

  @Test
  void sameSeedSameAddresses() {
    LmemTimefoldPlanner p = planner(LmemRules.defaults(), 200);
    List<LmemInstance> instances = randomInstances(17, 4, 0.85);
    List<Outcome<LmemSolution>> first = new ArrayList<>();
    for (LmemInstance inst : instances) {
      first.add(p.solve(inst, SolveContext.of(7, Budget.unlimited())));
    }
    for (int k = instances.size() - 1; k >= 0; k--) {
      Outcome<LmemSolution> again =
          p.solve(instances.get(k), SolveContext.of(7, Budget.unlimited()));
      assertThat(again.solution()).isEqualTo(first.get(k).solution());
      assertThat(again.stats().get("steps")).isEqualTo(first.get(k).stats().get("steps"));
    }
  }

  @Test
  void budgetStepCapCountsMoves() {
    LmemInstance inst = randomInstances(17, 4, 0.85).get(3);
    Outcome<LmemSolution> out =
        planner(LmemRules.defaults(), 0).solve(inst, SolveContext.of(3, Budget.of(null, 50)));
    LmemPlannerContract.assertSolvedOrFailedProperly(inst, out);
    assertThat(out.stats().getOrDefault("move-evaluations", 0.0)).isLessThanOrEqualTo(50.0);
  }

  @Test
  void providerParameters() {
    PlannerProvider<LmemInstance, LmemSolution> provider =
        Planners.get("lmem-timefold", LmemInstance.class);
    LmemTimefoldPlanner p =
        (LmemTimefoldPlanner)
            provider.create(Map.of("straddle", "hard", "conflict", "off", "steps", "10"));
    assertThat(p.options().rules()).isEqualTo(new LmemRules(BankRule.HARD, BankRule.OFF));
    assertThat(p.options().steps()).isEqualTo(10);
    assertThat(p.options().unimprovedSteps())
        .isEqualTo(LmemTimefoldPlanner.DEFAULT_UNIMPROVED_STEPS);
    assertThatThrownBy(() -> provider.create(Map.of("conflict", "maybe")))
        .hasMessageContaining("lmem-timefold")
        .hasMessageContaining("conflict");
    assertThatThrownBy(() -> provider.create(Map.of("steps", "-1")))
        .hasMessageContaining("lmem-timefold");
    assertThatThrownBy(() -> provider.create(Map.of("moves", "5")))
        .hasMessageContaining("lmem-timefold")
        .hasMessageContaining("moves");
  }
}
