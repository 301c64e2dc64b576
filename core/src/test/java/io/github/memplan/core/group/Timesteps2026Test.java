package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.Timestep;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Today's timesteps on a hand-worked 3-op chain: conv(x, w) → relu → sigmoid. */
class Timesteps2026Test {

  private static Graph chain() {
    return GroupFixtures.convReluSigmoid();
  }

  private static GroupTimesteps build(ShapeSecs secs) {
    Graph g = chain();
    GroupCandidate c =
        GroupCandidate.build(
            "chain3",
            g,
            g.ops(),
            Chips.get("bm1684x"),
            secs,
            SliceRules.TODAY,
            TimestepMethod.get("today"));
    assertThat(c).isInstanceOf(GroupCandidate.Built.class);
    return ((GroupCandidate.Built) c).timesteps();
  }

  private static LmemBuffer buf(GroupTimesteps t, String id) {
    return t.lmem().buffers().stream().filter(b -> b.id().equals(id)).findFirst().orElseThrow();
  }

  private static List<String> gdma(GroupTimesteps t, int row) {
    LmemInstance l = t.lmem();
    return l.timesteps().get(row).gdma().stream().map(i -> l.buffers().get(i).id()).toList();
  }

  private static List<String> tiu(GroupTimesteps t, int row) {
    return t.lmem().timesteps().get(row).tiu().stream().map(Timestep.TiuOp::op).toList();
  }

  @Test
  void pipelineFoldsTheLoadAndStoreRowsIntoTheComputeRowsThenRebalancingMovesW() {
    // nearest: r0 load x,w | r1 conv | r2 relu | r3 sig | r4 store sig  (5 rows)
    // pipeline: store sig (stage 2) -> r1 (conv does not touch sig);
    //           loads x, w (stage 0) -> r3 (sig reads neither); r0 and r4 now empty, deleted
    // (c) on bm1684x (tiu = ceil(work/1024) for f32, gdma = ceil(bytes/64)), h in 2 slices of 8:
    //   conv 64*64*128 MACs -> 512, relu and sig 8192 elements -> 8;
    //   x, sig slices 32768 B -> 512, w 16384 B -> 256
    //   slack R0 512-512 = 0, R1 8, R2 8-512-256 = -760. R2: x and w may go down to row 1
    //   (conv in R0 reads both); into R1 (slack 8) x gains 512-504 = 8, w 256-248 = 8:
    //   tie, the smaller area wins: w (256 B/lane * 2) before x (512 B/lane * 2) -> w to R1.
    //   Then R2 (slack -504) has no destination with positive slack (R1 now -248): done.
    GroupTimesteps t = build(ShapeSecs.nh(1, 2));
    assertThat(t.lmem().timesteps()).hasSize(3);
    assertThat(tiu(t, 0)).containsExactly("conv");
    assertThat(gdma(t, 0)).containsExactly("sig");
    assertThat(tiu(t, 1)).containsExactly("relu");
    assertThat(gdma(t, 1)).containsExactly("w");
    assertThat(tiu(t, 2)).containsExactly("sig");
    assertThat(gdma(t, 2)).containsExactly("x");
    assertThat(buf(t, "w").bytes()).isEqualTo(256);
    assertThat(buf(t, "x").bytes()).isEqualTo(512);
  }

  @Test
  void movedTransfersGetStagesAndWrappedLifetimes() {
    GroupTimesteps t = build(ShapeSecs.nh(1, 2));
    // x loaded in row 2 for the next slice, read by conv in row 0: wraps 2 -> 0
    assertThat(buf(t, "x").start()).isEqualTo(2);
    assertThat(buf(t, "x").end()).isEqualTo(0);
    assertThat(buf(t, "x").wraps()).isTrue();
    // sig computed in row 2, stored (previous slice) in row 0: wraps 2 -> 0
    assertThat(buf(t, "sig").start()).isEqualTo(2);
    assertThat(buf(t, "sig").end()).isEqualTo(0);
    assertThat(buf(t, "sig").wraps()).isTrue();
    // in-group intermediates: producer row to last use
    assertThat(List.of(buf(t, "conv").start(), buf(t, "conv").end())).containsExactly(0, 1);
    assertThat(List.of(buf(t, "relu").start(), buf(t, "relu").end())).containsExactly(1, 2);
    int ix = t.tensors().indexOf("x");
    assertThat(t.stages().get(ix)).isZero();
    assertThat(t.stages().get(t.tensors().indexOf("w"))).isZero();
    assertThat(t.stages().get(t.tensors().indexOf("sig"))).isEqualTo(2);
    assertThat(t.stages().get(t.tensors().indexOf("conv"))).isEqualTo(1);
  }

  @Test
  void weightsAreHeldOnlyWhenTheGroupLoops() {
    assertThat(buf(build(ShapeSecs.nh(1, 2)), "w").held()).isTrue();
    LmemBuffer once = buf(build(ShapeSecs.ONE), "w");
    assertThat(once.held()).isFalse();
    assertThat(once.wraps()).isTrue(); // loaded in the last row for the next iteration
  }

  @Test
  void activationSlicesUseTodaysEvenSplit() {
    // h = 16 in 3 secs: 6, 5, 5 rows (v0 would cut 6, 6, 4); 64 ch on 64 lanes, w 16, f32
    GroupTimesteps t = build(ShapeSecs.nh(1, 3));
    assertThat(buf(t, "sig").bytes()).isEqualTo(6 * 16 * 4);
  }
}
