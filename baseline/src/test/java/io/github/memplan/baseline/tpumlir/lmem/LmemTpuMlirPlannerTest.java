package io.github.memplan.baseline.tpumlir.lmem;

import static io.github.memplan.baseline.tpumlir.lmem.LmemTestInstances.act;
import static io.github.memplan.baseline.tpumlir.lmem.LmemTestInstances.idle;
import static io.github.memplan.baseline.tpumlir.lmem.LmemTestInstances.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.lmem.InPlace;
import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemBanks.Conflict;
import io.github.memplan.core.lmem.LmemBanks.Reason;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemPlannerContract;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.Timestep;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LmemTpuMlirPlannerTest extends LmemPlannerContract {

  @Override
  protected Planner<LmemInstance, LmemSolution> planner() {
    return new LmemTpuMlirPlanner();
  }

  private static Outcome<LmemSolution> run(LmemInstance inst) {
    Outcome<LmemSolution> out = new LmemTpuMlirPlanner().solve(inst, SolveContext.unlimited());
    assertSolved(inst, out);
    return out;
  }

  /**
   * x [0,1], y [1,2], z [1,1], 32 bytes each, EU 16: row 0 loads x; row 1 runs op(x) -> y while
   * loading z; row 2 stores y.
   */
  private static LmemInstance loadComputeStore(long capacity, int banks) {
    return of(
        capacity,
        banks,
        16,
        List.of(act("x", 0, 1, 32), act("y", 1, 2, 32), act("z", 1, 1, 32)),
        rows());
  }

  private static List<Timestep> rows() {
    return List.of(
        new Timestep(List.of(), List.of(0)),
        new Timestep(
            List.of(new Timestep.TiuOp("op", List.of(0), List.of(1), List.of())), List.of(2)),
        new Timestep(List.of(), List.of(1)));
  }

  /**
   * 256 bytes, 4 banks of 64, EU 16; x [0,1], y [1,2], z [1,1], 32 bytes each. All three are in row
   * 1's sets (conflict 1); areas 64, 64, 32.
   *
   * <pre>
   * round 1: x at 0
   * round 2: y and z both lost bank 0 (x: same op / TIU-GDMA): candidates 64, 64 -> y (order)
   *          row 1's TIU set is now empty, so its GDMA set is cleared: z's conflict drops to 0
   * round 3: z lost bank 1 too (y is TIU, z GDMA in row 1): [32, 64) and [96, 128) are excluded,
   *          128 is the lowest allowed start
   *  addr  0   32   64   96  128  160        256
   *        |x   |    |y   |   |z   |          |
   *  bank  |---0----|---1----|---2----|--3---|
   * </pre>
   */
  @Test
  void bankExclusionMovesBuffersToOtherBanks() {
    LmemInstance inst = loadComputeStore(256, 4);
    Outcome<LmemSolution> out = run(inst);
    assertThat(out.solution().addresses()).containsExactly(0, 64, 128);
    assertThat(LmemBanks.report(inst, out.solution()).conflicts()).isEmpty();
    assertThat(out.stats()).containsEntry("accepted-conflicts", 0.0);
  }

  /**
   * The same in 128 bytes (2 banks of 64): in round 3 both banks are excluded for z, so it takes
   * the first free range, [32, 64), and shares bank 0 with x, which the TIU reads while the GDMA
   * loads z.
   */
  @Test
  void acceptsAConflictWhenEveryBankIsExcluded() {
    LmemInstance inst = loadComputeStore(128, 2);
    Outcome<LmemSolution> out = run(inst);
    assertThat(out.solution().addresses()).containsExactly(0, 64, 32);
    assertThat(LmemBanks.report(inst, out.solution()).conflicts())
        .containsExactly(new Conflict(0, 2, 1, Reason.TIU_GDMA));
    assertThat(out.stats()).containsEntry("accepted-conflicts", 1.0);
  }

  /**
   * 128 bytes, 2 banks of 64, EU 16: add(x) -> y in row 1 may write in place; q [0,2] (64 bytes,
   * touched by no engine) lives throughout. x, y and q are all live in row 1: 192 bytes, so only
   * the in-place slot makes it fit.
   *
   * <pre>
   * round 1: x (conflict 1, area 128) at 0; row 1's TIU set keeps only y, GDMA empty: cleared
   * round 2: all conflicts 0; q (area 192) then y (128). q: [64, 128) -> 64.
   *          y: x's range [0, 64) comes back as the in-place slot, but bank 0 is excluded
   *          (same op as x): candidate 64. Tie at 64: q first in sort order.
   * round 3: y: q takes [64, 128); only the slot [0, 64) is left, in the excluded bank 0:
   *          y accepts it and reuses x's address
   * </pre>
   */
  @Test
  void inPlaceSlotIsReused() {
    LmemInstance inst =
        of(
            128,
            2,
            16,
            List.of(act("x", 0, 1, 64), act("y", 1, 2, 64), act("q", 0, 2, 64)),
            List.of(
                new Timestep(List.of(), List.of(0)),
                new Timestep(
                    List.of(new Timestep.TiuOp("add", List.of(0), List.of(1), List.of())),
                    List.of()),
                new Timestep(List.of(), List.of(1))),
            new InPlace(0, 1));
    Outcome<LmemSolution> out = run(inst);
    assertThat(out.solution().addresses()).containsExactly(0, 0, 64);
    assertThat(LmemBanks.report(inst, out.solution()).conflicts())
        .containsExactly(new Conflict(0, 1, 1, Reason.SAME_TIU_OP));
  }

  /**
   * A residual block, 64 bytes a buffer, EU 16: row 0 loads x; row 1 conv1(x) -> a; row 2 conv2(a)
   * -> b; row 3 add(b, a) -> z, which may write over b (pair (b, z)); row 4 stores z. Lives: x
   * [0,1], a [1,3], b [2,3], z [3,4]; with {@code q}, also [0,4] and touched by no engine.
   */
  private static LmemInstance residual(long capacity, int banks, boolean q, boolean pair) {
    List<io.github.memplan.core.lmem.LmemBuffer> buffers =
        new java.util.ArrayList<>(
            List.of(
                act("x", 0, 1, 64), act("a", 1, 3, 64), act("b", 2, 3, 64), act("z", 3, 4, 64)));
    if (q) {
      buffers.add(act("q", 0, 4, 64));
    }
    List<Timestep> rows =
        List.of(
            new Timestep(List.of(), List.of(0)),
            new Timestep(
                List.of(new Timestep.TiuOp("conv1", List.of(0), List.of(1), List.of())), List.of()),
            new Timestep(
                List.of(new Timestep.TiuOp("conv2", List.of(1), List.of(2), List.of())), List.of()),
            new Timestep(
                List.of(new Timestep.TiuOp("add", List.of(2, 1), List.of(3), List.of())),
                List.of()),
            new Timestep(List.of(), List.of(3)));
    return pair
        ? of(capacity, banks, 16, buffers, rows, new InPlace(2, 3))
        : of(capacity, banks, 16, buffers, rows);
  }

  /**
   * The residual block with q in 192 bytes (3 banks of 64). Row 3 holds a, b, z and q, 256 bytes:
   * only z over b fits. Every buffer but q is touched by a TIU op (conflict 1); areas q 320, a 192,
   * x, b, z 128.
   *
   * <pre>
   * round 1: a (conflict, largest area) at 0; rows 1 and 2 keep one TIU buffer each: cleared
   * round 2: b, z still in row 3's set: order b, z, q, x. r = a: b, z, q, x lose [0, 64), which
   *          split their free range [0, 192) (no pair with a); a's bank 0 is excluded for b, z
   *          and x (same TIU op). Every candidate is 64: b (first) at 64; row 3 cleared
   * round 3: order q, x, z. r = b: q loses [64, 128) -> [128, 192), candidate 128; x does not
   *          meet b, candidate 64; z loses [64, 128), which split [64, 192), and b is its pair:
   *          b's range comes back as the slot [64, 128), but bank 1 is excluded (same add):
   *          candidate 128. x at 64
   * round 4: r = x meets q only (rows 0, 1): q's range [128, 192) untouched, candidate 128; z:
   *          candidate 128 (the slot is in excluded bank 1); tie, q first: q at 128
   * round 5: z loses [128, 192) whole (no split): only the slot [64, 128) is left, in an
   *          excluded bank: z accepts it and writes over b at 64
   * </pre>
   */
  @Test
  void theAddOfAResidualBlockWritesOverTheConvOutputWhenNothingElseFits() {
    LmemInstance inst = residual(192, 3, true, true);
    Outcome<LmemSolution> out = run(inst);
    assertThat(out.solution().addresses()).containsExactly(64, 0, 64, 64, 128);
    assertThat(out.stats()).containsEntry("accepted-conflicts", 1.0);
    assertThat(LmemBanks.report(inst, out.solution()).conflicts())
        .containsExactly(new Conflict(2, 3, 3, Reason.SAME_TIU_OP));
    // without the pair, row 3's 256 live bytes cannot fit in 192
    Outcome<LmemSolution> none =
        new LmemTpuMlirPlanner().solve(residual(192, 3, true, false), SolveContext.unlimited());
    assertThat(none.status().hasSolution()).isFalse();
  }

  /**
   * The residual block alone in 128 bytes (2 banks of 64): z over b (a at 0, x, b, z at 64) would
   * fit, but the allocator never offers the slot. Round 1: a at 0. Round 2: b, z, x all get 64
   * (bank 0 excluded), b first at 64. Round 3: r = b takes z's whole free range [64, 128): no range
   * ran past b's end, so no {@code space_split} and no slot; z has nothing left: failure.
   */
  @Test
  void noSlotWithoutASplitFreeRange() {
    Outcome<LmemSolution> out =
        new LmemTpuMlirPlanner().solve(residual(128, 2, false, true), SolveContext.unlimited());
    assertThat(out.status().hasSolution()).isFalse();
    assertThat(out.message()).contains("'z'");
  }

  /**
   * A lifetime wrapping around the loop boundary: in [2,0] (48 bytes) lives in rows 2 and 0, so a
   * [1,1] may share its addresses while b [0,0] and c [2,2] may not. Idle rows, 256 bytes, 4 banks
   * of 64, EU 16. Areas: in 96, a 48, b 32, c 16.
   *
   * <pre>
   * round 1: in at 0
   * round 2: a meets in in no row: 0; b and c meet it in rows 0 and 2: 48 -> a at 0
   * round 3: b 48, c 48 -> b;  round 4: c 48 (b lives in row 0 only)
   *  row 0: |in   |b  |     row 1: |a   |     row 2: |in   |c |
   * </pre>
   */
  @Test
  void wrappingLifetimeCountsCyclically() {
    LmemInstance inst =
        of(
            256,
            4,
            16,
            List.of(
                act("in", 2, 0, 48), act("a", 1, 1, 48), act("b", 0, 0, 32), act("c", 2, 2, 16)),
            idle(3));
    assertThat(run(inst).solution().addresses()).containsExactly(0, 0, 48, 48);
  }

  @Test
  void registered() {
    Planner<LmemInstance, LmemSolution> p =
        Planners.<LmemInstance, LmemSolution>get("lmem-tpumlir", LmemInstance.class)
            .create(Map.of());
    assertThat(p).isInstanceOf(LmemTpuMlirPlanner.class);
  }
}
