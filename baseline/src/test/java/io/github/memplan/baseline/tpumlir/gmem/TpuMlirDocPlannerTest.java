package io.github.memplan.baseline.tpumlir.gmem;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.dsa.Program;
import io.github.memplan.core.dsa.Step;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hand-worked runs of the documented rec_tbl algorithm. */
class TpuMlirDocPlannerTest {

  private static Step op(String name, List<String> in, List<String> out) {
    return new Step(name, "Op", in, out, false);
  }

  private static long[] plan(DsaInstance instance) {
    Outcome<DsaSolution> o = new TpuMlirDocPlanner().solve(instance, SolveContext.unlimited());
    assertThat(o.status().hasSolution()).isTrue();
    assertThat(new DsaValidator().validate(instance, o.solution())).isEmpty();
    return o.solution().offsets();
  }

  /**
   * s0 defines A(8) and B(2) at 0 and 8; s1 reads both and defines C(2), which finds both still
   * held and goes to the top (10); A and B are released after it. s2 reads C and defines D(2):
   * rec_tbl holds A(0,8), B(8,2), C(10,2) in that order and the first entry that fits is A, so D
   * lands at 0 although B is an exact fit (best fit would choose 8).
   */
  @Test
  void reusesTheFirstFittingBlockInInsertionOrderNotTheBestFit() {
    Program p =
        new Program(
            List.of(
                op("s0", List.of(), List.of("A", "B")),
                op("s1", List.of("A", "B"), List.of("C")),
                op("s2", List.of("C"), List.of("D")),
                op("ret", List.of("D"), List.of())),
            Map.of());
    DsaInstance instance =
        new DsaInstance(
            "first-fit",
            List.of(
                Buffer.of("A", 0, 2, 8),
                Buffer.of("B", 0, 2, 2),
                Buffer.of("C", 1, 3, 2),
                Buffer.of("D", 2, 4, 2)),
            DsaInstance.UNBOUNDED,
            p);
    assertThat(plan(instance)).containsExactly(0, 8, 10, 0);
  }

  /**
   * s1 reads X (its last use) and defines R1 and R2. R1 goes to the top (4); X is then released. R2
   * could fit X's block, but the fifth condition forbids an operand's address, so R2 goes to 8. s2
   * defines Z, which reuses X's block at 0: an input freed by op k is reused from op k+1 on.
   */
  @Test
  void neverReusesTheAddressOfAnInputOfTheSameOp() {
    Program p =
        new Program(
            List.of(
                op("s0", List.of(), List.of("X")),
                op("s1", List.of("X"), List.of("R1", "R2")),
                op("s2", List.of("R1", "R2"), List.of("Z")),
                op("ret", List.of("Z"), List.of())),
            Map.of());
    DsaInstance instance =
        new DsaInstance(
            "no-input-address",
            List.of(
                Buffer.of("X", 0, 2, 4),
                Buffer.of("R1", 1, 3, 4),
                Buffer.of("R2", 1, 3, 4),
                Buffer.of("Z", 2, 4, 4)),
            DsaInstance.UNBOUNDED,
            p);
    assertThat(plan(instance)).containsExactly(0, 4, 8, 0);
  }

  /**
   * A Reshape output takes its input's address and is held itself. When the Reshape output's last
   * reader runs, its entry is released and the block at 0 is free although the input X, read only
   * by the Reshape, stays in hold_edges: s2's A goes to the top (4), s3's B reuses the block at 0
   * through Y's entry.
   */
  @Test
  void aReshapeBlockIsFreedByTheLastReaderOfTheReshape() {
    Program p =
        new Program(
            List.of(
                op("s0", List.of(), List.of("X")),
                new Step("reshape", "Reshape", List.of("X"), List.of("Y"), true),
                op("s2", List.of("Y"), List.of("A")),
                op("s3", List.of("A"), List.of("B")),
                op("ret", List.of("B"), List.of())),
            Map.of("Y", "X"));
    DsaInstance instance =
        new DsaInstance(
            "reshape",
            List.of(Buffer.of("X", 0, 3, 4), Buffer.of("A", 2, 4, 4), Buffer.of("B", 3, 5, 4)),
            DsaInstance.UNBOUNDED,
            p);
    assertThat(plan(instance)).containsExactly(0, 4, 0);
  }

  /**
   * Departure (a): X is read by its Reshape Y and later by s4. When Y's last reader s2 releases Y,
   * X still has a reader, so offset 0 stays in use and s3's D goes to the top (8); the source would
   * erase offset 0 and put D at 0, over the live X. After s4 reads X, A's block (4) is the first
   * free entry for B.
   */
  @Test
  void aReshapeBlockStaysInUseWhileItsInputIsStillRead() {
    Program p =
        new Program(
            List.of(
                op("s0", List.of(), List.of("X")),
                new Step("reshape", "Reshape", List.of("X"), List.of("Y"), true),
                op("s2", List.of("Y"), List.of("A")),
                op("s3", List.of("A"), List.of("D")),
                op("s4", List.of("X", "D"), List.of("B")),
                op("ret", List.of("B"), List.of())),
            Map.of("Y", "X"));
    DsaInstance instance =
        new DsaInstance(
            "reshape-live-input",
            List.of(
                Buffer.of("X", 0, 5, 4),
                Buffer.of("A", 2, 4, 4),
                Buffer.of("D", 3, 5, 4),
                Buffer.of("B", 4, 6, 4)),
            DsaInstance.UNBOUNDED,
            p);
    assertThat(plan(instance)).containsExactly(0, 4, 8, 4);
  }

  /** An interval instance runs on its op view; the result is valid and never below max-load. */
  @Test
  void plansPlainIntervalInstances() {
    DsaInstance instance =
        DsaInstance.of(
            "intervals",
            List.of(
                Buffer.of("b1", 0, 3, 4),
                Buffer.of("b2", 3, 9, 4),
                Buffer.of("b3", 0, 9, 4),
                Buffer.of("b4", 9, 21, 4),
                Buffer.of("b5", 0, 21, 4)));
    Outcome<DsaSolution> o = new TpuMlirDocPlanner().solve(instance, SolveContext.unlimited());
    assertThat(new DsaValidator().validate(instance, o.solution())).isEmpty();
    // b2 reuses b1's block (freed after step 2), b4 reuses b1's block again: peak 12 = max-load
    assertThat(o.solution().offsets()).containsExactly(0, 0, 4, 0, 8);
    assertThat(o.status()).isEqualTo(Status.OPTIMAL);
  }

  /**
   * A merged Concat: q (alias at 4 in p's 8-byte buffer) is defined first, so the whole buffer is
   * allocated then (fresh, 0); p is defined into it; cat (in place) is recorded at 0 too. Z,
   * defined while cat is read, finds every entry at 0 held and goes to the top (8). After Z's step
   * releases cat, the buffer is free: W reuses cat's entry at 0 (q and p stay held for good, as a
   * Reshape's input does).
   */
  @Test
  void aMergedConcatIsAllocatedWholeWhenItsFirstValueIsDefined() {
    Program p =
        new Program(
            List.of(
                op("s0", List.of(), List.of("q")),
                op("s1", List.of(), List.of("p")),
                new Step("cat", "Concat", List.of("p", "q"), List.of("cat"), true),
                op("s3", List.of("cat"), List.of("Z")),
                op("s4", List.of("Z"), List.of("W")),
                op("ret", List.of("W"), List.of())),
            Map.of("q", "p", "cat", "p"),
            Map.of("q", 4L));
    DsaInstance instance =
        new DsaInstance(
            "concat",
            List.of(Buffer.of("p", 0, 4, 8), Buffer.of("Z", 3, 5, 8), Buffer.of("W", 4, 6, 8)),
            DsaInstance.UNBOUNDED,
            p);
    assertThat(plan(instance)).containsExactly(0, 8, 0);
  }

  /**
   * Departure (a) for buffers with several values: q, the first value of p's buffer, is last read
   * at s1 while p is defined only at s3. The buffer (0) stays in use, so C, defined at s2, goes to
   * the top (16) instead of taking q's entry at 0, where it would overwrite p. A's block (8) is an
   * operand of s2 and so not C's either; B reuses it at s4.
   */
  @Test
  void aBufferStaysInUseUntilAllItsValuesAreDefined() {
    Program p =
        new Program(
            List.of(
                op("s0", List.of(), List.of("q")),
                op("s1", List.of("q"), List.of("A")),
                op("s2", List.of("A"), List.of("C")),
                op("s3", List.of("C"), List.of("p")),
                op("s4", List.of("p", "C"), List.of("B")),
                op("ret", List.of("B"), List.of())),
            Map.of("q", "p"),
            Map.of("q", 4L));
    DsaInstance instance =
        new DsaInstance(
            "late-member",
            List.of(
                Buffer.of("p", 0, 5, 8),
                Buffer.of("A", 1, 3, 8),
                Buffer.of("C", 2, 5, 8),
                Buffer.of("B", 4, 6, 8)),
            DsaInstance.UNBOUNDED,
            p);
    assertThat(plan(instance)).containsExactly(0, 8, 16, 8);
  }
}
