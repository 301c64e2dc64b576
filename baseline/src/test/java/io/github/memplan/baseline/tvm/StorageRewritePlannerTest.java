package io.github.memplan.baseline.tvm;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-worked runs of StorageRewrite's free-list planning. */
class StorageRewritePlannerTest {

  private static Outcome<DsaSolution> run(StorageRewritePlanner planner, DsaInstance instance) {
    Outcome<DsaSolution> o = planner.solve(instance, SolveContext.unlimited());
    DsaPlannerContract.assertSolved(instance, o);
    return o;
  }

  /**
   * Statement 0 allocates A(100 B), B(300), C(50) as entries e0, e1, e2 and frees them (sizes in
   * bits: 800, 2400, 400). Statement 1: D(90 B = 720 bits) takes the smallest entry at least as
   * large, e0 (800). E(400 B = 3200 bits) finds none at least as large, then the largest smaller
   * one within 3200/16 = 200 bits, e1 (2400), which grows to 400 B. F(1000 B = 8000 bits) finds
   * nothing as large, and e2 (400 bits) is below 8000/16 = 500 bits: a new entry e3, although C's
   * 50 bytes are free. Entries side by side: e0 [0,100), e1 [100,500), e2 [500,550), e3 [550,1550):
   * peak 1550 where the max load is 1490.
   */
  private static final DsaInstance WINDOW =
      DsaInstance.of(
          "window",
          List.of(
              Buffer.of("A", 0, 1, 100),
              Buffer.of("B", 0, 1, 300),
              Buffer.of("C", 0, 1, 50),
              Buffer.of("D", 1, 2, 90),
              Buffer.of("E", 1, 2, 400),
              Buffer.of("F", 1, 2, 1000)));

  @Test
  void reusesOnlyWithinTheSizeWindowLargerEntriesFirst() {
    Outcome<DsaSolution> o = run(new StorageRewritePlanner(), WINDOW);
    assertThat(o.solution().offsets()).containsExactly(0, 100, 500, 0, 100, 550);
    assertThat(o.stats()).containsEntry("entries", 4.0).containsEntry("reused", 2.0);
  }

  /** With match_range 32, F may take C's entry (500 bits >= 8000/32 = 250), which grows: 1500. */
  @Test
  void aWiderMatchRangeAcceptsTheReuse() {
    Outcome<DsaSolution> o = run(new StorageRewritePlanner(32), WINDOW);
    assertThat(o.solution().offsets()).containsExactly(0, 100, 500, 0, 100, 500);
  }

  /**
   * X, Y, Z (200 B each) die at statement 0 and are freed in that order. P(200) takes the first of
   * the equal keys (X's entry, multimap order); Q(300) finds none as large and takes the last
   * smaller one, walking back from the request: Z's entry, which grows to 300. Y's stays free.
   */
  @Test
  void equalSizesAreTakenInFreeOrderUpwardAndReverseOrderDownward() {
    DsaInstance instance =
        DsaInstance.of(
            "order",
            List.of(
                Buffer.of("X", 0, 1, 200),
                Buffer.of("Y", 0, 1, 200),
                Buffer.of("Z", 0, 1, 200),
                Buffer.of("P", 1, 2, 200),
                Buffer.of("Q", 1, 2, 300)));
    assertThat(run(new StorageRewritePlanner(), instance).solution().offsets())
        .containsExactly(0, 200, 400, 0, 400);
  }

  /** Arrays of at most 32 bits are never shared: two 4-byte buffers in turn take 8 bytes. */
  @Test
  void smallArraysAreNeverShared() {
    DsaInstance instance =
        DsaInstance.of("small", List.of(Buffer.of("s1", 0, 1, 4), Buffer.of("s2", 1, 2, 4)));
    assertThat(run(new StorageRewritePlanner(), instance).solution().offsets())
        .containsExactly(0, 4);
  }

  /**
   * b is born at statement 1, where a dies: frees come after allocations, so b gets a new entry. c,
   * born at 2, takes a's entry, which must now sit on c's alignment 32. The fixed f keeps 0 and the
   * entries start above it: a's entry at round_up(16, 32) = 32, b's at 96.
   */
  @Test
  void noReuseAtTheStatementOfDeathAndEntriesAboveFixedBuffers() {
    DsaInstance instance =
        DsaInstance.of(
            "fixed",
            List.of(
                Buffer.of("f", 0, 3, 16).withFixedOffset(0),
                Buffer.of("a", 0, 2, 64),
                Buffer.of("b", 1, 3, 64),
                Buffer.of("c", 2, 3, 64).withAlignment(32)));
    assertThat(run(new StorageRewritePlanner(), instance).solution().offsets())
        .containsExactly(0, 32, 96, 32);
  }
}
