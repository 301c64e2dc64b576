package io.github.memplan.baseline.tpumlir.gmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.Program;
import io.github.memplan.core.dsa.Step;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hand-worked runs of TPU-MLIR's two current GMEM methods and of the choice between them. */
class GmemAllocMethodsTest {

  private static Outcome<DsaSolution> run(Planner<DsaInstance, DsaSolution> p, DsaInstance i) {
    Outcome<DsaSolution> o = p.solve(i, SolveContext.unlimited());
    DsaPlannerContract.assertSolved(i, o);
    return o;
  }

  private static long[] offsets(Planner<DsaInstance, DsaSolution> p, DsaInstance i) {
    return run(p, i).solution().offsets();
  }

  /**
   * At time 0 A(4), B(1), C(2), D(1) are stacked from 0: A 0, B 4, C 5, D 7. At time 2 A and C die,
   * leaving holes of 4 (at 0) and 2 (at 5). E(2) takes the front of the largest hole, 0, although
   * the hole of 2 fits it exactly (best fit: 5).
   */
  static DsaInstance largestHole() {
    return DsaInstance.of(
        "largest-hole",
        List.of(
            Buffer.of("A", 0, 2, 4),
            Buffer.of("B", 0, 5, 1),
            Buffer.of("C", 0, 2, 2),
            Buffer.of("D", 0, 5, 1),
            Buffer.of("E", 2, 5, 2)));
  }

  @Test
  void fitFirstTakesTheLargestHoleNotTheBestFit() {
    assertThat(offsets(new GmemAllocFitFirst(), largestHole())).containsExactly(0, 4, 5, 7, 0);
  }

  /**
   * B(2) [0,3) and C(4) [0,2) are stacked: B 0, C 2. At time 2 C dies; its block touches the tail
   * and merges into it, so D(3) [2,4) goes to the tail: D at 2. At time 3 B dies; its block (2 at
   * 0) is the only hole, too small for A(5) [3,4), which takes it and grows it to 5, shifting D up
   * to 5 in that snapshot. Back-propagation fixes D at 5 in the last snapshot and keeps it there in
   * the earlier one, where it had been at 2: peak 8, the max load at time 3 (A + D).
   */
  static DsaInstance growAndShift() {
    return DsaInstance.of(
        "grow-and-shift",
        List.of(
            Buffer.of("A", 3, 4, 5),
            Buffer.of("B", 0, 3, 2),
            Buffer.of("C", 0, 2, 4),
            Buffer.of("D", 2, 4, 3)));
  }

  @Test
  void fitFirstGrowsATooSmallHoleAndBackPropagationMovesTheLaterBlocks() {
    assertThat(offsets(new GmemAllocFitFirst(), growAndShift())).containsExactly(0, 0, 2, 5);
  }

  /**
   * {@link #largestHole} plus F(4) [2,5). After E took the front of the 4-hole, the holes are 2 at
   * 2 and 2 at 5; F takes the first, grows it to 4 and shifts B and D up by 2 (to 6 and 9). In the
   * first snapshot B is then at 6 and C, at 5 there, is laid out after B, at 7: back-propagation
   * moved C as well. Peak 10, against a max load of 8.
   */
  static DsaInstance growTwice() {
    return DsaInstance.of(
        "grow-twice",
        List.of(
            Buffer.of("A", 0, 2, 4),
            Buffer.of("B", 0, 5, 1),
            Buffer.of("C", 0, 2, 2),
            Buffer.of("D", 0, 5, 1),
            Buffer.of("E", 2, 5, 2),
            Buffer.of("F", 2, 5, 4)));
  }

  @Test
  void backPropagationLaysOutEarlierSnapshotsAroundLaterAddresses() {
    assertThat(offsets(new GmemAllocFitFirst(), growTwice())).containsExactly(0, 6, 7, 9, 0, 2);
  }

  /**
   * By size: F8 at 0; K7 overlaps F, goes above it (8); F6 above both (15); K5 above all (21). V(4)
   * [5,6) overlaps only K7 and K5: the gaps before them are 8 (at 0) and 6 (at 15); the smallest
   * that fits wins: V at 15, not at 0.
   */
  @Test
  void opSizeTakesTheSmallestGapThatFits() {
    DsaInstance instance =
        DsaInstance.of(
            "smallest-gap",
            List.of(
                Buffer.of("F8", 0, 2, 8),
                Buffer.of("K7", 0, 10, 7),
                Buffer.of("F6", 0, 2, 6),
                Buffer.of("K5", 0, 10, 5),
                Buffer.of("V", 5, 6, 4)));
    assertThat(offsets(new GmemAllocOpSizeOrder(), instance)).containsExactly(0, 8, 15, 21, 15);
  }

  /**
   * Equal sizes go in reverse live-start order (std::list::sort with {@code >=}): B and C (both 2,
   * both from 0) come as C then B. C at 0; B overlaps C: above it, 2; X(1) [1,2) then has no gap
   * below C and goes to 4. In instance order B would be at 0 and C at 2.
   */
  @Test
  void opSizeBreaksSizeTiesByReverseLiveStartOrder() {
    DsaInstance instance =
        DsaInstance.of(
            "ties",
            List.of(Buffer.of("B", 0, 3, 2), Buffer.of("C", 0, 3, 2), Buffer.of("X", 1, 2, 1)));
    assertThat(offsets(new GmemAllocOpSizeOrder(), instance)).containsExactly(2, 0, 4);
  }

  /**
   * {@link #growTwice}: FitFirst 10. OpSize, by size (ties reversed) F, A, E, C, D, B: F 0; A 0
   * (not alive with F); E above F (4); C above A (4); D above C and E (6); B above D (7): peak 8.
   * The smaller wins.
   */
  @Test
  void theAllocatorKeepsOpSizeWhenItIsSmaller() {
    Outcome<DsaSolution> o = run(new GmemAllocator(), growTwice());
    assertThat(o.solution().offsets()).containsExactly(0, 7, 4, 6, 4, 0);
    assertThat(o.stats())
        .containsEntry("fitFirstFootprint", 10.0)
        .containsEntry("opSizeOrderFootprint", 8.0)
        .containsEntry("opSizeOrderWon", 1.0)
        .containsEntry("fitFirstInvalid", 0.0);
    assertThat(o.message()).isEqualTo("GmemAllocator use OpSizeOrderAssign");
  }

  /**
   * {@link #growAndShift}: FitFirst 8. OpSize: A 0; C 0 (not alive with A); D above A (5); B
   * overlaps C and D: the gap below D is 1, too small, so B goes above D: 8, peak 10.
   */
  @Test
  void theAllocatorKeepsFitFirstWhenItIsSmaller() {
    assertThat(offsets(new GmemAllocOpSizeOrder(), growAndShift())).containsExactly(0, 8, 0, 5);
    Outcome<DsaSolution> o = run(new GmemAllocator(), growAndShift());
    assertThat(o.solution().offsets()).containsExactly(0, 0, 2, 5);
    assertThat(o.stats())
        .containsEntry("fitFirstFootprint", 8.0)
        .containsEntry("opSizeOrderFootprint", 10.0)
        .containsEntry("opSizeOrderWon", 0.0);
    assertThat(o.message()).isEqualTo("GmemAllocator use FitFirstAssign");
  }

  /**
   * {@link #largestHole}: both give 8 (OpSize: A 0, E 0, C 4, D 6, B 7); on a tie the first method,
   * FitFirst, is kept.
   */
  @Test
  void theAllocatorKeepsFitFirstOnATie() {
    assertThat(offsets(new GmemAllocOpSizeOrder(), largestHole())).containsExactly(0, 7, 4, 6, 0);
    Outcome<DsaSolution> o = run(new GmemAllocator(), largestHole());
    assertThat(o.solution().offsets()).containsExactly(0, 4, 5, 7, 0);
    assertThat(o.stats()).containsEntry("opSizeOrderWon", 0.0);
  }

  /**
   * As in the source, a footprint of 0 is no minimum: with only empty buffers OpSizeOrderAssign is
   * reported.
   */
  @Test
  void anEmptyFitFirstFootprintDoesNotWin() {
    DsaInstance instance = DsaInstance.of("empty-buffers", List.of(Buffer.of("z", 0, 2, 0)));
    assertThat(run(new GmemAllocator(), instance).message())
        .isEqualTo("GmemAllocator use OpSizeOrderAssign");
  }

  /**
   * Sizes are padded to the common alignment, 12 for alignments 4 and 6: a(5) pads to 12, so b,
   * alive with it, is at 12 (a multiple of both), not at 5.
   */
  @Test
  void sizesArePaddedToTheCommonAlignment() {
    DsaInstance instance =
        DsaInstance.of(
            "lcm",
            List.of(
                Buffer.of("a", 0, 2, 5).withAlignment(4),
                Buffer.of("b", 0, 2, 6).withAlignment(6)));
    assertThat(offsets(new GmemAllocFitFirst(), instance)).containsExactly(0, 12);
    assertThat(offsets(new GmemAllocOpSizeOrder(), instance)).containsExactly(12, 0);
  }

  /**
   * A merged Concat's later operands are values of size 0 with the Concat's live range. Here the
   * Concat's buffer R(4) [1,5) exactly fills the hole left by S, so its zero-size operand takes the
   * front of the next largest hole, Q's (at 2), right after W. When W dies at 2 its block cannot
   * merge with Q's across that zero-size block: V(5) [2,5) sees holes of 2 and 3, grows the 3 at 2
   * to 5 and shifts K, R and M up by 2. Without the program (no zero-size value) the two holes
   * merge into 5 at 0, which V fills exactly: peak 11, the max load, instead of 13.
   */
  @Test
  void aMergedConcatsLaterOperandsHoldZeroSizeBlocksInFitFirst() {
    List<Buffer> buffers =
        List.of(
            Buffer.of("W", 0, 2, 2),
            Buffer.of("Q", 0, 1, 3),
            Buffer.of("K", 0, 9, 1),
            Buffer.of("S", 0, 1, 4),
            Buffer.of("M", 0, 9, 1),
            Buffer.of("R", 1, 5, 4),
            Buffer.of("V", 2, 5, 5));
    Program program =
        new Program(
            List.of(
                step("s0", List.of(), List.of("W", "Q", "K", "S", "M")),
                step("s1", List.of("W"), List.of("R", "r1")),
                step("s2", List.of(), List.of("V")),
                new Step("cat", "Concat", List.of("R", "r1"), List.of("cat"), true),
                step("s4", List.of("cat", "V"), List.of()),
                step("s5", List.of(), List.of()),
                step("s6", List.of(), List.of()),
                step("s7", List.of(), List.of()),
                step("s8", List.of("K", "M"), List.of())),
            Map.of("r1", "R", "cat", "R"),
            Map.of("r1", 2L));
    DsaInstance withConcat = new DsaInstance("concat", buffers, DsaInstance.UNBOUNDED, program);
    assertThat(offsets(new GmemAllocFitFirst(), withConcat)).containsExactly(0, 2, 7, 8, 12, 8, 2);
    assertThat(offsets(new GmemAllocFitFirst(), DsaInstance.of("plain", buffers)))
        .containsExactly(0, 2, 5, 6, 10, 6, 0);
  }

  private static Step step(String name, List<String> in, List<String> out) {
    return new Step(name, "Op", in, out, false);
  }

  @Test
  void fixedOffsetsAreRefusedByName() {
    DsaInstance instance =
        DsaInstance.of("fixed", List.of(Buffer.of("f", 0, 1, 4).withFixedOffset(8)));
    for (Planner<DsaInstance, DsaSolution> p :
        List.<Planner<DsaInstance, DsaSolution>>of(
            new GmemAllocFitFirst(), new GmemAllocOpSizeOrder(), new GmemAllocator())) {
      assertThatThrownBy(() -> p.solve(instance, SolveContext.unlimited()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("buffer 'f'")
          .hasMessageContaining("tpumlir");
    }
  }
}
