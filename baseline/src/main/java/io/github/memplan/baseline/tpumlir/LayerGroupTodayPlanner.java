package io.github.memplan.baseline.tpumlir;

import io.github.memplan.core.cost.CostModel;
import io.github.memplan.core.cost.GroupCost;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingOutcomes;
import io.github.memplan.core.group.SliceRules;
import io.github.memplan.core.group.TimestepMethod;
import io.github.memplan.core.group.TodayTimesteps;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * TPU-MLIR's current LayerGroup search ({@code GroupMethod.cpp}; {@code reference/tpu-mlir.md}
 * §2.3-2.6): base groups cut at every op that cannot join a group, then per base group either
 *
 * <ul>
 *   <li>{@link Mode#GREEDY}, {@code opt=1} ({@code simple_layer_group}): from the tail, the longest
 *       valid group {@code [start..end]} with the smallest {@code start}; a lone op stays global;
 *   <li>{@link Mode#DP}, {@code opt=2} ({@code dynamic_programming_layer_group_with_cluster}):
 *       clusters ({@code max_cluster = max(L / 50, 1)}; with more than one op per cluster the same
 *       interval DP over windows of at most {@code max_cluster} ops gives them), then the interval
 *       DP {@code cost[i][j] = min(single[i][j], min_k cost[i][k] + cost[k+1][j])} over clusters, a
 *       strictly smaller split winning, and the recursive expansion of the cuts.
 * </ul>
 *
 * A candidate group is checked as {@code is_layer_group_valid} does (§2.5): the shape-secs quick
 * search ({@link ShapeSecsSearch}) with today's slicing ({@link SliceRules#TODAY}: the h/2 rule
 * off, as today's TPU-MLIR has {@code check_hsecs} commented out, unless {@link
 * GroupOptions#h2Rule()} forces it on; each group typed NORMAL, MM or SMALL_C by {@code
 * set_group_type}, {@link io.github.memplan.core.group.GroupType}) and today's timesteps ({@link
 * TodayTimesteps}); its cost is the {@link CostModel}'s cycles (or DDR bytes when the problem's
 * objective says so) under the first valid secs, and a single op costs its global-layer cost.
 * Evaluations are memoised per op range (the role of LgCache), so the DP evaluates each range once.
 *
 * <p>Departures: structure detection ({@code dynamic_programming_with_structure_detect}) is not
 * implemented; strategy 1's re-evaluation with wider secs search is not done (strategy 0, the
 * default); GROUP_3D and the 3-D special case of base groups are not modelled; the cost model is
 * the roofline surrogate, not the backend's dry run. When the budget runs out, ranges not yet
 * evaluated count as invalid, so the grouping stays valid with more ops global.
 */
public final class LayerGroupTodayPlanner implements Planner<GroupProblem, Grouping> {
  /** {@code MAX_GROUP_CLUSTER}. */
  static final int MAX_GROUP_CLUSTER = 50;

  /** The cost of an invalid group ({@code MAX_COST}), far from overflow when two are added. */
  static final long MAX_COST = Long.MAX_VALUE / 4;

  /** Search mode. */
  public enum Mode {
    GREEDY,
    DP
  }

  private final Mode mode;
  private final Planner<LmemInstance, LmemSolution> lmem;
  private final String lmemId;
  private final CostModel costModel;

  public LayerGroupTodayPlanner(
      Mode mode, Planner<LmemInstance, LmemSolution> lmem, String lmemId, CostModel costModel) {
    this.mode = mode;
    this.lmem = lmem;
    this.lmemId = lmemId;
    this.costModel = costModel;
  }

  private String id() {
    return mode == Mode.GREEDY ? "tpumlir-greedy" : "tpumlir-dp";
  }

  /** One solve's state: the problem and the memo of evaluated ranges. */
  private final class Run {
    final GroupProblem p;
    final SolveContext ctx;
    final SliceRules rules;
    final ShapeSecsSearch search;
    final Map<Long, Optional<ShapeSecsSearch.Found>> memo = new HashMap<>();
    final long[] tries = {0};
    boolean outOfBudget;

    Run(GroupProblem p, SolveContext ctx) {
      this.p = p;
      this.ctx = ctx;
      this.rules = p.options().rules(SliceRules.TODAY);
      this.search = new ShapeSecsSearch(lmem, lmemId, costModel, new TodayTimesteps());
    }

    /** The group {@code first..last} of the order, memoised; empty when invalid. */
    Optional<ShapeSecsSearch.Found> group(int first, int last) {
      long key = (long) first * p.order().size() + last;
      Optional<ShapeSecsSearch.Found> got = memo.get(key);
      if (got != null) {
        return got;
      }
      if (ctx.budget().exhausted()) {
        outOfBudget = true;
        return Optional.empty(); // not memoised: the budget, not the group, is at fault
      }
      List<Op> ops = p.order().subList(first, last + 1);
      String name = p.graph().name() + "/g" + first + "-" + last;
      Optional<ShapeSecsSearch.Found> f =
          search.search(name, p.graph(), ops, first, last, p.chip(), rules, tries, ctx);
      if (f.isEmpty() && ctx.budget().exhausted()) {
        outOfBudget = true;
        return f;
      }
      memo.put(key, f);
      return f;
    }

    long cost(GroupCost c) {
      return p.options().objective() == GroupOptions.Objective.DDR_BYTES
          ? c.ddrBytes()
          : c.cycles();
    }

    /** Cost of the range {@code first..last}: global cost for one op, MAX_COST when invalid. */
    long rangeCost(int first, int last) {
      if (first == last) {
        return cost(costModel.globalOp(p.graph(), p.order().get(first), p.chip()));
      }
      return group(first, last).map(f -> cost(f.cost())).orElse(MAX_COST);
    }
  }

  @Override
  public Outcome<Grouping> solve(GroupProblem p, SolveContext ctx) {
    Run run = new Run(p, ctx);
    List<int[]> ranges = new ArrayList<>(); // chosen ranges of two ops or more
    for (int[] base : p.baseGroups()) {
      if (mode == Mode.GREEDY) {
        greedy(run, base[0], base[1], ranges);
      } else {
        dp(run, base[0], base[1], ranges);
      }
    }
    ranges.sort(java.util.Comparator.comparingInt(r -> r[0]));
    List<Group> groups = new ArrayList<>();
    for (int[] r : ranges) {
      groups.add(run.group(r[0], r[1]).orElseThrow().group());
    }
    Grouping grouping =
        new Grouping(
            Grouping.names(p.order()), run.rules, TimestepMethod.get("today").id(), groups);
    return GroupingOutcomes.validated(
        id(),
        p,
        grouping,
        Map.of("evaluations", run.memo.size(), "tries", run.tries[0]),
        run.outOfBudget ? "budget ran out; ranges not evaluated counted as invalid" : null);
  }

  /** {@code simple_layer_group} over the base group {@code s..e}. */
  private static void greedy(Run run, int s, int e, List<int[]> ranges) {
    int end = e;
    while (end > s) {
      int start = s;
      while (start < end) {
        if (run.group(start, end).isPresent()) {
          ranges.add(new int[] {start, end});
          end = start - 1;
          break;
        }
        start++;
      }
      if (start == end) {
        end--;
      }
    }
  }

  /** The interval DP with clusters over the base group {@code s..e}. */
  private static void dp(Run run, int s, int e, List<int[]> ranges) {
    int len = e - s + 1;
    if (len < 2) {
      return;
    }
    int maxCluster = Math.max(len / MAX_GROUP_CLUSTER, 1);
    List<int[]> clusters = new ArrayList<>();
    if (maxCluster == 1) {
      for (int i = s; i <= e; i++) {
        clusters.add(new int[] {i, i});
      }
    } else {
      List<int[]> ops = new ArrayList<>();
      for (int i = s; i <= e; i++) {
        ops.add(new int[] {i, i});
      }
      clusters = intervalDp(run, ops, maxCluster);
    }
    for (int[] r : intervalDp(run, clusters, clusters.size())) {
      if (r[1] > r[0]) {
        ranges.add(r);
      }
    }
  }

  /**
   * The interval DP over {@code units} (contiguous op ranges), groups of at most {@code window}
   * units; returns the op ranges of the optimal cut.
   */
  static List<int[]> intervalDp(Run run, List<int[]> units, int window) {
    int k = units.size();
    long[][] cost = new long[k][k];
    int[][] cut = new int[k][k];
    for (int i = 0; i < k; i++) {
      cost[i][i] = run.rangeCost(units.get(i)[0], units.get(i)[1]);
      cut[i][i] = i;
    }
    for (int len = 2; len <= k; len++) {
      for (int i = 0; i + len - 1 < k; i++) {
        int j = i + len - 1;
        cost[i][j] = len <= window ? run.rangeCost(units.get(i)[0], units.get(j)[1]) : MAX_COST;
        cut[i][j] = j;
        for (int m = i; m < j; m++) {
          long sum = Math.min(MAX_COST, cost[i][m] + cost[m + 1][j]);
          if (sum < cost[i][j]) {
            cost[i][j] = sum;
            cut[i][j] = m;
          }
        }
      }
    }
    List<int[]> out = new ArrayList<>();
    expand(units, cut, 0, k - 1, out);
    return out;
  }

  private static void expand(List<int[]> units, int[][] cut, int i, int j, List<int[]> out) {
    if (cut[i][j] == j) {
      out.add(new int[] {units.get(i)[0], units.get(j)[1]});
      return;
    }
    expand(units, cut, i, cut[i][j], out);
    expand(units, cut, cut[i][j] + 1, j, out);
  }
}
