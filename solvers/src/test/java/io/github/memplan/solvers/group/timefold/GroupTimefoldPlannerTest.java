package io.github.memplan.solvers.group.timefold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupFixtures;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingValidator;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.group.GroupEvaluator;
import io.github.memplan.solvers.group.LmemOracle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code group-timefold} end to end on a small chain, packed by the {@code test-lmem-stack} double
 * (every buffer stacked, so a group fits when the sum of its buffers fits a 256 KiB bm1684x lane),
 * checked against brute force over all cuts with the evaluator's cheapest secs per range.
 */
class GroupTimefoldPlannerTest {
  private static final Chip BM1684X = Chips.get("bm1684x");
  private static final RooflineCostModel MODEL = new RooflineCostModel();

  /**
   * x[1,32,112,112] f32 → conv 3x3 → relu → conv 3x3/s2 → relu → conv 3x3 → relu → global average
   * pool → relu: eight ops, activations of 49 KiB per lane at full height, so long groups need H
   * slices and the pool (which refuses an H split) caps what can join it.
   */
  static Graph chain() {
    return GroupFixtures.convReluChain("chain8", 32, 112, 3, 1);
  }

  private static GroupProblem problem() {
    return GroupProblem.of(chain(), BM1684X, new GroupOptions(true, GroupOptions.Objective.CYCLES));
  }

  private static Planner<GroupProblem, Grouping> planner(Map<String, String> params) {
    Map<String, String> all = new HashMap<>(Map.of("lmem", "test-lmem-stack", "start", "none"));
    all.putAll(params);
    return Planners.<GroupProblem, Grouping>get("group-timefold", GroupProblem.class).create(all);
  }

  private static long cycles(GroupProblem p, Grouping g) {
    return MODEL.model(p.graph(), p.chip(), g).cycles();
  }

  private static Outcome<Grouping> solve(Map<String, String> params, SolveContext ctx) {
    GroupProblem p = problem();
    Outcome<Grouping> o = planner(params).solve(p, ctx);
    assertThat(o.status()).as(o.message()).isEqualTo(Status.FEASIBLE);
    assertThat(new GroupingValidator().validate(p, o.solution())).isEmpty();
    return o;
  }

  /** The cheapest total over every cut set of the base groups, each run at its cheapest secs. */
  private static long bruteForce(GroupProblem p) {
    GroupEvaluator ev =
        new GroupEvaluator(
            p,
            SolveContext.unlimited(),
            LmemOracle.of("test", "test-lmem-stack"),
            MODEL,
            GroupEvaluator.DEFAULT_MAX_ITERATIONS);
    int n = p.order().size();
    long total = 0;
    boolean[] inBase = new boolean[n];
    for (int[] b : ev.baseGroups()) {
      int m = b[1] - b[0];
      long best = Long.MAX_VALUE;
      for (int mask = 0; mask < 1 << m; mask++) { // bit i: cut after op b[0] + i
        long sum = 0;
        int start = b[0];
        for (int i = b[0]; i <= b[1]; i++) {
          if (i == b[1] || (mask >> (i - b[0]) & 1) == 1) {
            sum = Math.min(GroupEvaluator.MAX_COST, sum + ev.rangeCost(start, i));
            start = i + 1;
          }
        }
        best = Math.min(best, sum);
      }
      total += best;
      for (int i = b[0]; i <= b[1]; i++) {
        inBase[i] = true;
      }
    }
    for (int i = 0; i < n; i++) {
      if (!inBase[i]) {
        total += ev.rangeCost(i, i);
      }
    }
    return total;
  }

  @Test
  void fromEveryOpGlobalTheSearchReachesTheBruteForceOptimum() {
    GroupProblem p = problem();
    assertThat(p.order()).hasSize(8);
    long optimum = bruteForce(p);
    Outcome<Grouping> o = solve(Map.of(), SolveContext.of(0, Budget.unlimited()));
    long got = cycles(p, o.solution());
    assertThat(got).isEqualTo(optimum);
    assertThat(got).isLessThan(MODEL.ungrouped(p.graph(), p.order(), BM1684X).cycles());
    assertThat(o.solution().groups()).isNotEmpty();
  }

  @Test
  void startedFromTheExactDpItKeepsItsOptimum() {
    GroupProblem p = problem();
    Outcome<Grouping> o = solve(Map.of("start", "group-dp-best"), SolveContext.unlimited());
    assertThat(cycles(p, o.solution())).isEqualTo(bruteForce(p));
    assertThat(o.stats().get("start-cost")).isEqualTo((double) cycles(p, o.solution()));
  }

  @Test
  void sameSeedAndStepCapGiveTheSameGrouping() {
    List<List<String>> out = new ArrayList<>();
    for (int rep = 0; rep < 2; rep++) {
      Outcome<Grouping> o = solve(Map.of(), SolveContext.of(5, Budget.of(null, 60)));
      List<String> groups = new ArrayList<>();
      for (Group g : o.solution().groups()) {
        groups.add(g.first() + ".." + g.last() + " " + g.secs());
      }
      out.add(groups);
      assertThat(o.stats()).containsEntry("move-evaluations", 60.0);
    }
    assertThat(out.get(1)).isEqualTo(out.get(0));
  }

  /** Anytime: each improvement reported is strictly below the previous one, the last the answer. */
  @Test
  void progressReportsEachBetterTotalDownToTheAnswer() {
    List<Long> seen = new ArrayList<>();
    GroupProblem p = problem();
    Outcome<Grouping> o =
        planner(Map.of())
            .solve(
                p,
                SolveContext.of(0, Budget.unlimited())
                    .withProgress((best, bound, note) -> seen.add(best)));
    assertThat(seen).hasSizeGreaterThan(1);
    for (int i = 1; i < seen.size(); i++) {
      assertThat(seen.get(i)).isLessThan(seen.get(i - 1));
    }
    assertThat(seen.get(seen.size() - 1)).isEqualTo(cycles(p, o.solution()));
  }

  @Test
  void aCancelledBudgetStillAnswersAValidGrouping() {
    Outcome<Grouping> o = solve(Map.of(), SolveContext.of(0, Budget.cancelledNow()));
    assertThat(o.solution().groups()).isEmpty(); // searched nothing from every op global
  }

  @Test
  void badParametersFailNamingThePlanner() {
    assertThatThrownBy(() -> planner(Map.of("nope", "1")))
        .hasMessageContaining("group-timefold")
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> planner(Map.of("start", "group-timefold")))
        .hasMessageContaining("group-timefold");
    assertThatThrownBy(() -> planner(Map.of("start", "no-such-planner")))
        .hasMessageContaining("no-such-planner");
    assertThatThrownBy(() -> planner(Map.of("unimproved-steps", "-1")))
        .hasMessageContaining("group-timefold");
    assertThatThrownBy(() -> planner(Map.of("local-search", "random")))
        .hasMessageContaining("group-timefold");
  }
}
