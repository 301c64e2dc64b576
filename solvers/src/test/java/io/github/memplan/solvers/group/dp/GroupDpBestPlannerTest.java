package io.github.memplan.solvers.group.dp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupBoundary;
import io.github.memplan.core.group.GroupCandidate;
import io.github.memplan.core.group.GroupCost;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.GroupType;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingBound;
import io.github.memplan.core.group.GroupingValidator;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.group.ShapeSecs;
import io.github.memplan.core.group.ShapeSecsBounds;
import io.github.memplan.core.group.SliceRules;
import io.github.memplan.core.group.StackLmemPlanner;
import io.github.memplan.core.group.Timesteps2026;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.lmem.LmemValidator;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.group.GroupChains;
import io.github.memplan.solvers.group.GroupEvaluator;
import io.github.memplan.solvers.group.LmemOracle;
import io.github.memplan.solvers.group.RooflineBounds;
import io.github.memplan.solvers.group.SecsSpace;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * group-dp-best on hand-built chains on bm1684x (64 lanes, 256 KiB each, EU 64 B; TIU 1000 MHz and
 * DDR 64 GB/s, so a GDMA cycle moves 64 bytes), packed by the {@code test-lmem-stack} double (every
 * buffer stacked, so a group fits when the sum of its buffers fits a lane).
 */
class GroupDpBestPlannerTest {
  private static final Chip BM1684X = Chips.get("bm1684x");
  private static final RooflineCostModel MODEL = new RooflineCostModel();

  private static GroupProblem problem(Graph g, boolean h2, GroupOptions.Objective objective) {
    return GroupProblem.of(g, BM1684X, new GroupOptions(h2, objective));
  }

  private static Outcome<Grouping> plan(GroupProblem p, Map<String, String> extra) {
    Map<String, String> params = new java.util.TreeMap<>(extra);
    params.putIfAbsent("lmem", "test-lmem-stack");
    params.putIfAbsent("max-iterations", "64");
    Outcome<Grouping> o =
        Planners.<GroupProblem, Grouping>get("group-dp-best", GroupProblem.class)
            .create(params)
            .solve(p, SolveContext.unlimited());
    assertThat(o.status()).isEqualTo(Status.FEASIBLE);
    assertThat(new GroupingValidator().validate(p, o.solution())).isEmpty();
    return o;
  }

  private static long objective(GroupProblem p, GroupCost c) {
    return p.options().objective() == GroupOptions.Objective.DDR_BYTES ? c.ddrBytes() : c.cycles();
  }

  private static List<String> cut(Grouping g) {
    List<String> out = new ArrayList<>();
    for (Group x : g.groups()) {
      out.add(x.first() + ".." + x.last() + " " + x.secs());
    }
    return out;
  }

  /**
   * Brute force, independent of {@link GroupEvaluator}: per range, every secs of the space that
   * slices, whose table the stack double places, at its cost; then every cut of the chain.
   */
  private static long bruteForce(GroupProblem p, int maxIterations) {
    Graph graph = p.graph();
    List<Op> order = p.order();
    int n = order.size();
    long[][] single = new long[n][n];
    SliceRules rules = p.options().rules(SliceRules.TODAY);
    for (int i = 0; i < n; i++) {
      single[i][i] = objective(p, MODEL.globalOp(graph, order.get(i), BM1684X));
      for (int j = i + 1; j < n; j++) {
        List<Op> ops = order.subList(i, j + 1);
        ShapeSecs max = ShapeSecsBounds.maxSecs(graph, ops, BM1684X);
        single[i][j] = Long.MAX_VALUE;
        if (ShapeSecsBounds.initialSecs(graph, ops, BM1684X, max).isEmpty()) {
          continue;
        }
        for (ShapeSecs s :
            SecsSpace.of(graph, ops, BM1684X, GroupType.of(graph, ops, BM1684X), max, maxIterations)
                .secs()) {
          GroupCandidate c =
              GroupCandidate.build("bf", graph, ops, BM1684X, s, rules, new Timesteps2026());
          if (c instanceof GroupCandidate.Built b) {
            var inst = b.timesteps().lmem();
            var placed = new StackLmemPlanner().solve(inst, SolveContext.unlimited());
            if (placed.status().hasSolution()
                && new LmemValidator().isValid(inst, placed.solution())) {
              GroupCost cost =
                  MODEL.group(graph, ops, BM1684X, s, b.slices().slices(), b.timesteps());
              single[i][j] = Math.min(single[i][j], objective(p, cost));
            }
          }
        }
      }
    }
    long best = Long.MAX_VALUE;
    for (int mask = 0; mask < 1 << (n - 1); mask++) { // bit i: cut after op i
      long total = 0;
      int start = 0;
      for (int i = 0; i < n && total != Long.MAX_VALUE; i++) {
        if (i == n - 1 || (mask >> i & 1) == 1) {
          total = single[start][i] == Long.MAX_VALUE ? Long.MAX_VALUE : total + single[start][i];
          start = i + 1;
        }
      }
      best = Math.min(best, total);
    }
    return best;
  }

  /**
   * The DP ranks ranges without placing them and places only the groups it chose, choosing again
   * when one is refused: the refusals happen here (the stack oracle refuses the cheapest secs of
   * some ranges under the DDR objective), and the answer is still the brute force's.
   */
  @Test
  void equalsBruteForceOverAllCutsAndSecsOnSmallChains() {
    double refused = 0;
    for (Graph g :
        List.of(
            GroupChains.convReluPool(2, 64, 64, 64),
            GroupChains.convReluPool(2, 64, 128, 128),
            GroupChains.relus(4, 64, 128, 256))) {
      for (GroupOptions.Objective obj : GroupOptions.Objective.values()) {
        for (boolean h2 : new boolean[] {true, false}) {
          GroupProblem p = problem(g, h2, obj);
          Outcome<Grouping> o = plan(p, Map.of());
          refused += o.stats().get("confirm-failures");
          long expected = bruteForce(p, 64);
          // lower-bound-cycles / lower-bound-ddr-bytes never exceed the best of all cuts × secs
          GroupingBound.Totals bound = GroupingBound.of(p).totals();
          assertThat(obj == GroupOptions.Objective.DDR_BYTES ? bound.ddrBytes() : bound.cycles())
              .as("bound %s %s h2=%s", g.name(), obj, h2)
              .isLessThanOrEqualTo(expected);
          assertThat(objective(p, MODEL.model(g, BM1684X, o.solution())))
              .as("%s %s h2=%s", g.name(), obj, h2)
              .isEqualTo(expected);
          assertThat(o.stats()).containsEntry("objective", (double) expected);
        }
      }
    }
    assertThat(refused).as("refused placements of chosen groups").isPositive();
  }

  @Test
  void takesTheCheapestSecsWhereTheQuickSearchStopsAtTheFirstValidOne() {
    // relu → relu on 1x64x64x64 f32: 16 KiB per lane per activation, so x + relu0 + relu1 = 48 KiB
    // fit one lane and the quick search stops at its initial secs n1h1 (the first valid one).
    // Work: 64·64·64 elements / (64 lanes · 16 f32 per EU) = 256 TIU cycles per relu; x and relu1
    // are 1 MiB = 16384 GDMA cycles. Pipelined table: row 0 relu0 | store relu1 (stage 2),
    // row 1 relu1 | load x (stage 0).
    // h1, 3 steps: load x 16384, relu0 256, relu1 256, store 16384 = 33280 cycles.
    // h64 (one row per slice: 4 TIU cycles, 256 GDMA cycles), 66 steps: 256 (load 0) + 4 + 256
    //   + 62 · (256 + 256) + 256 + 4 + 256 (store 63) = 32776 cycles: the cheapest of the space
    Graph g = GroupChains.relus(2, 64, 64, 64);
    GroupProblem p = problem(g, true, GroupOptions.Objective.CYCLES);
    List<Op> ops = p.order();
    ShapeSecs max = ShapeSecsBounds.maxSecs(g, ops, BM1684X);
    assertThat(ShapeSecsBounds.initialSecs(g, ops, BM1684X, max)).contains(ShapeSecs.ONE);
    GroupEvaluator ev =
        new GroupEvaluator(
            p,
            SolveContext.unlimited(),
            LmemOracle.of("test", "test-lmem-stack"),
            MODEL,
            GroupEvaluator.DEFAULT_MAX_ITERATIONS);
    GroupEvaluator.Evaluated best = ev.best(0, 1).orElseThrow();
    assertThat(best.group().secs()).isEqualTo(new ShapeSecs(1, 1, 64, 1));
    assertThat(best.objective()).isEqualTo(32776);
    GroupCandidate.Built first =
        (GroupCandidate.Built)
            GroupCandidate.build(
                "h1", g, ops, BM1684X, ShapeSecs.ONE, ev.rules(), new Timesteps2026());
    assertThat(
            MODEL
                .group(g, ops, BM1684X, ShapeSecs.ONE, first.slices().slices(), first.timesteps())
                .cycles())
        .isEqualTo(33280);
    Outcome<Grouping> o = plan(p, Map.of("max-iterations", "256"));
    assertThat(cut(o.solution())).containsExactly("0..1 n1c1h64w1");
  }

  @Test
  void theObjectiveChoosesTheGrouping() {
    // relu → relu: DDR bytes are 2 MiB at every secs (no halo), so the tie goes to the fewest
    // loops; cycles prefer the pipelined h64 (previous test)
    GroupProblem ddr =
        problem(GroupChains.relus(2, 64, 64, 64), true, GroupOptions.Objective.DDR_BYTES);
    assertThat(cut(plan(ddr, Map.of()).solution())).containsExactly("0..1 n1c1h1w1");
    // conv → relu → conv → relu → pool on 1x64x64x64: DDR bytes are least with everything in one
    // group; cycles are least with conv0 global (its weights and input move while nothing else
    // runs in a one-iteration group, so it is cheaper alone) and the rest pipelined in 16 h-slices:
    // §2.8(c) rebalancing moves the rest's input load (conv0, from pool's row) and output store
    // (pool, from relu0's row) into conv1's row, where conv1's TIU time hides them in every
    // iteration, so more slices only shorten the filling and draining (bm1684x cycles of 1..4 at
    // h1, h2, h4, h8, h16: 170752, 160900, 155860, 153364, 152164)
    Graph crp = GroupChains.convReluPool(2, 64, 64, 64);
    Grouping byDdr =
        plan(problem(crp, true, GroupOptions.Objective.DDR_BYTES), Map.of()).solution();
    Grouping byCycles =
        plan(problem(crp, true, GroupOptions.Objective.CYCLES), Map.of()).solution();
    assertThat(cut(byDdr)).containsExactly("0..4 n1c1h1w1");
    assertThat(cut(byCycles)).containsExactly("1..4 n1c1h16w1");
    assertThat(MODEL.model(crp, BM1684X, byDdr).ddrBytes())
        .isLessThan(MODEL.model(crp, BM1684X, byCycles).ddrBytes());
    assertThat(MODEL.model(crp, BM1684X, byCycles).cycles())
        .isLessThan(MODEL.model(crp, BM1684X, byDdr).cycles());
  }

  @Test
  void lowerBoundsNeverExceedWhatTheyBound() {
    for (GroupOptions.Objective obj : GroupOptions.Objective.values()) {
      Graph g = GroupChains.convReluPool(2, 64, 128, 128);
      GroupProblem p = problem(g, false, obj);
      GroupEvaluator ev =
          new GroupEvaluator(
              p, SolveContext.unlimited(), LmemOracle.of("test", "test-lmem-stack"), MODEL, 64);
      RooflineBounds bounds = new RooflineBounds(MODEL, p, "today");
      int checked = 0;
      for (int i = 0; i < p.order().size(); i++) {
        for (int j = i + 1; j < p.order().size(); j++) {
          List<Op> ops = p.order().subList(i, j + 1);
          GroupBoundary groupIo = GroupBoundary.of(g, ops);
          for (ShapeSecs s :
              SecsSpace.of(
                      g,
                      ops,
                      BM1684X,
                      GroupType.of(g, ops, BM1684X),
                      ShapeSecsBounds.maxSecs(g, ops, BM1684X),
                      64)
                  .secs()) {
            if (GroupCandidate.build("lb", g, ops, BM1684X, s, ev.rules(), new Timesteps2026())
                instanceof GroupCandidate.Built b) {
              long cost =
                  objective(p, MODEL.group(g, ops, BM1684X, s, b.slices().slices(), b.timesteps()));
              assertThat(bounds.sliced(ops, groupIo, b.slices().slices()))
                  .isLessThanOrEqualTo(cost);
              assertThat(ev.lowerBound(i, j)).isLessThanOrEqualTo(cost);
              checked++;
            }
          }
        }
      }
      assertThat(checked).isGreaterThan(100);
    }
  }

  @Test
  void deterministicAndValidated() {
    GroupProblem p =
        problem(GroupChains.convReluPool(2, 64, 128, 128), true, GroupOptions.Objective.CYCLES);
    Outcome<Grouping> a = plan(p, Map.of());
    Outcome<Grouping> b = plan(p, Map.of());
    assertThat(b.solution()).isEqualTo(a.solution());
    assertThat(b.stats()).isEqualTo(a.stats());
  }

  @Test
  void anExhaustedBudgetStillGivesAValidGroupingAndSaysSo() {
    GroupProblem p =
        problem(GroupChains.convReluPool(2, 64, 64, 64), true, GroupOptions.Objective.CYCLES);
    Outcome<Grouping> o =
        Planners.<GroupProblem, Grouping>get("group-dp-best", GroupProblem.class)
            .create(Map.of("lmem", "test-lmem-stack"))
            .solve(p, SolveContext.of(1, Budget.cancelledNow()));
    assertThat(o.status()).isEqualTo(Status.FEASIBLE);
    assertThat(new GroupingValidator().validate(p, o.solution())).isEmpty();
    assertThat(o.solution().groups()).isEmpty();
    assertThat(o.message()).contains("budget ran out");
  }

  /**
   * Once the ranking budget has run out, the ranges ranked before still answer and are placed
   * within the placing budget (group-dp-best keeps a tenth of the limit back for it), ranges never
   * ranked answer empty, and a range that cannot be placed in time answers empty from then on: the
   * DP then ends on placed groups and global ops.
   */
  @Test
  void aBudgetThatRunsOutWhileRankingStillPlacesTheRangesRankedBefore() {
    GroupProblem p = problem(GroupChains.relus(6, 64, 64, 64), true, GroupOptions.Objective.CYCLES);
    LmemOracle stack = LmemOracle.of("test", "test-lmem-stack");
    Budget ranking = Budget.of(java.time.Duration.ofSeconds(30));
    GroupEvaluator ev = new GroupEvaluator(p, SolveContext.of(1, ranking), stack, MODEL, 64);
    ev.confirmWithin(SolveContext.of(1, Budget.of(java.time.Duration.ofSeconds(30))));
    long ranked = ev.tentativeBelow(0, 1, GroupEvaluator.MAX_COST).orElseThrow();
    ranking.cancel();
    assertThat(ev.tentativeBelow(0, 1, GroupEvaluator.MAX_COST)).hasValue(ranked);
    assertThat(ev.tentativeBelow(2, 3, GroupEvaluator.MAX_COST)).isEmpty();
    assertThat(ev.outOfBudget()).isTrue();
    assertThat(ev.confirm(0, 1)).isTrue();
    assertThat(ev.best(0, 1).orElseThrow().objective()).isEqualTo(ranked);

    GroupEvaluator starved =
        new GroupEvaluator(
            p, SolveContext.of(1, Budget.of(java.time.Duration.ofSeconds(30))), stack, MODEL, 64);
    starved.confirmWithin(SolveContext.of(1, Budget.cancelledNow()));
    assertThat(starved.tentativeBelow(2, 3, GroupEvaluator.MAX_COST)).isPresent();
    assertThat(starved.confirm(2, 3)).isFalse();
    assertThat(starved.tentativeBelow(2, 3, GroupEvaluator.MAX_COST)).isEmpty();
    assertThat(starved.stats()).containsEntry("budget-dropped", 1L);
  }

  @Test
  void maxGroupOpsLimitsTheGroups() {
    GroupProblem p =
        problem(GroupChains.convReluPool(2, 64, 64, 64), true, GroupOptions.Objective.DDR_BYTES);
    Outcome<Grouping> o = plan(p, Map.of("max-group-ops", "2"));
    assertThat(o.solution().groups()).isNotEmpty().allMatch(g -> g.size() <= 2);
  }

  @Test
  void badParametersFailNamingThePlanner() {
    var provider = Planners.<GroupProblem, Grouping>get("group-dp-best", GroupProblem.class);
    assertThatThrownBy(() -> provider.create(Map.of("lmem", "test-lmem-stack", "bogus", "1")))
        .hasMessageContaining("group-dp-best")
        .hasMessageContaining("bogus");
    assertThatThrownBy(() -> provider.create(Map.of("lmem", "test-lmem-stack+no-such-planner")))
        .hasMessageContaining("group-dp-best")
        .hasMessageContaining("no-such-planner");
    assertThatThrownBy(
            () -> provider.create(Map.of("lmem", "test-lmem-stack", "max-iterations", "0")))
        .hasMessageContaining("group-dp-best");
  }

  @Test
  void theOracleChainAsksTheNextPlannerOnlyWhenTheFirstFails() {
    // conv → relu → conv → relu → pool on 1x128x128x128: the stack double fails on the cheapest
    // secs of the whole chain before one fits, so a chain of two asks the second planner once per
    // failed placement and finds the same group
    GroupProblem p =
        problem(GroupChains.convReluPool(2, 128, 128, 128), true, GroupOptions.Objective.CYCLES);
    GroupEvaluator one =
        new GroupEvaluator(
            p, SolveContext.unlimited(), LmemOracle.of("test", "test-lmem-stack"), MODEL, 64);
    LmemOracle chain = LmemOracle.of("test", "test-lmem-stack+test-lmem-stack");
    assertThat(chain.spec()).isEqualTo("test-lmem-stack+test-lmem-stack");
    GroupEvaluator two = new GroupEvaluator(p, SolveContext.unlimited(), chain, MODEL, 64);
    var a = one.best(0, 4);
    var b = two.best(0, 4);
    assertThat(b.map(e -> e.group().secs())).isEqualTo(a.map(e -> e.group().secs()));
    long calls = one.stats().get("oracle-calls");
    long failed = calls - (a.isPresent() ? 1 : 0);
    assertThat(failed).isPositive();
    assertThat(two.stats().get("oracle-calls")).isEqualTo(calls + failed);
  }
}
