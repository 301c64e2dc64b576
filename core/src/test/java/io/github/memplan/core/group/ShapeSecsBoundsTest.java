package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.Timestep;
import java.util.List;
import org.junit.jupiter.api.Test;

/** get_split_max_secs and update_data_split (LayerGroupUtil.cpp) on hand-worked tables. */
class ShapeSecsBoundsTest {
  private final Chip bm1684x = Chips.get("bm1684x"); // 262144 B per lane

  @Test
  void splitMaxSecsTakesThePeakRowOverTheLane() {
    // three rows; a [0,1], b [1,2], c wraps [2,0], d held but counted only in [1,1]
    var rows =
        List.of(
            new Timestep(List.of(), List.of(0)),
            new Timestep(List.of(), List.of(1, 3)),
            new Timestep(List.of(), List.of(2)));
    var buffers =
        List.of(
            new LmemBuffer("a", LmemBuffer.Kind.ACTIVATION, 0, 1, 64, false),
            new LmemBuffer("b", LmemBuffer.Kind.ACTIVATION, 1, 2, 64, false),
            new LmemBuffer("c", LmemBuffer.Kind.ACTIVATION, 2, 0, 64, false),
            new LmemBuffer("d", LmemBuffer.Kind.WEIGHT, 1, 1, 64, true));
    LmemInstance t = LmemInstance.of("t", bm1684x, buffers, rows, List.of());
    // sizes replace the table's: row 0 a + c = 150000, row 1 a + b + d = 310000, row 2 b + c
    long[] sizes = {100_000, 200_000, 50_000, 10_000};
    assertThat(ShapeSecsBounds.splitMaxSecs(t, sizes, bm1684x)).isEqualTo(2); // 310000 / 262144
    assertThat(ShapeSecsBounds.splitMaxSecs(t, new long[] {1, 1, 1, 1}, bm1684x)).isEqualTo(1);
  }

  @Test
  void updateDataSplitRaisesNBeforeHAndResizesTheInitialTable() {
    Graph g = GroupFixtures.batchReluChain();
    ShapeSecs max = ShapeSecsBounds.maxSecs(g, g.ops(), bm1684x);
    // W: 128 f32 = 512 B, not above bm1684x's DMA_ALGN_BYTES, so not split
    assertThat(max).isEqualTo(new ShapeSecs(4, 1, 128, 1));
    // init_group_data_secs: 256 KiB in + 256 KiB out per op -> 2 secs -> n2
    ShapeSecs init = ShapeSecsBounds.initialSecs(g, g.ops(), bm1684x, max).orElseThrow();
    assertThat(init).isEqualTo(new ShapeSecs(2, 1, 1, 1));
    GroupCandidate.Built b =
        (GroupCandidate.Built)
            GroupCandidate.build(
                "g", g, g.ops(), bm1684x, init, SliceRules.TODAY, new TodayTimesteps());
    // the pipelined table: row 0 relu0 + store relu1 (stage 2), row 1 relu1 + load x (stage 0);
    // x [1, 0] and relu1 [1, 0] wrap, relu0 [0, 1]: every buffer lives in both rows
    assertThat(b.timesteps().lmem().buffers())
        .extracting(x -> x.id() + "@" + x.start() + "-" + x.end() + ":" + x.bytes())
        .containsExactly("x@1-0:131072", "relu0@0-1:131072", "relu1@1-0:131072");
    // nsec 1: 3 x 262144 -> 3; nsec 2 and 3 (largest n slice 2): 3 x 131072 -> 2; nsec 4: 1
    for (int n = 1; n <= 4; n++) {
      var s =
          ((SliceResult.Sliced)
                  Slicing.slice(g, g.ops(), bm1684x, new ShapeSecs(n, 1, 1, 1), SliceRules.TODAY))
              .slices();
      long want = n == 1 ? 3 : n < 4 ? 2 : 1;
      assertThat(
              ShapeSecsBounds.splitMaxSecs(
                  b.timesteps().lmem(),
                  ShapeSecsBounds.bufferSizes(g, bm1684x, b.timesteps(), s),
                  bm1684x))
          .as("nsec %d", n)
          .isEqualTo(want);
    }
    // H would be assigned only at the max n, where nothing more is needed
    assertThat(
            ShapeSecsBounds.updateDataSplit(
                g, g.ops(), bm1684x, b.timesteps(), SliceRules.TODAY, max))
        .contains(new ShapeSecs(4, 1, 1, 1));
  }

  @Test
  void updateDataSplitAssignsHAndWAtTheMaxNAndFailsAboveTheMaxSecs() {
    Graph g = GroupFixtures.batchReluChain();
    ShapeSecs init = new ShapeSecs(2, 1, 1, 1);
    GroupCandidate.Built b =
        (GroupCandidate.Built)
            GroupCandidate.build(
                "g", g, g.ops(), bm1684x, init, SliceRules.TODAY, new TodayTimesteps());
    // with max n 1 (as if N could not be split): nsec 1 gives 3 secs, all for H/W: dhw 3 ->
    // assign_dhwsecs(3), cost (h-1) + (w-1) · (Σh/Σw = 1), h upward, strictly smaller wins:
    // h1w3 is refused (w slices of 128/3 = 42 f32 = 168 B < 256 B while dhw < max h), h2w2 costs
    // 2 (64 f32 = 256 B slices), h3w1 costs 2 too and does not beat it
    assertThat(
            ShapeSecsBounds.updateDataSplit(
                g,
                g.ops(),
                bm1684x,
                b.timesteps(),
                SliceRules.TODAY,
                new ShapeSecs(1, 1, 128, 128)))
        .contains(new ShapeSecs(1, 1, 2, 2));
    // with max h 2 and max w 1 nothing fits: h = dhw = 3 above the max h -> empty (keep init)
    assertThat(
            ShapeSecsBounds.updateDataSplit(
                g, g.ops(), bm1684x, b.timesteps(), SliceRules.TODAY, new ShapeSecs(1, 1, 2, 1)))
        .isEmpty();
  }
}
