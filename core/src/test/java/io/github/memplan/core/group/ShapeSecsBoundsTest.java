package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
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
                "g", g, g.ops(), bm1684x, init, SliceRules.TODAY, new Timesteps2026());
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
  void assignDhwTruncatesTheLengthAndTheLargerHsecsWinsTies() {
    // relu0, relu1 [1,64,256,512]: Σh/Σw = 512/1024 = 0.5; dhw 4, max h 256, max w 512
    Graph g = GroupFixtures.reluPair(1, 64, 256, 512);
    ShapeSecs max = new ShapeSecs(1, 1, 256, 512);
    // from h = 256 down: h >= 4 (w 1) costs h - 1, 3 at h4; h3w2: (int) 2.5 = 2; h2w2: (int) 1.5
    // = 1; h1w4: (int) 1.5 = 1, not below 1, so h2w2 (w slices 128 f32 = 512 B >= 256 B). With
    // float lengths and h scanned upward, h1w4 (1.5) would have won the tie.
    assertThat(
            ShapeSecsBounds.assignDhw(
                g, g.ops(), bm1684x, GroupType.NORMAL, new ShapeSecs(1, 1, 1, 1), 4, max))
        .isEqualTo(new ShapeSecs(1, 1, 2, 2));
    // dhw 5: h5w1 4, h4w2 (int) 3.5 = 3, h3w2 (int) 2.5 = 2, h2w3 (int) 2.0 = 2 (tie: h3 stays),
    // h1w5 (int) 2.0 = 2: h3w2, six loops for five asked (the caller goes on from dhw 6)
    assertThat(
            ShapeSecsBounds.assignDhw(
                g, g.ops(), bm1684x, GroupType.NORMAL, new ShapeSecs(1, 1, 1, 1), 5, max))
        .isEqualTo(new ShapeSecs(1, 1, 3, 2));
  }

  @Test
  void assignDhwSumsOverEveryOpOutputWithAUser() {
    // x [1,64,512,4096] → relu0 → conv 1x16/s(1,16) → [1,64,512,256]: the group output alone has
    // Σh/Σw = 2, every op output (relu0 has a user) 1024/4352 = 0.235
    Graph.Builder b = Graph.builder("wide");
    b.input("x", DType.F32, 1, 64, 512, 4096);
    b.weight("w", DType.F32, 64, 64, 1, 16);
    b.op("relu0", OpKind.RELU, Attributes.empty(), "x");
    b.op(
        "conv",
        OpKind.CONV,
        Attributes.builder().put("kernel_shape", 1, 16).put("strides", 1, 16).build(),
        "relu0",
        "w");
    b.output("conv");
    Graph g = b.build();
    // dhw 4: h4w1 3, h3w2 (int) 2.24 = 2, h2w2 (int) 1.24 = 1, h1w4 (int) 0.71 = 0: h1w4, whose w
    // slices of the group output are 64 f32 = 256 B. With Σh/Σw = 2 (group outputs only) h4w1
    // (3) would win: h3w2 4, h2w2 3, h1w4 6.
    assertThat(
            ShapeSecsBounds.assignDhw(
                g,
                g.ops(),
                bm1684x,
                GroupType.NORMAL,
                new ShapeSecs(1, 1, 1, 1),
                4,
                new ShapeSecs(1, 1, 512, 256)))
        .isEqualTo(new ShapeSecs(1, 1, 1, 4));
  }

  @Test
  void canSplitWTakesTheCeilingOfEveryGroupOutput() {
    // a [1,64,8,200] f32 and b [1,64,8,400] i8, two group outputs
    Graph g = twoReluOutputs(DType.F32, 200, DType.I8, 400);
    List<String> outs = List.of("a", "b");
    // wsecs 2 with dhw 2 < 8: a 100 · 4 = 400 B, b 200 · 1 = 200 B < 256: refused, though the
    // narrowest output (a) alone would pass
    assertThat(ShapeSecsBounds.canSplitW(g, bm1684x, GroupType.NORMAL, outs, 2, 8, 2)).isFalse();
    assertThat(ShapeSecsBounds.canSplitW(g, bm1684x, GroupType.NORMAL, List.of("a"), 2, 8, 2))
        .isTrue();
    // ceil, not floor: 127 f32 in 2 -> 64 · 4 = 256 B passes; 126 -> 63 · 4 = 252 B does not
    Graph h = twoReluOutputs(DType.F32, 127, DType.F32, 126);
    assertThat(ShapeSecsBounds.canSplitW(h, bm1684x, GroupType.NORMAL, List.of("a"), 2, 8, 2))
        .isTrue();
    assertThat(ShapeSecsBounds.canSplitW(h, bm1684x, GroupType.NORMAL, List.of("b"), 2, 8, 2))
        .isFalse();
    // only while dhw is below the max h, and only with w split
    assertThat(ShapeSecsBounds.canSplitW(h, bm1684x, GroupType.NORMAL, List.of("b"), 8, 8, 2))
        .isTrue();
    assertThat(ShapeSecsBounds.canSplitW(h, bm1684x, GroupType.NORMAL, List.of("b"), 2, 8, 1))
        .isTrue();
  }

  /** x [1,64,8,wa] → relu a, y [1,64,8,wb] → relu b, both graph outputs. */
  private static Graph twoReluOutputs(DType ta, long wa, DType tb, long wb) {
    Graph.Builder gb = Graph.builder("two");
    gb.input("x", ta, 1, 64, 8, wa);
    gb.input("y", tb, 1, 64, 8, wb);
    gb.op("a", OpKind.RELU, Attributes.empty(), "x");
    gb.op("b", OpKind.RELU, Attributes.empty(), "y");
    gb.output("a");
    gb.output("b");
    return gb.build();
  }

  @Test
  void increaseSecsTakesTheNextThatShrinksTheSliceOfTheMax() {
    // max 10: from 3 (slices of 4) 4 gives 3; from 5 (2) 6..9 give 2, 10 gives 1
    assertThat(ShapeSecsBounds.increaseSecs(3, 10)).isEqualTo(4);
    assertThat(ShapeSecsBounds.increaseSecs(5, 10)).isEqualTo(10);
    assertThat(ShapeSecsBounds.increaseSecs(1, 2)).isEqualTo(2);
  }

  @Test
  void updateDataSplitAssignsHAndWAtTheMaxNAndFailsAboveTheMaxSecs() {
    Graph g = GroupFixtures.batchReluChain();
    ShapeSecs init = new ShapeSecs(2, 1, 1, 1);
    GroupCandidate.Built b =
        (GroupCandidate.Built)
            GroupCandidate.build(
                "g", g, g.ops(), bm1684x, init, SliceRules.TODAY, new Timesteps2026());
    // with max n 1 (as if N could not be split): nsec 1 gives 3 secs, all for H/W: dhw 3 ->
    // assign_dhwsecs(3), len (int) ((h-1) + (w-1) · (Σh/Σw = 1)) from h = 128 down, strictly
    // smaller wins: h >= 4 costs h - 1 >= 3; h3w1 costs 2; h2w2 costs 2 too and does not beat it
    // (the larger hsecs wins the tie); h1w3 is refused (128/3 -> 43 f32 = 172 B < 256 B)
    assertThat(
            ShapeSecsBounds.updateDataSplit(
                g,
                g.ops(),
                bm1684x,
                b.timesteps(),
                SliceRules.TODAY,
                new ShapeSecs(1, 1, 128, 128)))
        .contains(new ShapeSecs(1, 1, 3, 1));
    // with max h 2 and max w 1 nothing fits: h = dhw = 3 above the max h -> empty (keep init)
    assertThat(
            ShapeSecsBounds.updateDataSplit(
                g, g.ops(), bm1684x, b.timesteps(), SliceRules.TODAY, new ShapeSecs(1, 1, 2, 1)))
        .isEmpty();
  }

  /**
   * relu0 → relu1 on x[1,8,8,160] f32 (bm1684x): {@code get_group_max_secs} gives h 8 and w 160
   * (160 · 4 bytes above DMA_ALGN_BYTES' 512). At 1 x 4 secs the w slices hold 40 · 4 = 160 bytes,
   * under can_split_w's 256, with h·w = 4 below the max h of 8: today's code never cuts there, so
   * the validator refuses a grouping that does; 1 x 2 (320 bytes) and 8 x 4 (h·w = 32, past the max
   * h) are allowed, 9 x 1 is not (above the max h). v0's rules are not held to any of it.
   */
  @Test
  void theValidatorHoldsTodaysGroupingsToTheSecsTodaysCodeCanChoose() {
    Graph g = GroupFixtures.reluPair(1, 8, 8, 160);
    var ops = g.ops();
    assertThat(ShapeSecsBounds.maxSecs(g, ops, bm1684x)).isEqualTo(new ShapeSecs(1, 1, 8, 160));
    assertThat(
            ShapeSecsBounds.whyOutOfBounds(
                g, ops, bm1684x, new ShapeSecs(1, 1, 1, 4), SliceRules.TODAY))
        .hasValueSatisfying(
            why -> assertThat(why).contains("can_split_w", "at 160 bytes", "under 256"));
    assertThat(
            ShapeSecsBounds.whyOutOfBounds(
                g, ops, bm1684x, new ShapeSecs(1, 1, 1, 2), SliceRules.TODAY))
        .isEmpty();
    assertThat(
            ShapeSecsBounds.whyOutOfBounds(
                g, ops, bm1684x, new ShapeSecs(1, 1, 8, 4), SliceRules.TODAY))
        .isEmpty();
    assertThat(
            ShapeSecsBounds.whyOutOfBounds(
                g, ops, bm1684x, new ShapeSecs(1, 1, 9, 1), SliceRules.TODAY))
        .hasValueSatisfying(why -> assertThat(why).contains("H secs 9", "get_group_max_secs"));
    assertThat(
            ShapeSecsBounds.whyOutOfBounds(
                g, ops, bm1684x, new ShapeSecs(1, 1, 1, 4), SliceRules.V0))
        .isEmpty();

    GroupProblem p = GroupProblem.of(g, bm1684x, GroupOptions.DEFAULT);
    ShapeSecs refused = new ShapeSecs(1, 1, 1, 4);
    GroupCandidate.Built built =
        (GroupCandidate.Built)
            GroupCandidate.build(
                "reluPair/g0", g, ops, bm1684x, refused, SliceRules.TODAY, new Timesteps2026());
    Group group =
        new Group(
            0,
            1,
            refused,
            built.slices().slices(),
            built.timesteps(),
            new io.github.memplan.core.lmem.LmemSolution(
                new long[built.timesteps().lmem().buffers().size()]));
    Grouping grouping =
        new Grouping(Grouping.names(p.order()), SliceRules.TODAY, "today", List.of(group));
    assertThat(new GroupingValidator().validate(p, grouping))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.rule()).isEqualTo("slicing");
              assertThat(v.message()).contains("group 0 [0..1]", "can_split_w");
            });
  }
}
