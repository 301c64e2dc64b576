package io.github.memplan.baseline.tpumlir.lmem;

import static io.github.memplan.baseline.tpumlir.lmem.LmemTestInstances.act;
import static io.github.memplan.baseline.tpumlir.lmem.LmemTestInstances.held;
import static io.github.memplan.baseline.tpumlir.lmem.LmemTestInstances.idle;
import static io.github.memplan.baseline.tpumlir.lmem.LmemTestInstances.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemPlannerContract;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.Timestep;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LmemV0PlannerTest extends LmemPlannerContract {

  @Override
  protected Planner<LmemInstance, LmemSolution> planner() {
    return new LmemV0Planner();
  }

  private static long[] plan(LmemInstance inst) {
    Outcome<LmemSolution> out = new LmemV0Planner().solve(inst, SolveContext.unlimited());
    assertSolved(inst, out);
    return out.solution().addresses();
  }

  /**
   * 256 bytes in 4 banks of 64, EU 16, not sliced; lives a [0,1] 48, b [0,3] 32, c [1,2] 40, d
   * [2,3] 64, e [1,1] 16.
   *
   * <pre>
   * ts 0: b (longest) at 0; a: 32 would straddle [32,80) -> bank 1 start 64
   * ts 1: c: 32 straddles -> 64 taken by a -> 112 straddles [112,152) -> 128; e: 32 fits
   * ts 2: d (64 = a bank): 32 straddles -> 64, free again since a died at 1
   *
   *  addr  0    32  48   64       112 128      168      256
   *  ts0   |b   |        |a        |                    |
   *  ts1   |b   |e  |    |a        |   |c       |       |
   *  ts2   |b   |        |d            |c       |       |
   *  ts3   |b   |        |d            |                |
   *  bank  |------0------|-----1-------|------2-----|--3--|
   * </pre>
   */
  @Test
  void perTimestepLongestThenLargestAvoidingStraddles() {
    LmemInstance inst =
        of(
            256,
            4,
            16,
            List.of(
                act("a", 0, 1, 48),
                act("b", 0, 3, 32),
                act("c", 1, 2, 40),
                act("d", 2, 3, 64),
                act("e", 1, 1, 16)),
            idle(4));
    long[] a = plan(inst);
    assertThat(a).containsExactly(64, 0, 128, 64, 32);
    assertThat(LmemBanks.report(inst, new LmemSolution(a)).straddling()).isEmpty();
  }

  /**
   * 128 bytes, 2 banks of 64, EU 8. X [0,2] 40 at 0, Z [0,1] 24 at 40, W [0,1] 24 at 64; at ts 1 Y
   * [1,2] 40 goes to 88. At ts 2 only the gap [40, 88) is free and it crosses 64: pass 1 moves D
   * [2,2] 40 to 64, then past Y to 128, beyond the capacity; pass 2 takes 40 and straddles.
   *
   * <pre>
   *  addr  0       40    64    88        128
   *  ts0   |X      |Z    |W    |          |
   *  ts1   |X      |Z    |W    |Y         |
   *  ts2   |X      |D          |Y         |
   * </pre>
   */
  @Test
  void secondPassAcceptsAStraddle() {
    LmemInstance inst =
        of(
            128,
            2,
            8,
            List.of(
                act("X", 0, 2, 40),
                act("Z", 0, 1, 24),
                act("W", 0, 1, 24),
                act("Y", 1, 2, 40),
                act("D", 2, 2, 40)),
            idle(3));
    long[] a = plan(inst);
    assertThat(a).containsExactly(0, 40, 64, 88, 40);
    assertThat(LmemBanks.report(inst, new LmemSolution(a)).straddling()).containsExactly(4);
  }

  /**
   * Sliced (held weights): the weights go first, by size since both live everywhere: w2 (80, more
   * than a bank: pass 2 only) at 0, w1 (32) at 80; then x at ts 0: 112 straddles -> 128.
   */
  @Test
  void slicedGroupPlacesHeldWeightsFirst() {
    LmemInstance inst =
        of(256, 4, 16, List.of(act("x", 0, 1, 48), held("w1", 32), held("w2", 80)), idle(2));
    assertThat(plan(inst)).containsExactly(128, 80, 0);
  }

  /**
   * v0 walks op ids, not rows: 256 bytes in 4 banks of 64, EU 16, a v0 table of three rows: row 0
   * loads "in" [0,1] 16 and "w" [0,1] 32 (no op runs), row 1 runs A, whose result "a" [1,2] 48 B
   * reads in row 2, where B's result "b" [2,2] 16 is written.
   *
   * <pre>
   * op row 1: alive in, w, a, all spanning 2 rows: by size a 48 at 0; w 32: 48 straddles -> 64;
   *           in 16 fits at 48
   * op row 2: b 16: a holds [0,48), in and w are dead -> 48
   * (walking row 0 first, as every row in order would, gives w 0, in 32, a 64 and b 0)
   * </pre>
   */
  @Test
  void loadsCompeteAtTheirReadersOpRow() {
    var none = List.<Integer>of();
    List<Timestep> rows =
        List.of(
            new Timestep(List.of(), List.of(0, 1)),
            new Timestep(List.of(new Timestep.TiuOp("A", List.of(0, 1), List.of(2), none)), none),
            new Timestep(List.of(new Timestep.TiuOp("B", List.of(2), List.of(3), none)), none));
    LmemInstance inst =
        of(
            256,
            4,
            16,
            List.of(
                act("in", 0, 1, 16), act("w", 0, 1, 32), act("a", 1, 2, 48), act("b", 2, 2, 16)),
            rows);
    assertThat(plan(inst)).containsExactly(48, 64, 0, 48);
    // the same buffers without ops in the table: row order
    assertThat(plan(of(256, 4, 16, inst.buffers(), idle(3)))).containsExactly(32, 0, 64, 0);
  }

  /**
   * Greedy failure where a placement exists: 128 bytes, 2 banks of 64, EU 16. ts 0: a [0,1] 48 at
   * 0, c [0,1] 32 at 64 (48 straddles), b [0,0] 16 at 48. ts 1: d [1,1] 48 finds [48, 96) blocked
   * by c and [96, 144) beyond the capacity, though a at 0, d at 48, c at 96 fits exactly.
   */
  @Test
  void fragmentationFailureIsReportedNotProved() {
    LmemInstance inst =
        of(
            128,
            2,
            16,
            List.of(act("a", 0, 1, 48), act("c", 0, 1, 32), act("b", 0, 0, 16), act("d", 1, 1, 48)),
            idle(2));
    Outcome<LmemSolution> out = new LmemV0Planner().solve(inst, SolveContext.unlimited());
    assertThat(out.status()).isEqualTo(Status.FAILED_TO_PLACE);
    assertThat(out.message()).contains("'d'");
    assertThat(out.lowerBound()).hasValue(128);
    assertSolvedOrFailedProperly(inst, out);
  }

  @Test
  void registered() {
    Planner<LmemInstance, LmemSolution> p =
        Planners.<LmemInstance, LmemSolution>get("lmem-v0", LmemInstance.class).create(Map.of());
    assertThat(p).isInstanceOf(LmemV0Planner.class);
  }
}
