package io.github.memplan.solvers.lmem.cpsat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemBuffer.Kind;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.LmemValidator;
import io.github.memplan.core.lmem.Timestep;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.lmem.LmemScore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hand-worked examples of {@code lmem-exact}: the conflicts a greedy accepts, and proofs. */
public class LmemCpSatPlannerTest {

  @BeforeAll
  static void natives() {
    assumeTrue(LmemCpSatPlanner.available(), "OR-Tools has no native library for this platform");
  }

  private static LmemBuffer act(String id, int start, int end, long bytes) {
    return new LmemBuffer(id, Kind.ACTIVATION, start, end, bytes, false);
  }

  private static Timestep.TiuOp op(String name, List<Integer> in, List<Integer> out) {
    return new Timestep.TiuOp(name, in, out, List.of());
  }

  /** Two banks of 32 bytes, EU 16. */
  private static LmemInstance twoBanks(String name, List<LmemBuffer> buffers, List<Timestep> rows) {
    return new LmemInstance(name, 64, 2, 32, 16, buffers, rows, List.of());
  }

  private static Planner<LmemInstance, LmemSolution> exact(String straddle, String conflict) {
    return Planners.<LmemInstance, LmemSolution>get(LmemCpSatPlannerProvider.ID, LmemInstance.class)
        .create(Map.of("straddle", straddle, "conflict", conflict));
  }

  /**
   * Two banks of 32 bytes, EU 16. Row 0: the TIU reads and writes x (16 bytes) while the GDMA
   * stores y (16 bytes), so x and y conflict if they share a bank; z (32 bytes) lives in rows 0-1
   * and is touched only by row 1's TIU op, alone, so it conflicts with nothing.
   *
   * <p>A bank-blind greedy by area (z first, at 0, filling bank 0; then x at 32 and y at 48) ends
   * with x and y in bank 1: one conflict. {@code lmem-v0}, which only avoids straddles, also ends
   * with one conflict ({@code memplan lmem}); {@code lmem-tpumlir} avoids it, since it sorts the
   * conflict-touched x and y first and excludes x's bank for y (a real group where it does not
   * avoid one is in the experiments' {@code LmemExactVsGreedyTest}). A conflict-free placement
   * exists: x at 0 (bank 0), z at 16 (straddling), y at 48 (bank 1), with the same peak 64. Under
   * soft/soft the lexicographic optimum trades a straddle for the conflict.
   */
  public static LmemInstance greedyTrap() {
    return twoBanks(
        "greedy-trap",
        List.of(act("x", 0, 0, 16), act("y", 0, 0, 16), act("z", 0, 1, 32)),
        List.of(
            new Timestep(List.of(op("relu", List.of(0), List.of(0))), List.of(1)),
            new Timestep(List.of(op("pool", List.of(2), List.of(2))), List.of())));
  }

  /**
   * Two banks of 32 bytes, EU 16. Row 0: one TIU op reads a and writes b (same op), while the GDMA
   * loads c; all three are 16 bytes and pairwise conflicting, so three pairwise bank-disjoint
   * buffers would need three banks: under conflict=hard no placement exists although 48 bytes fit
   * in 64.
   */
  public static LmemInstance threeInTwoBanks() {
    return twoBanks(
        "three-in-two-banks",
        List.of(act("a", 0, 0, 16), act("b", 0, 0, 16), act("c", 0, 0, 16)),
        List.of(new Timestep(List.of(op("add", List.of(0), List.of(1))), List.of(2))));
  }

  @Test
  void findsTheConflictFreePlacementAGreedyMisses() {
    LmemInstance inst = greedyTrap();
    // the bank-blind greedy's placement (above): z 0, x 32, y 48 has the conflict (x, y)
    LmemSolution greedy = new LmemSolution(new long[] {32, 48, 0});
    assertThat(new LmemValidator().validate(inst, greedy)).isEmpty();
    assertThat(LmemBanks.report(inst, greedy).conflictCount()).isEqualTo(1);

    Outcome<LmemSolution> hard = exact("soft", "hard").solve(inst, SolveContext.unlimited());
    assertThat(hard.status()).isEqualTo(Status.OPTIMAL);
    assertThat(LmemScore.of(inst, hard.solution())).isEqualTo(new LmemScore(0, 1, 64));

    Outcome<LmemSolution> soft = exact("soft", "soft").solve(inst, SolveContext.unlimited());
    assertThat(soft.status()).isEqualTo(Status.OPTIMAL);
    assertThat(LmemScore.of(inst, soft.solution())).isEqualTo(new LmemScore(0, 1, 64));
    assertThat(soft.stats()).containsEntry("bank-conflicts", 0.0).containsEntry("peak", 64.0);

    // both rules hard: x, y need different banks, z must not straddle, so z has a bank to itself
    // and x and y share the other
    Outcome<LmemSolution> both = exact("hard", "hard").solve(inst, SolveContext.unlimited());
    assertThat(both.status()).isEqualTo(Status.INFEASIBLE);
    assertThat(both.message()).contains("conflict=hard", "straddle=hard");
  }

  @Test
  void provesThatNoConflictFreePlacementExists() {
    LmemInstance inst = threeInTwoBanks();
    Outcome<LmemSolution> hard = exact("soft", "hard").solve(inst, SolveContext.unlimited());
    assertThat(hard.status()).isEqualTo(Status.INFEASIBLE);
    assertThat(hard.message()).contains("conflict=hard").doesNotContain("straddle=hard");
    assertThat(hard.lowerBound().getAsLong()).isGreaterThan(inst.capacity());

    // with the rule soft the best placement accepts exactly one conflict, at the lowest peak 48
    Outcome<LmemSolution> soft = exact("soft", "soft").solve(inst, SolveContext.unlimited());
    assertThat(soft.status()).isEqualTo(Status.OPTIMAL);
    assertThat(LmemScore.of(inst, soft.solution())).isEqualTo(new LmemScore(1, 0, 48));

    // with the rule off the peak alone is minimised
    Outcome<LmemSolution> off = exact("off", "off").solve(inst, SolveContext.unlimited());
    assertThat(off.status()).isEqualTo(Status.OPTIMAL);
    assertThat(off.solution().peak(inst)).isEqualTo(48);
  }

  @Test
  void fastPathNeedsNoModel() {
    // one buffer: first fit at 0 meets max-live with nothing to break
    LmemInstance inst =
        twoBanks(
            "one",
            List.of(act("x", 0, 0, 20)),
            List.of(new Timestep(List.of(op("relu", List.of(0), List.of(0))), List.of())));
    Outcome<LmemSolution> out = exact("hard", "hard").solve(inst, SolveContext.unlimited());
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(out.stats()).containsEntry("fast-path", 1.0).doesNotContainKey("cpsat-status");
  }

  @Test
  void satisfyStopsAtTheFirstPlacementObeyingTheHardRules() {
    LmemInstance inst = greedyTrap();
    Planner<LmemInstance, LmemSolution> oracle =
        Planners.<LmemInstance, LmemSolution>get(LmemCpSatPlannerProvider.ID, LmemInstance.class)
            .create(Map.of("conflict", "hard", "goal", "satisfy"));
    Outcome<LmemSolution> out = oracle.solve(inst, SolveContext.unlimited());
    assertThat(out.status()).isEqualTo(Status.FEASIBLE);
    assertThat(LmemBanks.report(inst, out.solution()).conflictCount()).isZero();
    assertThat(
            Planners.<LmemInstance, LmemSolution>get(
                    LmemCpSatPlannerProvider.ID, LmemInstance.class)
                .create(Map.of("conflict", "hard", "straddle", "hard", "goal", "satisfy"))
                .solve(inst, SolveContext.unlimited())
                .status())
        .isEqualTo(Status.INFEASIBLE);
  }

  @Test
  void badParametersNameThePlanner() {
    var provider =
        Planners.<LmemInstance, LmemSolution>get(LmemCpSatPlannerProvider.ID, LmemInstance.class);
    assertThatThrownBy(() -> provider.create(Map.of("conflict", "always")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lmem-exact")
        .hasMessageContaining("conflict");
    assertThatThrownBy(() -> provider.create(Map.of("bogus", "1")))
        .hasMessageContaining("lmem-exact")
        .hasMessageContaining("bogus");
    assertThatThrownBy(() -> provider.create(Map.of("goal", "fast")))
        .hasMessageContaining("lmem-exact")
        .hasMessageContaining("goal");
  }

  /**
   * A residual block in 128 bytes (2 banks of 64), 64 bytes a buffer, EU 16: row 0 loads x; row 1
   * conv1(x) -> a; row 2 conv2(a) -> b; row 3 add(b, a) -> z with the pair (b, z); row 4 stores z.
   * Row 3 holds a, b and z: apart they need 192 bytes, so every placement puts z on b's address and
   * a in the other bank (peak 128, max-live 128: a + the pair counted once), which costs the one
   * unavoidable conflict b-z (same add) and no straddle. {@code lmem-tpumlir} finds none ({@code
   * LmemTpuMlirPlannerTest.noSlotWithoutASplitFreeRange}); the CP-SAT model proves the
   * lexicographic optimum (1 conflict, 0 straddles, peak 128).
   */
  @Test
  void writesTheAddOverTheConvOutputWhereTheGreedyFails() {
    LmemInstance inst =
        new LmemInstance(
            "residual",
            128,
            2,
            64,
            16,
            List.of(act("x", 0, 1, 64), act("a", 1, 3, 64), act("b", 2, 3, 64), act("z", 3, 4, 64)),
            List.of(
                new Timestep(List.of(), List.of(0)),
                new Timestep(List.of(op("conv1", List.of(0), List.of(1))), List.of()),
                new Timestep(List.of(op("conv2", List.of(1), List.of(2))), List.of()),
                new Timestep(List.of(op("add", List.of(2, 1), List.of(3))), List.of()),
                new Timestep(List.of(), List.of(3))),
            List.of(new io.github.memplan.core.lmem.InPlace(2, 3)));
    Outcome<LmemSolution> out = exact("soft", "soft").solve(inst, SolveContext.unlimited());
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    long[] a = out.solution().addresses();
    assertThat(a[2]).isEqualTo(a[3]);
    assertThat(a[1]).isNotEqualTo(a[2]);
    assertThat(new LmemValidator().validate(inst, out.solution())).isEmpty();
    assertThat(out.stats())
        .containsEntry("bank-conflicts", 1.0)
        .containsEntry("bank-straddles", 0.0)
        .containsEntry("peak", 128.0);
  }
}
