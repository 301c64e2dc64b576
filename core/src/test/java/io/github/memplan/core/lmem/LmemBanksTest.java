package io.github.memplan.core.lmem;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.lmem.LmemBanks.Conflict;
import io.github.memplan.core.lmem.LmemBanks.Reason;
import io.github.memplan.core.lmem.LmemBuffer.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

class LmemBanksTest {

  /**
   * 8 banks of 16 bytes (the first four drawn). Row 0 loads in and w; row 1 runs conv(in, w) -> out
   * while the GDMA loads next; row 2 stores out while big lives untouched.
   *
   * <pre>
   * addr  0     8    16    24 28  32    40          60 64
   *       |in   |out |w    |  |next|     |big        |
   * bank  |----0-----|----1-----|----2-----|----3-----|
   * </pre>
   *
   * in/out share bank 0 and are operand/result of conv: SAME_TIU_OP. w/next share bank 1 while conv
   * reads w and the GDMA loads next: TIU_GDMA. next straddles banks 1-2; big (20 > 16 bytes) spans
   * banks 2-3 but is too large to count, and shares bank 2 with next without any engine touching
   * it.
   */
  static LmemInstance example() {
    List<LmemBuffer> buffers =
        List.of(
            new LmemBuffer("in", Kind.ACTIVATION, 0, 1, 8, false),
            new LmemBuffer("w", Kind.WEIGHT, 0, 1, 8, false),
            new LmemBuffer("out", Kind.ACTIVATION, 1, 2, 8, false),
            new LmemBuffer("next", Kind.ACTIVATION, 1, 1, 8, false),
            new LmemBuffer("big", Kind.ACTIVATION, 1, 2, 20, false));
    List<Timestep> rows =
        List.of(
            new Timestep(List.of(), List.of(0, 1)),
            new Timestep(
                List.of(new Timestep.TiuOp("conv", List.of(0, 1), List.of(2), List.of())),
                List.of(3)),
            new Timestep(List.of(), List.of(2)));
    return new LmemInstance("banks", 128, 8, 16, 4, buffers, rows, List.of());
  }

  @Test
  void handWorkedReport() {
    LmemInstance inst = example();
    LmemSolution sol = new LmemSolution(new long[] {0, 16, 8, 28, 40});
    assertThat(new LmemValidator().validate(inst, sol)).isEmpty();
    LmemBanks.Report r = LmemBanks.report(inst, sol);
    assertThat(r.straddling()).containsExactly(3);
    assertThat(r.conflicts())
        .containsExactly(
            new Conflict(0, 2, 1, Reason.SAME_TIU_OP), new Conflict(1, 3, 1, Reason.TIU_GDMA));
  }

  @Test
  void separateBanksHaveNoConflict() {
    LmemInstance inst = example();
    LmemSolution bad = new LmemSolution(new long[] {0, 16, 32, 48, 40});
    assertThat(new LmemValidator().validate(inst, bad)).isNotEmpty(); // big overlaps next
    // each buffer alone in its bank(s); big [64, 84) in banks 4-5
    LmemSolution ok = new LmemSolution(new long[] {0, 16, 32, 48, 64});
    assertThat(new LmemValidator().validate(inst, ok)).isEmpty();
    assertThat(LmemBanks.report(inst, ok).conflicts()).isEmpty();
    assertThat(LmemBanks.report(inst, ok).straddling()).isEmpty();
  }

  @Test
  void engineConditionNeedsBothLiveInTheRow() {
    LmemBanks.Engines e = LmemBanks.Engines.of(example());
    assertThat(e.conflicting(0, 1)).isTrue(); // same conv op in row 1 (row 0: both GDMA, no)
    assertThat(e.conflict(0, 1).timestep()).isEqualTo(1);
    assertThat(e.conflicting(2, 4)).isFalse(); // big is never touched
    assertThat(e.conflicting(0, 0)).isFalse();
    assertThat(LmemBanks.straddles(example(), 12, 8)).isTrue();
    assertThat(LmemBanks.straddles(example(), 12, 20)).isFalse(); // larger than a bank
    assertThat(LmemBanks.straddles(example(), 8, 8)).isFalse(); // ends exactly at 16
  }
}
