package io.github.memplan.baseline.tpumlir.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupFixtures;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingValidator;
import io.github.memplan.core.group.Pieces;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.group.ShapeSecs;
import io.github.memplan.core.group.ShapeSecsBounds;
import io.github.memplan.core.group.SliceRules;
import io.github.memplan.core.group.StackLmemPlanner;
import io.github.memplan.core.group.Timesteps2026;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * tpumlir-greedy and tpumlir-dp on hand-worked chains, packed by the {@code test-lmem-stack} double
 * (every buffer stacked, so a group fits when the sum of its buffers fits a 256 KiB bm1684x lane).
 */
class LayerGroup2026PlannerTest {
  private static final Chip BM1684X = Chips.get("bm1684x");

  private static Outcome<Grouping> plan(String id, Graph g) {
    return plan(id, g, "all");
  }

  /** {@code id} with the pieces {@code pieces} on {@code g}; checked by the validator. */
  private static Outcome<Grouping> plan(String id, Graph g, String pieces) {
    var provider = Planners.<GroupProblem, Grouping>get(id, GroupProblem.class);
    GroupProblem p =
        GroupProblem.of(g, BM1684X, new GroupOptions(false, GroupOptions.Objective.CYCLES));
    Outcome<Grouping> o =
        provider
            .create(Map.of("lmem", "test-lmem-stack", "pieces", pieces))
            .solve(p, SolveContext.unlimited());
    assertThat(o.status()).isEqualTo(Status.FEASIBLE);
    assertThat(new GroupingValidator().validate(p, o.solution())).isEmpty();
    return o;
  }

  /** conv 3x3 (pad 1) → relu on 1x64x256x256 f32: 256 KiB per lane per activation. */
  private static Graph convRelu() {
    Graph.Builder b = Graph.builder("convrelu");
    b.input("x", DType.F32, 1, 64, 256, 256);
    b.weight("w", DType.F32, 64, 64, 3, 3);
    b.op(
        "conv",
        OpKind.CONV,
        Attributes.builder().put("kernel_shape", 3, 3).put("pads", 1, 1, 1, 1).build(),
        "x",
        "w");
    b.op("relu", OpKind.RELU, Attributes.empty(), "conv");
    b.output("relu");
    return b.build();
  }

  /**
   * relu0 on 1x64x128x256 f32 (128 KiB per lane), then a global average pool (no H/W split) and
   * {@code tail} more relus on 1x64x1x1: a group holding relu0 and the pool cannot be split (max
   * secs all 1) and needs x + relu0 = 256 KiB plus the pool's output: more than the lane.
   */
  private static Graph reluPoolChain(int tail) {
    Graph.Builder b = Graph.builder("reluPool");
    b.input("x", DType.F32, 1, 64, 128, 256);
    b.op("relu0", OpKind.RELU, Attributes.empty(), "x");
    b.op("gap", OpKind.GLOBAL_AVERAGE_POOL, Attributes.empty(), "relu0");
    String prev = "gap";
    for (int i = 1; i <= tail; i++) {
      b.op("relu" + i, OpKind.RELU, Attributes.empty(), prev);
      prev = "relu" + i;
    }
    b.output(prev);
    return b.build();
  }

  @Test
  void updateDataSplitStartsTheQuickSearchFromThePeakLiveLmem() {
    // init_group_data_secs: conv needs x 262144 + out 262144 + w 2304 = 526592 B -> 3 secs,
    //   n = 1 cannot split, so h3; the table under h3 (two ops, pipelined): row 0 conv + store
    //   relu (stage 2), row 1 relu + load x, w (stage 0): x, w and relu wrap, all live in both rows
    // update_data_split, nsec 1 (max n): whole slices, peak 3 x 262144 + 2304 -> 4 secs; c stays
    //   1 (GROUP_NORMAL), dhw 4 -> assign_dhwsecs(4): (h-1) + (w-1) * (Σh / Σw = 1): h4w1 = 3,
    //   h2w2 = 2, h1w4 = 3 -> h2w2 (w slices of 128 f32 = 512 B >= 256 B)
    // the quick search starts at h2w2: x 129x129 -> 66624 B, conv, relu 65536 B each, w 2304:
    //   fits on the first try (from h3 it took two: h3 failed on LMEM, then dhw 4)
    Outcome<Grouping> o = plan("tpumlir-greedy", convRelu());
    Group g = o.solution().groups().get(0);
    assertThat(g.secs()).isEqualTo(new ShapeSecs(1, 1, 2, 2));
    assertThat(o.stats()).containsEntry("tries", 1.0);
    assertThat(o.solution().timestepMethod()).isEqualTo("today");
  }

  @Test
  void updateDataSplitRaisesNFirst() {
    // init_group_data_secs per op: in 256 KiB + out 256 KiB -> 2 secs -> n2 (max n 4)
    // update_data_split (x, relu0, relu1 all live in both rows of the pipelined table):
    //   nsec 1: 3 x 256 KiB -> 3 secs, dhw 3 > 1 below the max n: next nsec
    //   nsec 2: slices of 2: 3 x 128 KiB -> 2 secs: next; nsec 3: largest slice still 2: next
    //   nsec 4: 3 x 64 KiB -> 1 sec: n4c1h1w1
    // the quick search starts at n4, which fits the stack (192 KiB): one try, where from the
    //   initial n2 it would have taken two (n2 fails, n4)
    Outcome<Grouping> o = plan("tpumlir-greedy", GroupFixtures.batchReluChain());
    assertThat(o.solution().groups().get(0).secs()).isEqualTo(new ShapeSecs(4, 1, 1, 1));
    assertThat(o.stats()).containsEntry("tries", 1.0);
  }

  @Test
  void byDefaultTodaysPlannersSliceWithoutTheH2RuleAsTpuMlirToday() {
    // check_hsecs is commented out in today's TPU-MLIR (829dab2c2): both planners name today's
    // rules with the h/2 rule off, and the grouping validates under the default options
    for (String id : List.of("tpumlir-greedy", "tpumlir-dp")) {
      var provider = Planners.<GroupProblem, Grouping>get(id, GroupProblem.class);
      GroupProblem p = GroupProblem.of(convRelu(), BM1684X, GroupOptions.DEFAULT);
      Outcome<Grouping> o =
          provider.create(Map.of("lmem", "test-lmem-stack")).solve(p, SolveContext.unlimited());
      assertThat(o.solution().rules()).isEqualTo(SliceRules.TODAY);
      assertThat(o.solution().rules().h2Rule()).isFalse();
      assertThat(new GroupingValidator().validate(p, o.solution())).isEmpty();
      // forced on, the same planner slices with the rule
      GroupProblem on =
          GroupProblem.of(
              convRelu(), BM1684X, new GroupOptions(true, GroupOptions.Objective.CYCLES));
      Outcome<Grouping> o2 =
          provider.create(Map.of("lmem", "test-lmem-stack")).solve(on, SolveContext.unlimited());
      assertThat(o2.solution().rules().h2Rule()).isTrue();
      assertThat(new GroupingValidator().validate(on, o2.solution())).isEmpty();
    }
  }

  @Test
  void maxSecsFollowTheOpsThatRefuseASplit() {
    Graph g = reluPoolChain(1);
    assertThat(ShapeSecsBounds.maxSecs(g, g.ops().subList(0, 1), BM1684X))
        .isEqualTo(new ShapeSecs(1, 1, 128, 256));
    assertThat(ShapeSecsBounds.maxSecs(g, g.ops().subList(0, 2), BM1684X)).isEqualTo(ShapeSecs.ONE);
    // the per-op estimate ignores liveness: relu0's 2 x 128 KiB fit one lane, so 1 sec
    assertThat(ShapeSecsBounds.initialSecs(g, g.ops().subList(0, 2), BM1684X, ShapeSecs.ONE))
        .contains(ShapeSecs.ONE);
  }

  @Test
  void greedyTakesTheLongestValidGroupEndingAtTheTail() {
    // [relu0..relu3] and every range holding relu0 and gap are invalid; [gap..relu3] is the longest
    // valid one ending at relu3; relu0 is left alone and stays global
    Outcome<Grouping> o = plan("tpumlir-greedy", reluPoolChain(3));
    assertThat(o.solution().groups()).hasSize(1);
    Group g = o.solution().groups().get(0);
    assertThat(List.of(g.first(), g.last())).containsExactly(1, 4);
    assertThat(o.solution().globalOps()).containsExactly(0);
  }

  @Test
  void dpMatchesBruteForceOverAllCutsOfAFiveOpChain() {
    Graph graph = reluPoolChain(3);
    GroupProblem p =
        GroupProblem.of(graph, BM1684X, new GroupOptions(false, GroupOptions.Objective.CYCLES));
    RooflineCostModel model = new RooflineCostModel();
    ShapeSecsSearch search =
        new ShapeSecsSearch(new StackLmemPlanner(), "test-lmem-stack", model, new Timesteps2026());
    List<Op> order = p.order();
    int n = order.size();
    assertThat(n).isEqualTo(5);
    long best = Long.MAX_VALUE;
    for (int mask = 0; mask < 1 << (n - 1); mask++) { // bit i: cut after op i
      long total = 0;
      int start = 0;
      boolean valid = true;
      for (int i = 0; i < n && valid; i++) {
        if (i == n - 1 || (mask >> i & 1) == 1) {
          if (start == i) {
            total += model.globalOp(graph, order.get(i), BM1684X).cycles();
          } else {
            Optional<ShapeSecsSearch.Found> f =
                search.search(
                    "bf",
                    graph,
                    order.subList(start, i + 1),
                    start,
                    i,
                    BM1684X,
                    SliceRules.TODAY.withH2Rule(false),
                    new long[1],
                    SolveContext.unlimited());
            valid = f.isPresent();
            total += f.map(x -> x.cost().cycles()).orElse(0L);
          }
          start = i + 1;
        }
      }
      if (valid) {
        best = Math.min(best, total);
      }
    }
    Outcome<Grouping> o = plan("tpumlir-dp", graph);
    assertThat(model.model(graph, BM1684X, o.solution()).cycles()).isEqualTo(best);
    // all ranges over 5 ops: 10 with two ops or more, each evaluated once (memoised)
    assertThat(o.stats()).containsEntry("evaluations", 10.0);
  }

  /** Ten unary kinds, distinct: the ten ops of one block. */
  private static final List<OpKind> BLOCK =
      List.of(
          OpKind.RELU,
          OpKind.SIGMOID,
          OpKind.TANH,
          OpKind.EXP,
          OpKind.SQRT,
          OpKind.NEG,
          OpKind.ABS,
          OpKind.FLOOR,
          OpKind.CEIL,
          OpKind.ROUND);

  /**
   * On 1x64x8x8 f32 (256 bytes a lane, so every range fits): head ops {@code sign, recip}, three
   * blocks of the ten {@link #BLOCK} kinds (positions 2-31), then {@code log}, a relu and a sigmoid
   * (32-34), then {@code hsig, silu} (35, 36): 37 ops, one base group.
   */
  private static Graph repeated() {
    List<OpKind> kinds = new java.util.ArrayList<>(List.of(OpKind.SIGN, OpKind.RECIPROCAL));
    for (int k = 0; k < 3; k++) {
      kinds.addAll(BLOCK);
    }
    kinds.addAll(
        List.of(OpKind.LOG, OpKind.RELU, OpKind.SIGMOID, OpKind.HARD_SIGMOID, OpKind.SILU));
    return unaryChain("blocks", kinds);
  }

  /** A chain of unary ops {@code op0, op1, ...} of {@code kinds} on 1x64x8x8 f32. */
  private static Graph unaryChain(String name, List<OpKind> kinds) {
    Graph.Builder b = Graph.builder(name);
    b.input("x", DType.F32, 1, 64, 8, 8);
    String prev = "x";
    for (int i = 0; i < kinds.size(); i++) {
      b.op("op" + i, kinds.get(i), Attributes.empty(), prev);
      prev = "op" + i;
    }
    b.output(prev);
    return b.build();
  }

  /** A cost model under which the DP is worked by hand: a global op 10, a pair 15, more 1000·k. */
  private static final io.github.memplan.core.group.CostModel PAIRS =
      new io.github.memplan.core.group.CostModel() {
        @Override
        public io.github.memplan.core.group.GroupCost group(
            Graph graph,
            List<Op> ops,
            Chip chip,
            ShapeSecs secs,
            Map<String, io.github.memplan.core.group.SliceInfo> slices,
            io.github.memplan.core.group.GroupTimesteps table) {
          return new io.github.memplan.core.group.GroupCost(
              ops.size() == 2 ? 15 : 1000L * ops.size(), 0);
        }

        @Override
        public io.github.memplan.core.group.GroupCost globalOp(Graph graph, Op op, Chip chip) {
          return new io.github.memplan.core.group.GroupCost(10, 0);
        }
      };

  private static Outcome<Grouping> pairs(Graph g, boolean structureDetect) {
    GroupProblem p =
        GroupProblem.of(g, BM1684X, new GroupOptions(false, GroupOptions.Objective.CYCLES));
    Outcome<Grouping> o =
        new LayerGroup2026Planner(
                LayerGroup2026Planner.Mode.DP,
                new StackLmemPlanner(),
                "test-lmem-stack",
                PAIRS,
                structureDetect ? Pieces.ALL : pieces("all,-structure-detect"))
            .solve(p, SolveContext.unlimited());
    assertThat(o.status()).isEqualTo(Status.FEASIBLE);
    assertThat(new GroupingValidator().validate(p, o.solution())).isEmpty();
    return o;
  }

  /**
   * Structure detection on {@link #repeated()} under {@link #PAIRS} (a DP optimum pairs ops up).
   *
   * <ol>
   *   <li>Signature counts: the head ops, log, hsig and silu 1; relu and sigmoid 4 (three blocks
   *       and 33, 34); tanh .. round 3. The first signature of count 3 is tanh, at 4, 14, 24: size
   *       10, and 10 · (3 - 2) <= 37.
   *   <li>Windows of 10 from 0 and 1 hold a head op; from 2 the three blocks match: equal kinds,
   *       inputs and outputs of one 1x64x8x8 f32 tensor each, chained the same way.
   *   <li>The DP over the two blocks 2..21 pairs them up (10 pairs: each pair saves 5 over two
   *       global ops, a triple costs 3000): patterns are the 8 middle pairs, length 2.
   *   <li>Scanning pairs from 0: (sign, recip), (recip, relu) match nothing; from 2 every pair of
   *       the blocks matches (15 clusters, 2..31); (log, relu) does not; (relu, sigmoid) at 33-34
   *       matches pattern (relu, sigmoid) (same signatures, input and output of the same shape);
   *       (hsig, silu) does not.
   *   <li>Cuts: the gap 0..1 before the first cluster by the plain DP (a pair, 15 < 20); the gap 32
   *       (log) before the last cluster, a single op; the tail 35..36 after it is not cut, since
   *       the last cluster had a gap before it: hsig and silu stay global.
   * </ol>
   *
   * Total 15 · 17 pairs + 3 global ops · 10 = 285, where the plain DP finds 18 pairs and one single
   * op: 280. Evaluations: the DP over 20 ops evaluates its 190 ranges, the head gap 1, and the
   * final groups not yet evaluated are the five pairs of the third block and 33-34: 197; the plain
   * DP evaluates every range of two ops or more of 37: 666.
   */
  @Test
  void structureDetectionGroupsTwoBlocksAndTilesTheRestByPattern() {
    Graph g = repeated();
    Outcome<Grouping> on = pairs(g, true);
    Grouping grouping = on.solution();
    assertThat(grouping.groups()).hasSize(17);
    assertThat(grouping.groups().get(0))
        .extracting(Group::first, Group::last)
        .containsExactly(0, 1);
    assertThat(grouping.groups())
        .extracting(Group::first)
        .contains(2, 4, 30, 33)
        .doesNotContain(35, 32);
    assertThat(grouping.globalOps()).containsExactly(32, 35, 36);
    assertThat(PAIRS.model(g, BM1684X, grouping).cycles()).isEqualTo(285);
    assertThat(on.stats())
        .containsEntry("structure-base-groups", 1.0)
        .containsEntry("structure-tail-ops", 2.0)
        .containsEntry("evaluations", 197.0);

    Outcome<Grouping> off = pairs(g, false);
    assertThat(PAIRS.model(g, BM1684X, off.solution()).cycles()).isEqualTo(280);
    assertThat(off.solution().globalOps()).hasSize(1);
    assertThat(off.stats())
        .containsEntry("structure-base-groups", 0.0)
        .containsEntry("evaluations", 666.0);
  }

  @Test
  void noStructureBelowTenOpsApart() {
    // the same chain with blocks of the first five kinds only: every count-3 signature repeats
    // 5 ops apart, below MIN_STRUCTURE_SIZE; the plain DP runs
    List<OpKind> kinds = new java.util.ArrayList<>();
    for (int k = 0; k < 3; k++) {
      kinds.addAll(BLOCK.subList(0, 5));
    }
    Outcome<Grouping> o = pairs(unaryChain("short", kinds), true);
    assertThat(o.stats()).containsEntry("structure-base-groups", 0.0);
    // 15 ops: 7 pairs and one global op, every range of 2..15 ops evaluated: 105
    assertThat(o.solution().globalOps()).hasSize(1);
    assertThat(o.stats()).containsEntry("evaluations", 105.0);
  }

  private static Pieces pieces(String spec) {
    return Pieces.parse(spec, EnumSet.allOf(Pieces.Piece.class));
  }

  @Test
  void piecesIsAParameterOfBothAndStructureDetectionAPieceOfTheDpOnly() {
    var dp = Planners.<GroupProblem, Grouping>get("tpumlir-dp", GroupProblem.class);
    var greedy = Planners.<GroupProblem, Grouping>get("tpumlir-greedy", GroupProblem.class);
    for (var provider : List.of(dp, greedy)) {
      assertThat(provider.parameters())
          .extracting(io.github.memplan.core.solve.Parameter::name, Parameter::defaultValue)
          .containsExactly(tuple("lmem", "lmem-tpumlir"), tuple("pieces", "all"));
    }
    assertThat(dp.parameters().get(1).description()).contains("structure-detect");
    assertThat(greedy.parameters().get(1).description()).doesNotContain("structure-detect");
    // the greedy has no structure detection to switch off
    assertThatThrownBy(() -> greedy.create(Map.of("pieces", "all,-structure-detect")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "planner 'tpumlir-greedy': parameter 'pieces': unknown piece 'structure-detect'");
    assertThatThrownBy(() -> dp.create(Map.of("pieces", "none,hold,rebalance,fuse")))
        .hasMessageStartingWith("planner 'tpumlir-dp': parameter 'pieces': unknown piece 'fuse'");
  }

  @Test
  void withoutUpdateDataSplitTheQuickSearchStartsFromTheInitialSecs() {
    // convRelu (updateDataSplitStartsTheQuickSearchFromThePeakLiveLmem): from init_group_data_secs'
    // h3 the quick search fails on LMEM, then assign_dhwsecs(4) gives h2w2, which fits: two tries
    // to the same secs where update_data_split took one
    var provider = Planners.<GroupProblem, Grouping>get("tpumlir-greedy", GroupProblem.class);
    GroupProblem p =
        GroupProblem.of(
            convRelu(), BM1684X, new GroupOptions(false, GroupOptions.Objective.CYCLES));
    Outcome<Grouping> o =
        provider
            .create(Map.of("lmem", "test-lmem-stack", "pieces", "all,-update-data-split"))
            .solve(p, SolveContext.unlimited());
    assertThat(o.solution().groups().get(0).secs()).isEqualTo(new ShapeSecs(1, 1, 2, 2));
    assertThat(o.stats()).containsEntry("tries", 2.0);
    assertThat(new GroupingValidator().validate(p, o.solution())).isEmpty();
  }

  /**
   * conv 1x1 (1,64,8,8) → global pool → flatten (1,64) → relu: the Flatten keeps dims 0 and 1, so
   * with the Reshape local rule the whole chain is one base group; every range fits the stack.
   */
  private static Graph headWithRelu() {
    return GroupFixtures.flattenHead(true);
  }

  @Test
  void everyPieceOffGivesGroupingsTheValidatorAcceptsUnderTheRulesTheyName() {
    // with the Reshape local rule the greedy takes the whole head ([0..3]); without it the
    // Flatten is global and cuts the base group into conv-pool and the relu alone
    Outcome<Grouping> all = plan("tpumlir-greedy", headWithRelu(), "all");
    assertThat(all.solution().groups())
        .extracting(Group::first, Group::last)
        .containsExactly(tuple(0, 3));
    Outcome<Grouping> noReshape = plan("tpumlir-greedy", headWithRelu(), "all,-reshape-local");
    assertThat(noReshape.solution().groups())
        .extracting(Group::first, Group::last)
        .containsExactly(tuple(0, 1));
    assertThat(noReshape.solution().globalOps()).containsExactly(2, 3);
    // each piece off alone, and all off, on both planners and two graphs: valid, named rules
    List<String> specs = new java.util.ArrayList<>(List.of("none"));
    for (Pieces.Piece piece : Pieces.Piece.values()) {
      specs.add("all,-" + piece.id());
    }
    for (String id : List.of("tpumlir-greedy", "tpumlir-dp")) {
      for (String spec : specs) {
        if (id.equals("tpumlir-greedy") && spec.contains("structure-detect")) {
          continue;
        }
        Pieces pieces = pieces(spec);
        for (Graph g : List.of(headWithRelu(), convRelu())) {
          Grouping grouping = plan(id, g, spec).solution();
          assertThat(grouping.rules()).isEqualTo(pieces.rules(SliceRules.TODAY.withH2Rule(false)));
          assertThat(grouping.timestepMethod()).isEqualTo(pieces.timesteps().id());
        }
      }
    }
  }
}
