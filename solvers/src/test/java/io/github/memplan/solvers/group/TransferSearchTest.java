package io.github.memplan.solvers.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupCandidate;
import io.github.memplan.core.group.GroupFixtures;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.GroupTimesteps;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingValidator;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.group.ShapeSecs;
import io.github.memplan.core.group.SliceRules;
import io.github.memplan.core.group.StackLmemPlanner;
import io.github.memplan.core.group.TimestepMethod;
import io.github.memplan.core.group.TimestepMoves;
import io.github.memplan.core.group.TransferMove;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@link TransferSearch} on a hand-worked group on bm1684x (64 lanes, EU 64 B: 1024 f32 element ops
 * per TIU cycle; DDR 64 GB/s at 1000 MHz: 64 bytes per GDMA cycle): conv 1x1 (x, w) → relu → add
 * (relu, y), x and y 1x64x16x16 f32 (64 KiB each), w 64x64 f32 (16 KiB), one iteration.
 *
 * <pre>
 * TIU:  conv 64·16·16·64 MACs / 1024 = 1024; relu, add 16384 elements / 1024 = 16
 * GDMA: y 65536 B / 64 = 1024; x + w 81920 B / 64 = 1280; store add 65536 B / 64 = 1024
 *
 * today's table           step 0 (stage 0)   step 1 (TIU, stage 1)   step 2 (stage 2)
 * row 0: conv | store add        0           1024                    1024
 * row 1: relu | load y           0           max(16, 1024) = 1024    0
 * row 2: add  | load x, w     1280           16                      0
 *                                            total 4368
 * y's load moved to row 0 (a GDMA-light row under the TIU-heavy conv):
 * row 0: conv | store add, y     0           max(1024, 1024) = 1024  1024
 * row 1: relu                    0           16                      0
 *                                            total 3360, 1008 saved
 * </pre>
 */
class TransferSearchTest {
  private static final Chip BM1684X = Chips.get("bm1684x");
  private static final RooflineCostModel MODEL = new RooflineCostModel();
  private static final SliceRules RULES = GroupOptions.DEFAULT.rules(SliceRules.TODAY);

  static Graph graph() {
    return GroupFixtures.prefetch(false);
  }

  private static Group unmoved(Graph g) {
    return unmoved(g, "today");
  }

  private static Group unmoved(Graph g, String method) {
    GroupCandidate.Built b =
        (GroupCandidate.Built)
            GroupCandidate.build(
                "prefetch3", g, g.ops(), BM1684X, ShapeSecs.ONE, RULES, TimestepMethod.get(method));
    LmemSolution sol =
        new StackLmemPlanner().solve(b.timesteps().lmem(), SolveContext.unlimited()).solution();
    return new Group(0, 2, ShapeSecs.ONE, b.slices().slices(), b.timesteps(), sol);
  }

  private static Optional<LmemSolution> stack(LmemInstance inst) {
    return Optional.of(new StackLmemPlanner().solve(inst, SolveContext.unlimited()).solution());
  }

  private static long cycles(Graph g, Group grp) {
    return MODEL.group(g, g.ops(), BM1684X, grp.secs(), grp.slices(), grp.timesteps()).cycles();
  }

  private static int y(GroupTimesteps t) {
    return t.lmem().buffers().stream().map(b -> b.id()).toList().indexOf("y");
  }

  @Test
  void movesTheLoadUnderTheTiuHeavyRowAndSavesWhatTheHandCountSays() {
    Graph g = graph();
    Group base = unmoved(g);
    assertThat(cycles(g, base)).isEqualTo(4368);
    TransferSearch.Result r =
        TransferSearch.improve(
            g,
            BM1684X,
            g.ops(),
            base,
            base.timesteps(),
            MODEL,
            TransferSearchTest::stack,
            SolveContext.unlimited());
    assertThat(r.group().moves()).containsExactly(new TransferMove(y(base.timesteps()), 0));
    assertThat(cycles(g, r.group())).isEqualTo(3360);
    assertThat(r.saved()).isEqualTo(1008);
    assertThat(r.backoffs()).isZero();
    GroupProblem p = GroupProblem.of(g, BM1684X, GroupOptions.DEFAULT);
    Grouping grouping = new Grouping(Grouping.names(p.order()), RULES, "today", List.of(r.group()));
    assertThat(new GroupingValidator().validate(p, grouping)).isEmpty();
  }

  /**
   * {@code fit} gives each buffer its shortest life: from a table whose y is loaded in row 0 (as
   * the descent above leaves it), y goes back to row 1, before add reads it in row 2, and the
   * descent from that fitted group, counted from the method's own table, finds the move again.
   */
  @Test
  void fitGivesEachBufferItsShortestLifeAndTheDescentStartsFromTheFittedMoves() {
    Graph g = graph();
    Group base = unmoved(g);
    int y = y(base.timesteps());
    GroupTimesteps early =
        ((TimestepMoves.Moved)
                TimestepMoves.apply(base.timesteps(), List.of(new TransferMove(y, 0))))
            .table();
    TransferSearch.Fitted fitted =
        TransferSearch.fit(g, BM1684X, g.ops(), ShapeSecs.ONE, base.slices(), early, MODEL)
            .orElseThrow();
    assertThat(fitted.moves()).containsExactly(new TransferMove(y, 1));
    assertThat(fitted.table().lmem().buffers()).isEqualTo(base.timesteps().lmem().buffers());
    // a group that records a move from the method's table: the descent starts from it
    Group moved =
        new Group(
            0,
            2,
            ShapeSecs.ONE,
            base.slices(),
            early,
            stack(early.lmem()).orElseThrow(),
            List.of(new TransferMove(y, 0)));
    TransferSearch.Result r =
        TransferSearch.improve(
            g,
            BM1684X,
            g.ops(),
            moved,
            base.timesteps(),
            MODEL,
            TransferSearchTest::stack,
            SolveContext.unlimited());
    assertThat(r.group()).isSameAs(moved); // already at the descent's optimum
  }

  @Test
  void whenTheOracleCannotPlaceTheMovedTableTheGroupStaysAsItWas() {
    Graph g = graph();
    Group base = unmoved(g);
    int y = y(base.timesteps());
    int yStart = base.timesteps().lmem().buffers().get(y).start();
    Function<LmemInstance, Optional<LmemSolution>> refusesLongerY =
        inst -> inst.buffers().get(y).start() == yStart ? stack(inst) : Optional.empty();
    TransferSearch.Result r =
        TransferSearch.improve(
            g,
            BM1684X,
            g.ops(),
            base,
            base.timesteps(),
            MODEL,
            refusesLongerY,
            SolveContext.unlimited());
    assertThat(r.group()).isSameAs(base);
    assertThat(r.saved()).isZero();
  }

  private static Outcome<Grouping> plan(String planner, GroupProblem p, String moves) {
    Map<String, String> params = new TreeMap<>(Map.of("lmem", "test-lmem-stack", "moves", moves));
    if (planner.equals("group-timefold")) {
      params.put("start", "none");
    }
    Outcome<Grouping> o =
        Planners.<GroupProblem, Grouping>get(planner, GroupProblem.class)
            .create(params)
            .solve(p, SolveContext.of(7, io.github.memplan.core.solve.Budget.unlimited()));
    assertThat(o.status()).as(o.message()).isEqualTo(Status.FEASIBLE);
    assertThat(new GroupingValidator().validate(p, o.solution())).isEmpty();
    return o;
  }

  @Test
  void bothSearchesMoveTransfersOnlyWhenAskedAndAreDeterministic() {
    Graph g = graph();
    GroupProblem p = GroupProblem.of(g, BM1684X, GroupOptions.DEFAULT);
    for (String planner : List.of("group-dp-best", "group-timefold")) {
      Grouping off = plan(planner, p, "off").solution();
      Grouping on = plan(planner, p, "on").solution();
      assertThat(off.groups()).allSatisfy(x -> assertThat(x.moves()).isEmpty());
      assertThat(on.groups()).anySatisfy(x -> assertThat(x.moves()).isNotEmpty());
      long offCycles = MODEL.model(g, BM1684X, off).cycles();
      long onCycles = MODEL.model(g, BM1684X, on).cycles();
      assertThat(onCycles).as(planner).isLessThan(offCycles);
      assertThat(plan(planner, p, "on").solution()).as(planner).isEqualTo(on);
    }
  }

  @Test
  void aBadMovesValueFailsNamingThePlanner() {
    for (String planner : List.of("group-dp-best", "group-timefold")) {
      assertThatThrownBy(
              () ->
                  Planners.<GroupProblem, Grouping>get(planner, GroupProblem.class)
                      .create(Map.of("lmem", "test-lmem-stack", "moves", "maybe")))
          .hasMessageContaining("planner '" + planner + "'")
          .hasMessageContaining("parameter 'moves' must be on or off, not 'maybe'");
    }
  }

  @Test
  void theDdrObjectiveMovesNothing() {
    Graph g = graph();
    GroupProblem p =
        GroupProblem.of(g, BM1684X, new GroupOptions(true, GroupOptions.Objective.DDR_BYTES));
    assertThat(plan("group-dp-best", p, "on").solution().groups())
        .allSatisfy(x -> assertThat(x.moves()).isEmpty());
  }

  private static GroupTimesteps withCapacity(GroupTimesteps t, long capacity) {
    LmemInstance i = t.lmem();
    return new GroupTimesteps(
        new LmemInstance(
            i.name(),
            capacity,
            i.banks(),
            capacity / i.banks(),
            i.euBytes(),
            i.buffers(),
            i.timesteps(),
            i.inPlace()),
        t.tensors(),
        t.stages());
  }

  private static Optional<TransferSearch.Assigned> exact(
      Graph g, Group base, GroupTimesteps t, long below) {
    return TransferSearch.exact(
        g,
        BM1684X,
        g.ops(),
        base.secs(),
        base.slices(),
        t,
        MODEL,
        List.of(),
        below,
        SolveContext.unlimited(),
        new TransferSearch.AssignmentBudget(10, 1));
  }

  /** The cheapest table of every legal assignment whose live bytes fit, by enumeration. */
  private static long bruteForce(Graph g, Group base, GroupTimesteps t) {
    List<List<Integer>> legal = TimestepMoves.legalRows(t);
    long best = Long.MAX_VALUE;
    int[] pick = new int[legal.size()]; // 0 = stay, i = legal.get(b).get(i - 1)
    while (true) {
      List<TransferMove> moves = new java.util.ArrayList<>();
      for (int b = 0; b < pick.length; b++) {
        if (pick[b] > 0) {
          moves.add(new TransferMove(b, legal.get(b).get(pick[b] - 1)));
        }
      }
      GroupTimesteps moved = ((TimestepMoves.Moved) TimestepMoves.apply(t, moves)).table();
      if (io.github.memplan.core.lmem.LmemLowerBounds.maxLive(moved.lmem())
          <= moved.lmem().capacity()) {
        best =
            Math.min(
                best, MODEL.group(g, g.ops(), BM1684X, base.secs(), base.slices(), moved).cycles());
      }
      int b = 0;
      while (b < pick.length && pick[b] == legal.get(b).size()) {
        pick[b++] = 0;
      }
      if (b == pick.length) {
        return best;
      }
      pick[b]++;
    }
  }

  /**
   * The exact assignment (CP-SAT) is the cheapest of every legal assignment that fits, by
   * enumeration: 3360 cycles with the chip's LMEM (y loaded under the conv, as the descent finds),
   * and with an LMEM just large enough for the unmoved table, too small for that one, whatever else
   * fits; below a cutoff at the optimum it finds nothing, one cycle above it the optimum again.
   */
  @Test
  void theExactAssignmentIsTheCheapestOfEveryLegalAssignmentThatFits() {
    Graph g = graph();
    // without pairs in place, the model's live bytes are the real ones (it counts a moved buffer
    // whole), so enumeration and CP-SAT must agree exactly
    Group base = unmoved(g, "today-no-in-place");
    assertThat(base.timesteps().lmem().inPlace()).isEmpty();
    int y = y(base.timesteps());
    GroupTimesteps early =
        ((TimestepMoves.Moved)
                TimestepMoves.apply(base.timesteps(), List.of(new TransferMove(y, 0))))
            .table();
    int banks = base.timesteps().lmem().banks();
    // whole banks, just too few for the table with y loaded early; then half of that
    long tight =
        (io.github.memplan.core.lmem.LmemLowerBounds.maxLive(early.lmem()) - 1) / banks * banks;
    long half = tight / 2 / banks * banks;
    int found = 0;
    for (long capacity : List.of(base.timesteps().lmem().capacity(), tight, half)) {
      GroupTimesteps t = withCapacity(base.timesteps(), capacity);
      long brute = bruteForce(g, base, t);
      Optional<TransferSearch.Assigned> got = exact(g, base, t, GroupEvaluator.MAX_COST);
      assertThat(got.isPresent()).as("capacity %d", capacity).isEqualTo(brute < Long.MAX_VALUE);
      if (got.isEmpty()) {
        continue;
      }
      found++;
      TransferSearch.Assigned a = got.get();
      long cycles =
          MODEL.group(g, g.ops(), BM1684X, base.secs(), base.slices(), a.table()).cycles();
      assertThat(a.optimal()).isTrue();
      assertThat(cycles).as("capacity %d", capacity).isEqualTo(brute);
      assertThat(io.github.memplan.core.lmem.LmemLowerBounds.maxLive(a.table().lmem()))
          .isLessThanOrEqualTo(capacity);
      assertThat(cycles).isEqualTo(3360); // only the chip's LMEM fits any table here
      for (long below : List.of(cycles, cycles + 1)) {
        Optional<TransferSearch.Assigned> cut = exact(g, base, t, below);
        assertThat(cut.isPresent()).as("below %d", below).isEqualTo(below > cycles);
      }
    }
    assertThat(found).isEqualTo(1);
  }
}
