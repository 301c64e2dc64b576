package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.lmem.InPlace;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.solve.SolveContext;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each piece of today's LayerGroup switched off ({@link Pieces}) on a hand-worked case where it
 * changes something, and the validator re-deriving a grouping under the pieces it names.
 */
class PiecesTest {
  private static final Chip BM1684X = Chips.get("bm1684x");
  private static final EnumSet<Pieces.Piece> ALL = EnumSet.allOf(Pieces.Piece.class);

  private static Pieces pieces(String spec) {
    return Pieces.parse(spec, ALL);
  }

  /** conv 1x1 → relu → sigmoid on x[1,64,16,16] f32, as in {@code Timesteps2026Test}. */
  private static Graph chain() {
    return GroupFixtures.convReluSigmoid();
  }

  private static GroupCandidate.Built built(Graph g, ShapeSecs secs, Pieces pieces) {
    GroupCandidate c =
        GroupCandidate.build(
            g.name(),
            g,
            g.ops(),
            BM1684X,
            secs,
            pieces.rules(SliceRules.TODAY),
            pieces.timesteps());
    assertThat(c).isInstanceOf(GroupCandidate.Built.class);
    return (GroupCandidate.Built) c;
  }

  private static GroupTimesteps table(Graph g, ShapeSecs secs, String spec) {
    return built(g, secs, pieces(spec)).timesteps();
  }

  private static LmemBuffer buf(GroupTimesteps t, String id) {
    return t.lmem().buffers().stream().filter(b -> b.id().equals(id)).findFirst().orElseThrow();
  }

  private static int index(LmemInstance inst, String id) {
    for (int i = 0; i < inst.buffers().size(); i++) {
      if (inst.buffers().get(i).id().equals(id)) {
        return i;
      }
    }
    throw new AssertionError("no buffer " + id);
  }

  /** Per row: TIU op (or "-") and the buffers moved, e.g. {@code "conv|sig"}. */
  private static List<String> rows(GroupTimesteps t) {
    LmemInstance l = t.lmem();
    return l.timesteps().stream()
        .map(
            r ->
                (r.tiu().isEmpty() ? "-" : r.tiu().get(0).op())
                    + "|"
                    + String.join(
                        ",", r.gdma().stream().map(i -> l.buffers().get(i).id()).toList()))
        .toList();
  }

  private static long cycles(Graph g, ShapeSecs secs, String spec) {
    GroupCandidate.Built b = built(g, secs, pieces(spec));
    return new RooflineCostModel()
        .group(g, g.ops(), BM1684X, secs, b.slices().slices(), b.timesteps())
        .cycles();
  }

  private static long ddrBytes(Graph g, ShapeSecs secs, String spec) {
    GroupCandidate.Built b = built(g, secs, pieces(spec));
    return new RooflineCostModel()
        .group(g, g.ops(), BM1684X, secs, b.slices().slices(), b.timesteps())
        .ddrBytes();
  }

  @Test
  void piecesAreSwitchedLikeFrontEndPassesAndAllAreOnByDefault() {
    assertThat(pieces("all")).isEqualTo(Pieces.ALL);
    assertThat(pieces("none").on()).isEmpty();
    assertThat(pieces("Hull, in-place").on())
        .containsExactly(Pieces.Piece.HULL, Pieces.Piece.IN_PLACE);
    assertThat(pieces("all,-rebalance").has(Pieces.Piece.REBALANCE)).isFalse();
    assertThat(pieces("all,-rebalance").toString())
        .isEqualTo(
            "group-types,hull,reshape-local,update-data-split,structure-detect,pipeline,hold,"
                + "in-place");
    assertThat(Pieces.ALL.toString()).isEqualTo("all");
    assertThat(pieces("none").toString()).isEqualTo("none");
    assertThatThrownBy(() -> pieces("all,-holds"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "unknown piece 'holds' (known: group-types, hull, reshape-local, update-data-split,"
                + " structure-detect, pipeline, rebalance, hold, in-place)");
    assertThatThrownBy(() -> Pieces.parse("structure-detect", EnumSet.of(Pieces.Piece.HOLD)))
        .hasMessageContaining("unknown piece 'structure-detect' (known: hold)");
    // every piece on: today's rules and today's timestep method, as before the switch existed
    assertThat(Pieces.ALL.rules(SliceRules.TODAY)).isEqualTo(SliceRules.TODAY);
    assertThat(Pieces.ALL.timesteps().id()).isEqualTo("today");
    SliceRules none = pieces("none").rules(SliceRules.TODAY);
    assertThat(none.groupTypes()).isEqualTo(SliceRules.GroupTypes.NORMAL);
    assertThat(none.margins()).isEqualTo(SliceRules.Margins.IDENTICAL);
    assertThat(none.reshapeLocal()).isFalse();
    assertThat(none.eraH2Rule()).isFalse(); // still today's era: the h/2 rule stays off
  }

  @Test
  void aTimestepVariantIsNamedByThePiecesItLacksAndFoundByThatName() {
    String id = pieces("none").timesteps().id();
    assertThat(id).isEqualTo("today-no-pipeline-no-rebalance-no-hold-no-in-place");
    assertThat(TimestepMethod.get(id).id()).isEqualTo(id);
    assertThat(TimestepMethod.get("today-no-hold").id()).isEqualTo("today-no-hold");
    // the pieces outside the table do not name it
    assertThat(pieces("all,-group-types,-update-data-split").timesteps().id()).isEqualTo("today");
    assertThatThrownBy(() -> TimestepMethod.get("today-no-holds"))
        .hasMessageContaining("unknown timestep method 'today-no-holds'");
  }

  /**
   * The chain in 2 H slices on bm1684x (TIU 1024 f32 MACs a cycle, GDMA 64 B a cycle): conv 512
   * cycles, relu and sig 8; x and sig slices 32768 B (512 cycles), w 16384 B (256), held as the
   * group loops.
   *
   * <p>Without the pipeline the nearest rows stay: R0 loads x, w | R1 conv | R2 relu | R3 sig | R4
   * stores sig, all stage 1, nothing wraps. Rebalancing has nothing to do: R0's loads cannot go
   * earlier, R4's store not later. Per iteration Σ rows max(TIU, GDMA): iteration 0 768 + 512 + 8 +
   * 8 + 512 = 1808, iteration 1 without w 1552: 3360.
   *
   * <p>With it (Timesteps2026Test): R0 conv | sig (stage 2), R1 relu | w, R2 sig | x (stage 0);
   * steps t = 0..3, a stage-s transfer on iteration t - s, the TIU on t - 1: t0 w 256 + x 512 =
   * 768; t1 conv 512 + relu 8 + max(8, x 512) = 1032 (w held); t2 max(512, sig 512) + 8 + 8 = 528;
   * t3 sig 512: 2840.
   */
  @Test
  void withoutThePipelineTheNearestRowsStayAndNothingWraps() {
    ShapeSecs h2 = ShapeSecs.nh(1, 2);
    GroupTimesteps off = table(chain(), h2, "all,-pipeline");
    assertThat(rows(off)).containsExactly("-|x,w", "conv|", "relu|", "sig|", "-|sig");
    assertThat(off.stages()).containsOnly(1);
    assertThat(off.lmem().buffers()).noneMatch(LmemBuffer::wraps);
    assertThat(List.of(buf(off, "x").start(), buf(off, "x").end())).containsExactly(0, 1);
    assertThat(List.of(buf(off, "sig").start(), buf(off, "sig").end())).containsExactly(3, 4);
    assertThat(off).isEqualTo(table(chain(), h2, "all,-pipeline,-rebalance"));
    assertThat(cycles(chain(), h2, "all,-pipeline")).isEqualTo(3360);
    assertThat(cycles(chain(), h2, "all")).isEqualTo(2840);
  }

  @Test
  void withoutRebalancingTheTransfersStayWhereThePipelinePutThem() {
    // Timesteps2026Test: rebalancing moves w from R2 (slack -760) to R1 (slack 8)
    ShapeSecs h2 = ShapeSecs.nh(1, 2);
    assertThat(rows(table(chain(), h2, "all"))).containsExactly("conv|sig", "relu|w", "sig|x");
    assertThat(rows(table(chain(), h2, "all,-rebalance")))
        .containsExactly("conv|sig", "relu|", "sig|x,w");
  }

  @Test
  void withoutHoldsAWeightIsLoadedInEveryIteration() {
    // held, w (16384 B) is loaded once; x and sig move 2 x 32768 B each: 147456 B. Not held, w
    // is loaded for each of the two slices, in R1 for the next iteration (wrapping to conv in R0)
    ShapeSecs h2 = ShapeSecs.nh(1, 2);
    assertThat(buf(table(chain(), h2, "all"), "w").held()).isTrue();
    LmemBuffer w = buf(table(chain(), h2, "all,-hold"), "w");
    assertThat(w.held()).isFalse();
    assertThat(List.of(w.start(), w.end())).containsExactly(1, 0);
    assertThat(ddrBytes(chain(), h2, "all")).isEqualTo(147456);
    assertThat(ddrBytes(chain(), h2, "all,-hold")).isEqualTo(147456 + 16384);
  }

  @Test
  void withoutInPlaceTheTableDeclaresNoPair() {
    // conv → relu → add(relu, y): after the pipeline and rebalancing relu lives from its row to
    // the add's, where the add's result starts; relu has one use and as many bytes: a pair
    Graph g = GroupFixtures.prefetch(false);
    LmemInstance on = table(g, ShapeSecs.ONE, "all").lmem();
    assertThat(on.inPlace()).containsExactly(new InPlace(index(on, "relu"), index(on, "add")));
    LmemInstance off = table(g, ShapeSecs.ONE, "all,-in-place").lmem();
    assertThat(off.inPlace()).isEmpty();
    assertThat(off.buffers()).isEqualTo(on.buffers());
  }

  @Test
  void withoutGroupTypesEveryGroupIsNormalAndCNeverSplits() {
    // SiLU on x[1,12,100,64] f16 is GROUP_SMALL_C (GroupTypeTest): x whole takes
    // 12 · ceil(100 / 64) · align(64, 32) · 2 = 3072 B a lane in {n·c, h, w, 1}, and C (the
    // tensor's H) may split in 2; as GROUP_NORMAL 1 · ceil(12 / 64) · align(6400, 32) · 2 = 12800
    // B and C 1
    Graph silu = GroupTypeTest.smallCSilu();
    SliceRules typed = SliceRules.TODAY;
    SliceRules untyped = pieces("all,-group-types").rules(SliceRules.TODAY);
    assertThat(typed.groupType(silu, silu.ops(), BM1684X)).isEqualTo(GroupType.SMALL_C);
    assertThat(untyped.groupType(silu, silu.ops(), BM1684X)).isEqualTo(GroupType.NORMAL);
    assertThat(buf(table(silu, ShapeSecs.ONE, "all"), "x").bytes()).isEqualTo(3072);
    assertThat(buf(table(silu, ShapeSecs.ONE, "all,-group-types"), "x").bytes()).isEqualTo(12800);
    assertThat(Slicing.slice(silu, silu.ops(), BM1684X, new ShapeSecs(1, 2, 1, 1), typed))
        .isInstanceOf(SliceResult.Sliced.class);
    assertThat(Slicing.slice(silu, silu.ops(), BM1684X, new ShapeSecs(1, 2, 1, 1), untyped))
        .isInstanceOf(SliceResult.Failed.class);
    // a 4-D (C < H) x 2-D MatMul is local only in GROUP_SMALL_C (group_type_check): with a
    // Sigmoid after it the group is SMALL_C and slices; untyped, group_type_check refuses it
    Graph.Builder b = Graph.builder("mm4x2");
    b.input("a", DType.F16, 1, 4, 128, 64);
    b.weight("w", DType.F16, 64, 32);
    b.op("mm", OpKind.MAT_MUL, Attributes.empty(), "a", "w");
    b.op("sig", OpKind.SIGMOID, Attributes.empty(), "mm");
    Graph mm = b.output("sig").build();
    assertThat(Slicing.slice(mm, mm.ops(), BM1684X, ShapeSecs.ONE, typed))
        .isInstanceOf(SliceResult.Sliced.class);
    SliceResult r = Slicing.slice(mm, mm.ops(), BM1684X, ShapeSecs.ONE, untyped);
    assertThat(((SliceResult.Failed) r).reason())
        .contains("needs a GROUP_SMALL_C group, not NORMAL");
  }

  @Test
  void withoutTheHullTwoUsersMustNeedTheSameRows() {
    // x[1,8,8,8] → relu → conv 3x3 p1 → add(conv, relu), H in 2 slices: the add reads relu's rows
    // (0,4), (4,4), the conv (0,5), (3,5) (one row of halo each side, clamped); today the hull
    // (0,5), (3,5); without it the two users' slices differ and the group is refused
    Graph.Builder b = Graph.builder("hull");
    b.input("x", DType.F32, 1, 8, 8, 8);
    b.weight("w", DType.F32, 8, 8, 3, 3);
    b.op("relu", OpKind.RELU, Attributes.empty(), "x");
    b.op("conv", OpKind.CONV, GroupFixtures.conv3x3(1), "relu", "w");
    b.op("add", OpKind.ADD, Attributes.empty(), "conv", "relu");
    Graph g = b.output("add").build();
    ShapeSecs h2 = ShapeSecs.nh(1, 2);
    SliceResult hull = Slicing.slice(g, g.ops(), BM1684X, h2, SliceRules.TODAY);
    assertThat(((SliceResult.Sliced) hull).slices().get("relu").h())
        .containsExactly(new Range(0, 5), new Range(3, 5));
    SliceResult identical =
        Slicing.slice(g, g.ops(), BM1684X, h2, pieces("all,-hull").rules(SliceRules.TODAY));
    assertThat(((SliceResult.Failed) identical).reason())
        .isEqualTo("tensor 'relu': in-group users need different slices");
  }

  private static Grouping oneGroup(Graph g, SliceRules rules, TimestepMethod method) {
    GroupCandidate.Built b =
        (GroupCandidate.Built)
            GroupCandidate.build(g.name(), g, g.ops(), BM1684X, ShapeSecs.ONE, rules, method);
    var lmem = new StackLmemPlanner().solve(b.timesteps().lmem(), SolveContext.unlimited());
    Group grp =
        new Group(
            0,
            g.ops().size() - 1,
            ShapeSecs.ONE,
            b.slices().slices(),
            b.timesteps(),
            lmem.solution());
    return new Grouping(Grouping.names(g.ops()), rules, method.id(), List.of(grp));
  }

  @Test
  void withoutTheReshapeRuleAFlattenStaysGlobalAndCutsTheBaseGroup() {
    Graph g = GroupFixtures.flattenHead(false);
    GroupProblem p = GroupProblem.of(g, BM1684X, GroupOptions.DEFAULT);
    SliceRules noReshape = pieces("all,-reshape-local").rules(SliceRules.TODAY);
    assertThat(p.baseGroups()).containsExactly(new int[] {0, 2});
    assertThat(p.baseGroups(noReshape)).containsExactly(new int[] {0, 1});
    assertThat(OpSemantics.whyGlobal(g, g.op("flat"), BM1684X, noReshape))
        .contains("Reshape is global without the Reshape local rule (piece reshape-local)");
    // the whole head as one group: valid under today's rules, refused under rules without it
    Grouping today = oneGroup(g, SliceRules.TODAY, new Timesteps2026());
    assertThat(new GroupingValidator().validate(p, today)).isEmpty();
    Grouping claimed =
        new Grouping(today.order(), noReshape, today.timestepMethod(), today.groups());
    assertThat(new GroupingValidator().validate(p, claimed))
        .singleElement()
        .satisfies(v -> assertThat(v.rule()).isEqualTo("groupable"))
        .satisfies(v -> assertThat(v.message()).contains("op 'flat'", "piece reshape-local"));
  }

  @Test
  void theValidatorRebuildsEachGroupUnderThePiecesItsGroupingNames() {
    // the chain as one group with every piece off: valid as built; claimed as today's table (with
    // the pipeline, rebalancing, holds and pairs) it is not what the validator re-derives
    Graph g = chain();
    GroupProblem p = GroupProblem.of(g, BM1684X, GroupOptions.DEFAULT);
    Pieces none = pieces("none");
    Grouping off = oneGroup(g, none.rules(SliceRules.TODAY), none.timesteps());
    assertThat(off.timestepMethod())
        .isEqualTo("today-no-pipeline-no-rebalance-no-hold-no-in-place");
    assertThat(new GroupingValidator().validate(p, off)).isEmpty();
    Grouping claimed = new Grouping(off.order(), off.rules(), "today", off.groups());
    assertThat(new GroupingValidator().validate(p, claimed))
        .extracting(v -> v.rule())
        .containsExactly("timesteps");
  }
}
