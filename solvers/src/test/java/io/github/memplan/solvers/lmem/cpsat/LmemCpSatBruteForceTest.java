package io.github.memplan.solvers.lmem.cpsat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.memplan.core.lmem.InPlace;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemBuffer.Kind;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.LmemValidator;
import io.github.memplan.core.lmem.Timestep;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.lmem.BankRule;
import io.github.memplan.solvers.lmem.LmemRules;
import io.github.memplan.solvers.lmem.LmemScore;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code lmem-exact} against brute force on tiny seeded instances (2-5 buffers, 4-8 EU units of
 * capacity, 2-4 banks, wrapping and held lifetimes, in-place pairs, sizes not always multiples of
 * EU, banks not always multiples of EU): every EU-aligned address of every buffer is enumerated,
 * kept if {@link LmemValidator} accepts it and the hard bank rules hold, and scored by {@link
 * LmemScore} under the rules. lmem-exact must answer {@code OPTIMAL} with the same lexicographic
 * score, or {@code INFEASIBLE} exactly when nothing is kept.
 */
class LmemCpSatBruteForceTest {
  static final int INSTANCES = 150;
  static final LmemValidator VALIDATOR = new LmemValidator();

  @BeforeAll
  static void natives() {
    assumeTrue(LmemCpSatPlanner.available(), "OR-Tools has no native library for this platform");
  }

  static final List<LmemRules> SETTINGS =
      List.of(
          new LmemRules(BankRule.SOFT, BankRule.SOFT),
          new LmemRules(BankRule.HARD, BankRule.HARD),
          new LmemRules(BankRule.SOFT, BankRule.HARD),
          new LmemRules(BankRule.OFF, BankRule.OFF));

  /** A tiny random instance. */
  static LmemInstance tiny(String name, SplittableRandom rnd) {
    int eu = rnd.nextBoolean() ? 8 : 16;
    int banks = 2 + rnd.nextInt(3); // 2-4
    long bankBytes;
    if (rnd.nextInt(6) == 0) {
      bankBytes = eu + eu / 2; // banks of 1.5 EU: boundaries fall inside EU units
    } else {
      int minUnits = (4 + banks - 1) / banks;
      int maxUnits = 8 / banks; // capacity 4-8 EU units
      bankBytes = (long) eu * (minUnits + rnd.nextInt(maxUnits - minUnits + 1));
    }
    long cap = banks * bankBytes;
    int t = 2 + rnd.nextInt(3);
    int n = 2 + rnd.nextInt(4);
    List<LmemBuffer> buffers = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int start = rnd.nextInt(t);
      int end = rnd.nextInt(t); // end < start: wraps
      boolean held = rnd.nextInt(6) == 0;
      long bytes = 1 + rnd.nextLong(Math.max(2, cap * 2 / (n + 1)));
      buffers.add(
          new LmemBuffer("b" + i, held ? Kind.WEIGHT : Kind.ACTIVATION, start, end, bytes, held));
    }
    List<Timestep> rows = new ArrayList<>();
    for (int r = 0; r < t; r++) {
      List<Integer> live = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (buffers.get(i).liveAt(r)) {
          live.add(i);
        }
      }
      List<Integer> operands = new ArrayList<>();
      List<Integer> results = new ArrayList<>();
      List<Integer> scratch = new ArrayList<>();
      List<Integer> gdma = new ArrayList<>();
      for (int i : live) {
        switch (rnd.nextInt(5)) {
          case 0 -> operands.add(i);
          case 1 -> results.add(i);
          case 2 -> scratch.add(i);
          case 3 -> gdma.add(i);
          default -> {}
        }
      }
      List<Timestep.TiuOp> tiu = new ArrayList<>();
      if (!operands.isEmpty() || !results.isEmpty() || !scratch.isEmpty()) {
        tiu.add(new Timestep.TiuOp("op" + r, operands, results, scratch));
      }
      rows.add(new Timestep(tiu, gdma));
    }
    List<InPlace> inPlace = new ArrayList<>();
    if (rnd.nextInt(3) == 0) {
      int a = rnd.nextInt(n);
      int b = (a + 1 + rnd.nextInt(n - 1)) % n;
      if (InPlace.lifetimesAllow(buffers.get(a), buffers.get(b))) {
        inPlace.add(new InPlace(a, b));
      }
    }
    return new LmemInstance(name, cap, banks, bankBytes, eu, buffers, rows, inPlace);
  }

  /** The brute-force lexicographic minimum under {@code rules}, or null if nothing is valid. */
  static LmemScore bruteForce(LmemInstance inst, LmemRules rules) {
    int n = inst.buffers().size();
    long eu = inst.euBytes();
    long[] addr = new long[n];
    LmemScore[] best = {null};
    enumerate(inst, rules, addr, 0, eu, best);
    return best[0];
  }

  private static void enumerate(
      LmemInstance inst, LmemRules rules, long[] addr, int i, long eu, LmemScore[] best) {
    if (i == addr.length) {
      LmemSolution s = new LmemSolution(addr);
      if (!VALIDATOR.validate(inst, s).isEmpty()) {
        return;
      }
      LmemScore score = LmemScore.of(inst, s);
      if (!score.meets(rules)) {
        return;
      }
      score = score.under(rules);
      if (best[0] == null || score.compareTo(best[0]) < 0) {
        best[0] = score;
      }
      return;
    }
    long s = inst.buffers().get(i).bytes();
    for (long a = 0; a + s <= inst.capacity(); a += eu) {
      addr[i] = a;
      enumerate(inst, rules, addr, i + 1, eu, best);
    }
  }

  @TestFactory
  Stream<DynamicTest> agreesWithBruteForce() {
    SplittableRandom rnd = new SplittableRandom(20261125);
    List<LmemInstance> instances = new ArrayList<>();
    for (int k = 0; k < INSTANCES; k++) {
      instances.add(tiny("tiny-" + k, rnd));
    }
    return SETTINGS.stream()
        .map(
            rules ->
                DynamicTest.dynamicTest(
                    "straddle=" + rules.straddle().id() + " conflict=" + rules.conflict().id(),
                    () -> {
                      int infeasible = 0;
                      for (LmemInstance inst : instances) {
                        infeasible += check(inst, rules) ? 0 : 1;
                      }
                      // the sample must exercise both answers under the hard rules
                      if (rules.anyHard()) {
                        assertThat(infeasible).isBetween(1, INSTANCES - 1);
                      }
                    }));
  }

  /** Checks one instance; returns whether a placement exists. */
  private static boolean check(LmemInstance inst, LmemRules rules) {
    LmemScore expected = bruteForce(inst, rules);
    Outcome<LmemSolution> out =
        new LmemCpSatPlanner(LmemCpSatPlanner.Options.defaults().withRules(rules))
            .solve(inst, SolveContext.unlimited());
    if (expected == null) {
      assertThat(out.status())
          .as("%s %s: %s", inst.name(), rules, out.message())
          .isEqualTo(Status.INFEASIBLE);
      return false;
    }
    assertThat(out.status())
        .as("%s %s: %s", inst.name(), rules, out.message())
        .isEqualTo(Status.OPTIMAL);
    assertThat(VALIDATOR.validate(inst, out.solution())).isEmpty();
    LmemScore got = LmemScore.of(inst, out.solution());
    assertThat(got.meets(rules)).as("%s %s hard rules", inst.name(), rules).isTrue();
    assertThat(got.under(rules)).as("%s %s score", inst.name(), rules).isEqualTo(expected);
    // the feasibility oracle agrees too
    Outcome<LmemSolution> any =
        new LmemCpSatPlanner(
                LmemCpSatPlanner.Options.defaults()
                    .withRules(rules)
                    .withGoal(LmemCpSatPlanner.Goal.SATISFY))
            .solve(inst, SolveContext.unlimited());
    assertThat(any.status().hasSolution()).as("%s %s satisfy", inst.name(), rules).isTrue();
    assertThat(VALIDATOR.validate(inst, any.solution())).isEmpty();
    assertThat(LmemScore.of(inst, any.solution()).meets(rules)).isTrue();
    return true;
  }

  @Test
  void bruteForceSeesStraddlesAndConflicts() {
    // the brute force itself: 2 banks of 16 bytes, EU 8; x (TIU) and y (GDMA) in row 0
    LmemInstance inst =
        new LmemInstance(
            "bf",
            32,
            2,
            16,
            8,
            List.of(
                new LmemBuffer("x", Kind.ACTIVATION, 0, 0, 16, false),
                new LmemBuffer("y", Kind.ACTIVATION, 0, 0, 8, false)),
            List.of(
                new Timestep(
                    List.of(new Timestep.TiuOp("op", List.of(0), List.of(), List.of())),
                    List.of(1))),
            List.of());
    // x at 0 and y at 16: no straddle, no conflict, peak 24
    assertThat(bruteForce(inst, LmemRules.defaults())).isEqualTo(new LmemScore(0, 0, 24));
    // off/off: x at 0, y at 16 still (they overlap in time), peak 24
    assertThat(bruteForce(inst, new LmemRules(BankRule.OFF, BankRule.OFF)))
        .isEqualTo(new LmemScore(0, 0, 24));
  }
}
