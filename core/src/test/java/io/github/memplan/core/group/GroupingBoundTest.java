package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.lmem.LmemLowerBounds;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * {@link GroupingBound} on bm1684x (64 lanes, EU 64 B so 1024 f32 elements per TIU cycle; TIU 1000
 * MHz and DDR 64 GB/s, so one GDMA cycle moves 64 bytes), by hand and against every secs of every
 * range under both slicing conventions and timestep methods.
 */
class GroupingBoundTest {
  private static final Chip BM1684X = Chips.get("bm1684x");
  private static final RooflineCostModel MODEL = new RooflineCostModel();

  private static GroupProblem problem(Graph g) {
    return GroupProblem.of(g, BM1684X, GroupOptions.DEFAULT);
  }

  /** x[1,8,8,8] → conv 3x3/p1 → relu → softmax (axis 1: global on every chip) → add(relu, ·). */
  private static Graph convReluSoftmaxAdd() {
    Graph.Builder b = Graph.builder("crsa");
    b.input("x", DType.F32, 1, 8, 8, 8);
    b.weight("w", DType.F32, 8, 8, 3, 3);
    b.op("conv", OpKind.CONV, GroupFixtures.conv3x3(1), "x", "w");
    b.op("relu", OpKind.RELU, Attributes.empty(), "conv");
    b.op("soft", OpKind.SOFTMAX, Attributes.builder().put("axis", 1).build(), "relu");
    b.op("add", OpKind.ADD, Attributes.empty(), "relu", "soft");
    b.output("add");
    return b.build();
  }

  /**
   * x[1,4,8,8] → (relu0 when {@code reluFirst}) → {@code kind} (a conv gets the weight w[4,4,1,1])
   * → relu.
   */
  private static Graph xOpRelu(String name, boolean reluFirst, OpKind kind, Attributes attrs) {
    Graph.Builder b = Graph.builder(name);
    b.input("x", DType.F32, 1, 4, 8, 8);
    String in = "x";
    if (reluFirst) {
      b.op("relu0", OpKind.RELU, Attributes.empty(), in);
      in = "relu0";
    }
    if (kind == OpKind.CONV) {
      b.weight("w", DType.F32, 4, 4, 1, 1);
      b.op("op", kind, attrs, in, "w");
    } else {
      b.op("op", kind, attrs, in);
    }
    b.op("relu", OpKind.RELU, Attributes.empty(), "op");
    b.output("relu");
    return b.build();
  }

  /** x → Slice rows and columns with step 2 → [1,4,4,4] → relu, as a Focus layer. */
  private static Graph sliceStep2() {
    return xOpRelu("slice2", false, OpKind.SLICE, slice2());
  }

  private static Attributes slice2() {
    return Attributes.builder()
        .put("starts", 0, 0)
        .put("ends", 8, 8)
        .put("axes", 2, 3)
        .put("steps", 2, 2)
        .build();
  }

  /** x → relu0 → Slice step 2 → relu: relu0's output is only a quarter read. */
  private static Graph reluSliceRelu() {
    return xOpRelu("rsr", true, OpKind.SLICE, slice2());
  }

  /** x → conv 1x1 stride 2 → [1,4,4,4] → relu. */
  private static Graph conv1x1s2() {
    return xOpRelu(
        "c1s2",
        false,
        OpKind.CONV,
        Attributes.builder().put("kernel_shape", 1, 1).put("strides", 2, 2).build());
  }

  @Test
  void aGlobalOnlyOpSplitsTheBaseGroupsAndTheGroupBeatsTheGlobalOps() {
    GroupProblem p = problem(convReluSoftmaxAdd());
    assertThat(p.baseGroups()).map(r -> r[0] + ".." + r[1]).containsExactly("0..1", "3..3");
    GroupingBound.Totals t = GroupingBound.of(p).totals();
    // conv: 512 outputs × 72 MACs / 1024 = 36 TIU cycles; relu and add ceil(512 / 1024) = 1;
    // softmax 5 · 512 / 1024 -> 3. Σ TIU = 41.
    // Global: conv max(36, (2048 + 2304 + 2048) / 64 = 100) = 100, 6400 B; relu 4096 B, 64;
    // softmax 4096 B, 64; add 6144 B, 96.
    // Base group 0..1: {conv}{relu} 164 cycles, 10496 B; or the group conv..relu, whose output
    // relu is read outside: TIU (36 - 2) + max(0, 1 - 2) = 34; bytes w 2304 + relu 2048 + x whole
    // (3x3/p1 reads every row and column) 2048 = 6400, GDMA 6400 / 64 - 1 = 99: so 99, 6400 B.
    // Softmax (outside every base group) 64, 4096 B; base group 3..3: add alone, 96, 6144 B.
    assertThat(t.tiuSum()).isEqualTo(41);
    assertThat(t.tiuSumHolds()).isTrue();
    assertThat(t.cycles()).isEqualTo(99 + 64 + 96).isGreaterThan(t.tiuSum());
    assertThat(t.ddrBytes()).isEqualTo(6400 + 4096 + 6144);
  }

  @Test
  void oneLongMemoryBoundGroupBeatsEveryCut() {
    // relu × 3 on 1x64x64x64 f32 (1 MiB = 16384 GDMA cycles): each 262144 / 1024 = 256 TIU.
    // Global: 2 MiB each, 32768 cycles. Group of two: x + out = 2 MiB -> 32767 (the third relu
    // then global, 32768); group of all three: still x + out = 2 MiB -> 32767 cycles, while its
    // TIU is 3 · 254. Best partition: one group, 32767 cycles and 2 MiB; Σ TIU is 768.
    Graph.Builder b = Graph.builder("relus3");
    b.input("x", DType.F32, 1, 64, 64, 64);
    String prev = "x";
    for (int i = 0; i < 3; i++) {
      b.op("relu" + i, OpKind.RELU, Attributes.empty(), prev);
      prev = "relu" + i;
    }
    b.output(prev);
    GroupingBound bound = GroupingBound.of(problem(b.build()));
    assertThat(bound.part(0, 2)).isEqualTo(new GroupingBound.Part(32767, 2 << 20));
    assertThat(bound.part(1, 2)).isEqualTo(new GroupingBound.Part(32767, 2 << 20));
    assertThat(bound.totals()).isEqualTo(new GroupingBound.Totals(32767, 2 << 20, 3 * 256, true));
  }

  @Test
  void aSliceWithStep2LoadsAQuarterOfItsInput() {
    // Slice (step 2 on H and W) → relu, one group: the input x[1,4,8,8] is needed only at rows
    // and columns 0, 2, 4, 6 (C: a Slice cannot split it, so whole): 4 · 4 · 4 = 64 elements,
    // 256 B, not the 1024 B of x. Output relu [1,4,4,4] 256 B, no weights: 512 B.
    GroupingBound bound = GroupingBound.of(problem(sliceStep2()));
    assertThat(bound.part(0, 1).bytes()).isEqualTo(256 + 256);
    // and hsecs 4 · wsecs 4 reaches it: every iteration loads one row and one column of x
    Graph g = sliceStep2();
    ShapeSecs h4w4 = new ShapeSecs(1, 1, 4, 4);
    var built =
        (GroupCandidate.Built)
            GroupCandidate.build(
                "t", g, g.ops(), BM1684X, h4w4, SliceRules.TODAY, new Timesteps2026());
    assertThat(MODEL.group(g, g.ops(), BM1684X, h4w4, built.slices().slices(), built.timesteps()))
        .extracting(GroupCost::ddrBytes)
        .isEqualTo(512L);
    checkAgainstEverySecs(g, 4, 4);
  }

  @Test
  void aConv1x1Stride2CountsItsInputWholeAsItsBackwardAsksForEveryRow() {
    // Conv's backward takes (len - 1)·s + max(kernel, s) rows (TPU-MLIR's BackwardH for convs),
    // so one output row o needs rows [2o, 2o + 2): every row of x is loaded, 1024 B; with the
    // weight 64 B and the output 256 B, 1344 B.
    GroupingBound bound = GroupingBound.of(problem(conv1x1s2()));
    assertThat(bound.part(0, 1).bytes()).isEqualTo(1024 + 64 + 256);
    checkAgainstEverySecs(conv1x1s2(), 4, 4);
  }

  @Test
  void anOpWhoseOutputIsPartlyReadTurnsTheTiuSumCheckOff() {
    // relu0 → Slice step 2 → relu grouped with hsecs 4, wsecs 4 computes only rows and columns
    // 0, 2, 4, 6 of relu0: a quarter of its work. Σ whole-op TIU is then not a bound in general
    // (here the traffic dominates anyway), the check says so, and the DP counts relu0's TIU at
    // its covered quarter. Counting x whole in the group relu0..relu would exceed what hsecs 4,
    // wsecs 4 moves (x at rows and columns 0, 2, 4, 6 only): the sweep below catches that.
    GroupProblem p = problem(reluSliceRelu());
    GroupingBound.Totals t = GroupingBound.of(p).totals();
    assertThat(t.tiuSumHolds()).isFalse();
    checkAgainstEverySecs(reluSliceRelu(), 4, 4);
  }

  @Test
  void anInputNoOutputRowNeedsStillCountsOneRowPerAxis() {
    // x[1,4,8,8] → Pad 4 rows on top → [1,4,12,8] → Slice rows 0..3 (all padding) → relu.
    // No output row needs a row of x (Pad's backward of a padding row is empty), but x is still
    // loaded, at least one index per axis: 1 · 4 (C whole: neither op splits C) · 1 · 8 = 32
    // elements, 128 B; with relu [1,4,4,8] 512 B, 640 B (x whole would give 1536 B).
    Graph.Builder b = Graph.builder("padslice");
    b.input("x", DType.F32, 1, 4, 8, 8);
    b.op("pad", OpKind.PAD, Attributes.builder().put("pads", 0, 0, 4, 0, 0, 0, 0, 0).build(), "x");
    b.op(
        "s",
        OpKind.SLICE,
        Attributes.builder().put("starts", 0).put("ends", 4).put("axes", 2).build(),
        "pad");
    b.op("relu", OpKind.RELU, Attributes.empty(), "s");
    b.output("relu");
    Graph g = b.build();
    assertThat(GroupingBound.of(problem(g)).part(0, 2).bytes()).isEqualTo(128 + 512);
    checkAgainstEverySecs(g, 4, 8);
  }

  @Test
  void neverAboveAnyGroupOfTheFixtures() {
    checkAgainstEverySecs(convReluSoftmaxAdd(), 8, 8);
    checkAgainstEverySecs(GroupFixtures.convStackS2(), 16, 16);
    checkAgainstEverySecs(GroupFixtures.convReluChain("chain", 8, 16, 3, 1), 16, 16);
  }

  @Test
  void neverAboveAGroupMmThatSplitsCNorAGroupSmallC() {
    // ln → add → MatMul (3-D by 3-D, f16): GROUP_MM, C split in units of 64 channels, the right
    // matrix read whole by every C slice; the bound takes MM's C rules for these ops
    Graph mm = GroupTypeTest.layerNormAddMatMul();
    assertThat(GroupType.of(mm, mm.ops(), BM1684X)).isEqualTo(GroupType.MM);
    checkAgainstEverySecs(mm, 1, 4, 1, 1);
    // sigmoid → mul on [1,12,100,64] f16: GROUP_SMALL_C, sliced in its own layout (n' 12, c'
    // 100, h' 64), every tensor computed and loaded whole
    Graph silu = GroupTypeTest.smallCSilu();
    assertThat(GroupType.of(silu, silu.ops(), BM1684X)).isEqualTo(GroupType.SMALL_C);
    checkAgainstEverySecs(silu, 3, 2, 3, 1);
  }

  /**
   * Section 4 by hand on {@link #hiddenAndExposedWeights()}: ops A, A2, pool, B, C with whole-op
   * TIU 1152, 9216, 72, 2304, 2304 and weights of 128, 1024, 9216, 9216 GDMA cycles. The TIU
   * allowance of section 2 gives 1150 + 9214 + 70 + 2302 + 2302 = 15038. Segments (an op that reads
   * a weight starts one): [A] 1152, [A2, pool] 9288, [B] 2304, [C] 2304. A's weight is loaded
   * before any TIU runs: 127. The others, largest first, against the segments, largest first: 9215
   * - 9288 = -73 (B's weight can hide under A2), then 9215 - 2304 = 6911 (C's cannot hide under B),
   * then 1023 - 2304 < 0: the best prefix is 6838. Section 6 adds the slices of the first and last
   * iterations, loaded and stored where no TIU runs: row 0 of C's output needs rows 0..1 of B's
   * output (3x3, pad 1), rows 0..2 of the pool's, rows 0..17 of A2's, A's and x's (6x6/6 pool), on
   * H and on W, so x's first slice holds at least 16 · 18 · 18 f32 (20736 bytes, 324 cycles, less
   * 1: 323); C's last slice at least one row and column of its 128 channels (512 bytes: 7). So
   * 15038 + 127 + 6838 + 323 + 7 = 22333 cycles, above the GDMA bound (1,298,432 bytes: 20288
   * cycles, less 1) and within 4% of the unsliced group.
   */
  @Test
  void aWeightLargerThanEveryTiuRowCostsItsExcessAndTheFirstOpsWeightsCostInFull() {
    Graph g = hiddenAndExposedWeights();
    wholeRangeBoundHolds(g, 1_298_432, 22_333);
    assertThat(GroupingBound.bestPrefix(new long[] {9215, 9215, 1023}, new long[] {9288, 2304}, 0))
        .as("missing segments count 0")
        .isEqualTo(6838 + 1023);
    List<Op> ops = problem(g).order();
    GroupCost unsliced =
        cost(g, ops, new ShapeSecs(1, 1, 1, 1), SliceRules.TODAY, new Timesteps2026());
    assertThat(unsliced.cycles()).isBetween(22_333L, 22_333L * 104 / 100);
  }

  /**
   * Section 4's head term by hand on {@link #bigWeightRightAfterTheFirstOp()}: ops relu0, B, D with
   * whole-op TIU 72, 2304, 9216 and weights of 9216 (B) and 1024 (D) GDMA cycles. The matching lets
   * B's weight hide under D (9215 - 9216 < 0), but B's weight is loaded before B runs, beside relu0
   * only: 9215 - 72 = 9143 (with D's weight too, 9143 + 1023 - 2376 is less). TIU allowance 70 +
   * 2302 + 9214 = 11586. Section 6: x's first slice holds at least a row and a column of its 128
   * channels (D is 1x1), 512 bytes, and D's last slice as much: 7 cycles each. So 20743 cycles,
   * above the GDMA bound (1,261,568 bytes: 19712 cycles, less 1).
   */
  @Test
  void aWeightReadRightAfterTheFirstOpHidesOnlyBesideTheOpsBeforeIt() {
    wholeRangeBoundHolds(bigWeightRightAfterTheFirstOp(), 1_261_568, 20_743);
  }

  /**
   * The bound of the range of all {@code g}'s ops is {@code bytes} and {@code cycles}, and no group
   * of any range at any secs up to h 6, w 6 costs less than its range's bound.
   */
  private static void wholeRangeBoundHolds(Graph g, long bytes, long cycles) {
    GroupingBound bound = GroupingBound.of(problem(g));
    GroupingBound.Part part = bound.part(0, g.ops().size() - 1);
    assertThat(part.bytes()).isEqualTo(bytes);
    assertThat(part.cycles()).isEqualTo(cycles);
    assertThat(violations(g, 6, 6, bound::part)).isEmpty();
  }

  /**
   * x[1,128,24,24] → relu0; y[1,128,4,4] → B (3x3, pad 1, 128→128); relu0 → D (1x1, 128→128), f32:
   * B loads far more than it computes and comes right after a cheap op.
   */
  static Graph bigWeightRightAfterTheFirstOp() {
    Graph.Builder b = Graph.builder("head");
    b.input("x", DType.F32, 1, 128, 24, 24);
    b.input("y", DType.F32, 1, 128, 4, 4);
    b.weight("wB", DType.F32, 128, 128, 3, 3);
    b.weight("wD", DType.F32, 128, 128, 1, 1);
    b.op("relu0", OpKind.RELU, Attributes.empty(), "x");
    b.op("B", OpKind.CONV, GroupFixtures.conv3x3(1), "y", "wB");
    b.op("D", OpKind.CONV, Attributes.builder().put("kernel_shape", 1, 1).build(), "relu0", "wD");
    b.output("B");
    b.output("D");
    return b.build();
  }

  /**
   * Section 5 by hand on cv183x (32 lanes, 32 KiB per lane, EU 16 bytes): x[1,128,56,56] bf16 →
   * conv 3x3/p1 (128→128) → relu → global average pool. The pool splits neither H nor W, so a group
   * that holds it has one sec on both (W has one sec off the BM1684X family anyway), and every
   * slice is its whole tensor: in the conv's row its input and output take 4 channels · 3136 · 2 =
   * 25088 bytes per lane each, 50176 together, over the 32768 of a lane. No group holds conv..pool
   * or relu..pool (relu's row holds its input and output too: same bytes); conv..relu, which may
   * split H, keeps its bound. Checked against every secs up to h 8, and a bound that calls
   * conv..relu impossible as well is caught.
   */
  @Test
  void aRangeWhoseRowOverflowsTheLmemAtItsFewestSlicesHoldsNoGroup() {
    Graph g = wholeTensorsOverflow();
    Chip cv = Chips.get("cv183x");
    GroupingBound bound = GroupingBound.of(GroupProblem.of(g, cv, GroupOptions.DEFAULT));
    assertThat(bound.part(0, 2).noGroup()).as("conv..pool").isTrue();
    assertThat(bound.part(1, 2).noGroup()).as("relu..pool").isTrue();
    assertThat(bound.part(0, 1).noGroup()).as("conv..relu").isFalse();
    assertThat(violations(g, cv, false, 1, 1, 8, 1, bound::part)).isEmpty();
    GroupingBound.Part none = new GroupingBound.Part(GroupingBound.NO_GROUP_COST, 0);
    assertThat(
            violations(
                g, cv, false, 1, 1, 8, 1, (i, j) -> i == 0 && j == 1 ? none : bound.part(i, j)))
        .isNotEmpty()
        .allMatch(v -> v.startsWith("conv..relu"));
  }

  /**
   * The bound of today's pipelined tables (section 5's folded rows and weight windows, section 6),
   * section 7's least bound over every secs, and the bound of every grouping are never above a
   * group whose live bytes fit, on bm1684x and on cv183x (where slicing refuses a second slice that
   * restarts at row 0 or repeats the first's end).
   */
  @Test
  void theFoldedBoundAndTheCv183xBoundAreNeverAboveAnyGroupOfTheFixtures() {
    Chip cv = Chips.get("cv183x");
    for (Graph g :
        List.of(
            GroupFixtures.convStackS2(),
            GroupFixtures.convReluChain("chain", 8, 16, 3, 1),
            hiddenAndExposedWeights(),
            bigWeightRightAfterTheFirstOp(),
            wholeTensorsOverflow())) {
      for (Chip chip : List.of(BM1684X, cv)) {
        GroupProblem p = GroupProblem.of(g, chip, GroupOptions.DEFAULT);
        GroupingBound folded = GroupingBound.forMethod(MODEL, p, "today");
        assertThat(folded.folded()).isTrue();
        assertThat(violations(g, chip, true, 1, 1, 8, 4, folded::part))
            .as(g.name() + " on " + chip.name() + ", folded")
            .isEmpty();
        GroupingBound any = GroupingBound.of(p);
        assertThat(violations(g, chip, false, 1, 1, 8, 4, any::part))
            .as(g.name() + " on " + chip.name())
            .isEmpty();
        SlicedBound sliced = new SlicedBound(MODEL, g, chip);
        SliceRules rules = p.options().rules(SliceRules.TODAY);
        assertThat(
                violations(
                    g,
                    chip,
                    true,
                    1,
                    1,
                    8,
                    4,
                    (i, j) -> sliced.best(p.order().subList(i, j + 1), rules)))
            .as(g.name() + " on " + chip.name() + ", section 7")
            .isEmpty();
      }
    }
  }

  /**
   * Section 7 ({@link SlicedBound#best}: the least per-secs bound over every secs slicing accepts,
   * slicings whose live bytes overflow a row left out) is tight enough to matter: raised by 2% of
   * the whole range's value it is above some group ({@link
   * #theFoldedBoundAndTheCv183xBoundAreNeverAboveAnyGroupOfTheFixtures} checks it is never above
   * one).
   */
  @Test
  void theLeastBoundOverEverySecsRaisedBy2PercentIsCaughtByTheCheck() {
    Graph g = hiddenAndExposedWeights();
    GroupProblem p = problem(g);
    SlicedBound sliced = new SlicedBound(MODEL, g, BM1684X);
    GroupingBound.Part whole = sliced.best(p.order(), SliceRules.TODAY);
    long raised = whole.cycles() + whole.cycles() / 50;
    assertThat(
            violations(
                g,
                BM1684X,
                true,
                1,
                1,
                8,
                4,
                (i, j) ->
                    i == 0 && j == 4
                        ? new GroupingBound.Part(raised, whole.bytes())
                        : sliced.best(p.order().subList(i, j + 1), SliceRules.TODAY)))
        .isNotEmpty()
        .allMatch(v -> v.contains("A..C"));
  }

  /**
   * Section 7's totals: the least partition with every range bounded by the larger of sections 2 to
   * 6 and {@link SlicedBound#best} is never above any planner's grouping (the planner contracts
   * check that), and on the fixture whose weights cannot hide it is above the general bound.
   */
  @Test
  void theBoundOfGroupingsSlicedUnderTodaysRulesIsAtLeastTheGeneralOne() {
    for (Graph g : List.of(hiddenAndExposedWeights(), GroupFixtures.convStackS2())) {
      GroupProblem p = problem(g);
      GroupingBound general = GroupingBound.forMethod(MODEL, p, "today");
      GroupingBound sliced =
          GroupingBound.forGroupings(MODEL, p, "today", p.options().rules(SliceRules.TODAY));
      assertThat(sliced.cycles()).as(g.name()).isGreaterThanOrEqualTo(general.cycles());
      assertThat(sliced.ddrBytes()).as(g.name()).isGreaterThanOrEqualTo(general.ddrBytes());
    }
    GroupProblem p = problem(hiddenAndExposedWeights());
    assertThat(
            GroupingBound.forGroupings(MODEL, p, "today", p.options().rules(SliceRules.TODAY))
                .cycles())
        .isGreaterThan(GroupingBound.forMethod(MODEL, p, "today").cycles());
    // v0's tables do not fold, so section 7 does not apply to them
    assertThat(GroupingBound.forGroupings(MODEL, p, "v0", SliceRules.V0).rules()).isNull();
  }

  /** x[1,128,56,56] bf16 → conv 3x3/p1 (128→128) → relu → global average pool. */
  static Graph wholeTensorsOverflow() {
    Graph.Builder b = Graph.builder("overflow");
    b.input("x", DType.BF16, 1, 128, 56, 56);
    b.weight("w", DType.BF16, 128, 128, 3, 3);
    b.op("conv", OpKind.CONV, GroupFixtures.conv3x3(1), "x", "w");
    b.op("relu", OpKind.RELU, Attributes.empty(), "conv");
    b.op("pool", OpKind.GLOBAL_AVERAGE_POOL, Attributes.empty(), "relu");
    b.output("pool");
    return b.build();
  }

  /**
   * A deliberately wrong section 4, which charges every weight in full as if no load could run
   * beside a TIU op (15038 + 127 + 1023 + 2 · 9215 = 34618 on the whole range), is caught by the
   * check against every secs that the real one passes.
   */
  @Test
  void aBoundThatIgnoresLoadsBesideTiuOpsIsCaughtByTheCheck() {
    Graph g = hiddenAndExposedWeights();
    GroupingBound bound = GroupingBound.of(problem(g));
    GroupingBound.Part right = bound.part(0, 4);
    GroupingBound.Part wrong = new GroupingBound.Part(15038 + 127 + 1023 + 2 * 9215, right.bytes());
    assertThat(violations(g, 6, 6, (i, j) -> i == 0 && j == 4 ? wrong : bound.part(i, j)))
        .isNotEmpty()
        .allMatch(v -> v.contains("A..C"));
  }

  /**
   * x[1,16,24,24] → A (1x1, 16→128) → A2 (1x1, 128→128) → max pool 6x6/6 → [1,128,4,4] → B (3x3,
   * pad 1) → C (3x3, pad 1), f32: A2 computes much and loads little, B and C load far more than
   * they compute.
   */
  static Graph hiddenAndExposedWeights() {
    Graph.Builder b = Graph.builder("hidden");
    b.input("x", DType.F32, 1, 16, 24, 24);
    b.weight("wA", DType.F32, 128, 16, 1, 1);
    b.weight("wA2", DType.F32, 128, 128, 1, 1);
    b.weight("wB", DType.F32, 128, 128, 3, 3);
    b.weight("wC", DType.F32, 128, 128, 3, 3);
    Attributes oneByOne = Attributes.builder().put("kernel_shape", 1, 1).build();
    b.op("A", OpKind.CONV, oneByOne, "x", "wA");
    b.op("A2", OpKind.CONV, oneByOne, "A", "wA2");
    b.op(
        "pool",
        OpKind.MAX_POOL,
        Attributes.builder().put("kernel_shape", 6, 6).put("strides", 6, 6).build(),
        "A2");
    b.op("B", OpKind.CONV, GroupFixtures.conv3x3(1), "pool", "wB");
    b.op("C", OpKind.CONV, GroupFixtures.conv3x3(1), "B", "wC");
    b.output("C");
    return b.build();
  }

  /**
   * For every range of at least two ops inside a base group and every secs with {@code h <= maxH},
   * {@code w <= maxW} (n, c 1) under v0's and today's conventions, a group that slices costs at
   * least {@link GroupingBound#part} in cycles and bytes; at least one does.
   */
  private static void checkAgainstEverySecs(Graph g, int maxH, int maxW) {
    checkAgainstEverySecs(g, 1, 1, maxH, maxW);
  }

  /** As {@link #checkAgainstEverySecs(Graph, int, int)} over n, c, h and w. */
  private static void checkAgainstEverySecs(Graph g, int maxN, int maxC, int maxH, int maxW) {
    GroupingBound bound = GroupingBound.of(problem(g));
    assertThat(violations(g, maxN, maxC, maxH, maxW, bound::part)).as(g.name()).isEmpty();
  }

  private static List<String> violations(
      Graph g, int maxH, int maxW, BiFunction<Integer, Integer, GroupingBound.Part> bound) {
    return violations(g, BM1684X, false, 1, 1, maxH, maxW, bound);
  }

  private static List<String> violations(
      Graph g,
      int maxN,
      int maxC,
      int maxH,
      int maxW,
      BiFunction<Integer, Integer, GroupingBound.Part> bound) {
    return violations(g, BM1684X, false, maxN, maxC, maxH, maxW, bound);
  }

  /**
   * Every group (range of two ops or more in a base group, secs up to the maxima, v0's and today's
   * conventions, only today's when {@code folded}) whose live bytes fit the LMEM in every row and
   * that costs less than {@code bound} gives it of its range, one line each; fails when no group is
   * built at all. Fitting by live bytes is necessary for a placement, not sufficient: the check
   * asks more of the bound than validity does.
   */
  private static List<String> violations(
      Graph g,
      Chip chip,
      boolean folded,
      int maxN,
      int maxC,
      int maxH,
      int maxW,
      BiFunction<Integer, Integer, GroupingBound.Part> bound) {
    GroupProblem p = GroupProblem.of(g, chip, GroupOptions.DEFAULT);
    List<String> out = new ArrayList<>();
    int built = 0;
    for (int[] bg : p.baseGroups()) {
      for (int i = bg[0]; i <= bg[1]; i++) {
        for (int j = i + 1; j <= bg[1]; j++) {
          List<Op> ops = p.order().subList(i, j + 1);
          GroupingBound.Part part = bound.apply(i, j);
          String what = ops.get(0).name() + ".." + ops.get(ops.size() - 1).name();
          for (int n = 1; n <= maxN; n++) {
            for (int c = 1; c <= maxC; c++) {
              for (int h = 1; h <= maxH; h++) {
                for (int w = 1; w <= maxW; w++) {
                  ShapeSecs secs = new ShapeSecs(n, c, h, w);
                  List<TimestepMethod> methods =
                      folded
                          ? List.of(new Timesteps2026())
                          : List.of(new V0Timesteps(), new Timesteps2026());
                  for (TimestepMethod method : methods) {
                    SliceRules rules =
                        method instanceof V0Timesteps ? SliceRules.V0 : SliceRules.TODAY;
                    GroupCost cost = cost(g, chip, ops, secs, rules, method);
                    if (cost == null) {
                      continue;
                    }
                    built++;
                    if (cost.cycles() < part.cycles() || cost.ddrBytes() < part.bytes()) {
                      out.add(
                          String.format(
                              "%s %s %s: %d cycles %d bytes, bound %d cycles %d bytes",
                              what,
                              secs,
                              method.id(),
                              cost.cycles(),
                              cost.ddrBytes(),
                              part.cycles(),
                              part.bytes()));
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    assertThat(built).as(g.name() + ": groups built").isPositive();
    return out;
  }

  /** The cost of the group of {@code ops} at {@code secs}, or null when it does not slice. */
  private static GroupCost cost(
      Graph g, List<Op> ops, ShapeSecs secs, SliceRules rules, TimestepMethod method) {
    return cost(g, BM1684X, ops, secs, rules, method);
  }

  /**
   * The cost of the group of {@code ops} at {@code secs} on {@code chip}, or null when it does not
   * slice or its live bytes exceed the LMEM in some row (no placement exists).
   */
  private static GroupCost cost(
      Graph g, Chip chip, List<Op> ops, ShapeSecs secs, SliceRules rules, TimestepMethod method) {
    if (GroupCandidate.build("t", g, ops, chip, secs, rules, method)
            instanceof GroupCandidate.Built b
        && LmemLowerBounds.maxLive(b.timesteps().lmem()) <= b.timesteps().lmem().capacity()) {
      return MODEL.group(g, ops, chip, secs, b.slices().slices(), b.timesteps());
    }
    return null;
  }
}
