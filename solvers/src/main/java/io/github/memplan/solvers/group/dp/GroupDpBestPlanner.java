package io.github.memplan.solvers.group.dp;

import io.github.memplan.core.group.CostModel;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingOutcomes;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.solvers.group.GroupEvaluator;
import io.github.memplan.solvers.group.LmemOracle;
import io.github.memplan.solvers.group.SecsSpace;
import io.github.memplan.solvers.group.TransferSearch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code group-dp-best}: TPU-MLIR's interval DP over op ranges ({@code
 * dynamic_programming_layer_group_with_cluster} in {@code GroupMethod.cpp}; {@code
 * reference/tpu-mlir.md} §2.4) in which every candidate group gets its <b>cheapest</b> valid shape
 * secs ({@link GroupEvaluator}, §2.5-2.6) instead of the first valid one, the opportunity §6.3
 * names ("Shape-secs: the default takes the first feasible secs, not the cheapest").
 *
 * <p>Per base group ({@link GroupProblem#baseGroups()}, §2.3) of {@code L} ops, with {@code
 * single(i, j)} the best group of ops {@code i..j} ({@link GroupEvaluator#rangeCost}: a lone op's
 * global cost, {@code MAX_COST} when invalid):
 *
 * <pre>
 * cost(i, i) = single(i, i)
 * cost(i, j) = min( min_{i <= m < j} cost(i, m) + cost(m+1, j),  single(i, j) )
 * </pre>
 *
 * over every range: there are no clusters (§2.4 groups {@code L / 50} ops into a cluster when
 * {@code L >= 100}; here every op is its own unit). On a tie the split is kept.
 *
 * <p><b>Why the DP is exact.</b> The op order is fixed and a grouping is a set of disjoint
 * contiguous ranges of it; the objective of a grouping ({@link CostModel#model}) is the sum of its
 * groups' costs and its global ops' costs, and the cost of a group depends only on its own range
 * and secs. A grouping of {@code i..j} is either the single group {@code i..j} or has a first part
 * ending at some {@code m < j}, and the rest is then a grouping of {@code m+1..j} whose cost adds
 * independently. So the minimum over all groupings of {@code i..j} satisfies the recurrence above
 * (optimal substructure), by induction on {@code j - i}. Base groups are independent for the same
 * reason: no group crosses an op that cannot join one. The result is the minimum over every cut of
 * the op order, given {@code single}, which is the minimum over the {@link SecsSpace} with the
 * chosen LMEM oracle.
 *
 * <p><b>Pruning that keeps exactness.</b> {@link GroupEvaluator#lowerBound} bounds {@code single(i,
 * j)} from below at every secs (under the roofline: the whole-op TIU cycles of its ops, and the
 * GDMA cycles of the bytes it must move at least once, its group outputs and its weights; proof
 * there). The splits are computed first; when the bound is {@code >=} the best split, {@code
 * single(i, j)} cannot win (ties go to the split) and the range is not evaluated at all. Otherwise
 * the range is evaluated with the best split as cutoff ({@link GroupEvaluator#tentativeBelow}):
 * secs costing as much as the split are dropped, since they cannot win either. Ranges with no valid
 * secs are memoised as invalid by the evaluator.
 *
 * <p><b>Placement only where it is needed.</b> The DP takes each range at the cost of its cheapest
 * candidate that passes the max-live check, without asking the LMEM oracle ({@link
 * GroupEvaluator#tentativeBelow}); then the groups of the cut it chose are placed ({@link
 * GroupEvaluator#confirm}). A refused candidate is dropped, its range's cost rises to the next
 * candidate's (or to invalid), and the DP runs again over the memo, until every chosen group holds
 * its cost. A tentative cost is at most the placed one (placing only drops candidates), so the
 * final cut, whose groups all hold their placed cost, costs at most every other cut at its
 * tentative costs, hence at most every other cut at its placed costs: the same optimum as placing
 * every range first, with a handful of oracle calls instead of one per evaluated range (yolov3 INT8
 * on bm1684x: 5 instead of 4461, and half the time).
 *
 * <p><b>Budget.</b> Anytime: the DP ranks ranges within all but a tenth of the time limit (at most
 * 1 s), which is kept back to place the groups it chooses. Once its part runs out, ranges not yet
 * evaluated count as invalid (every lone op still has its global cost) and the ones evaluated keep
 * their values; a chosen group that cannot be placed in the time kept back counts as invalid too,
 * and the DP chooses again. So the grouping is valid and the message says that the budget ran out.
 * After each base group the total objective of the best full cut known so far (finished base groups
 * at their DP optimum, the others all global) goes to the progress listener.
 *
 * <p><b>Transfer moves</b> ({@code moves=on}, the default): once the cut is chosen, every group of
 * it gets {@link GroupEvaluator#withMoves} (the {@link TransferSearch} post-pass: GDMA transfers
 * moved to other rows, as TPU-MLIR's opt=3 chooses their timesteps), which never makes a group
 * costlier. The DP itself costs ranges with unmoved tables, so with moves on the cut is optimal for
 * unmoved tables and then improved, not optimal over cuts and moves together.
 *
 * <p>Departures from TPU-MLIR: no clusters, no structure detection, the exhaustive secs space of
 * {@link SecsSpace} (capped at {@code max-iterations} loops) instead of the quick search; optional
 * {@code max-group-ops} cap on group length (none by default); the roofline cost model.
 */
public final class GroupDpBestPlanner implements Planner<GroupProblem, Grouping> {
  public static final String ID = "group-dp-best";

  /** Most time kept back from the DP for placing the groups it chose. */
  private static final Duration MAX_RESERVE = Duration.ofSeconds(1);

  private final LmemOracle oracle;
  private final CostModel costModel;
  private final int maxIterations;
  private final int maxGroupOps;
  private final boolean moves;

  /**
   * @param maxGroupOps longest group considered, 0 for no limit
   * @param moves whether every group of the answer gets the {@link TransferSearch} post-pass
   */
  public GroupDpBestPlanner(
      LmemOracle oracle, CostModel costModel, int maxIterations, int maxGroupOps, boolean moves) {
    if (maxGroupOps < 0) {
      throw new IllegalArgumentException(
          "planner '" + ID + "': max-group-ops must be >= 0: " + maxGroupOps);
    }
    this.oracle = oracle;
    this.costModel = costModel;
    this.maxIterations = maxIterations;
    this.maxGroupOps = maxGroupOps == 0 ? Integer.MAX_VALUE : maxGroupOps;
    this.moves = moves;
  }

  @Override
  public Outcome<Grouping> solve(GroupProblem p, SolveContext ctx) {
    // the DP ranks ranges within all but a tenth of the time limit (at most 1 s), kept back to
    // place the groups it chooses
    Duration reserve =
        ctx.budget()
            .limit()
            .map(l -> l.dividedBy(10).compareTo(MAX_RESERVE) < 0 ? l.dividedBy(10) : MAX_RESERVE)
            .orElse(Duration.ZERO);
    GroupEvaluator ev =
        new GroupEvaluator(
            p, ctx.withBudget(ctx.budget().keepingBack(reserve)), oracle, costModel, maxIterations);
    ev.confirmWithin(ctx);
    int n = p.order().size();
    long known = 0; // best full cut known: every op global, then base groups replaced one by one
    long[] global = new long[n];
    for (int i = 0; i < n; i++) {
      global[i] = ev.rangeCost(i, i);
      known += global[i];
    }
    long[] pruned = {0};
    List<int[]> ranges = new ArrayList<>();
    List<int[]> bases = ev.baseGroups();
    for (int b = 0; b < bases.size(); b++) {
      int s = bases.get(b)[0];
      int e = bases.get(b)[1];
      // the DP chooses by tentative values (no LMEM placement); its chosen ranges are then
      // placed, and while one is refused (its value rises) the DP runs again over the memo
      List<int[]> chosen = new ArrayList<>();
      long best;
      boolean placed;
      do {
        chosen.clear();
        best = dp(ev, s, e, chosen, pruned);
        placed = true;
        for (int[] r : chosen) {
          placed &= ev.confirm(r[0], r[1]);
        }
        // out of budget, tentativeBelow answers only ranges evaluated already, and confirm drops
        // a range it cannot place in the time kept back: the DP ends on placed groups
      } while (!placed);
      ranges.addAll(chosen);
      for (int i = s; i <= e; i++) {
        known -= global[i];
      }
      known += best;
      ctx.progress().improved(known, 0, "base group " + (b + 1) + "/" + bases.size());
    }
    ranges.sort(Comparator.comparingInt(r -> r[0]));
    List<Group> groups = new ArrayList<>();
    for (int[] r : ranges) {
      GroupEvaluator.Evaluated e = ev.best(r[0], r[1]).orElseThrow();
      Group g = e.group();
      if (moves) {
        g = ev.withMoves(g);
        known -= e.objective() - ev.objective(g);
      }
      groups.add(g);
    }
    Grouping grouping =
        new Grouping(Grouping.names(p.order()), ev.rules(), ev.timestepMethod(), groups);
    Map<String, Long> stats = new LinkedHashMap<>(ev.stats());
    stats.put("pruned-ranges", pruned[0]);
    stats.put("objective", known);
    return GroupingOutcomes.validated(
        ID,
        p,
        grouping,
        stats,
        ev.outOfBudget() ? "budget ran out; ranges not evaluated counted as invalid" : null);
  }

  /** The interval DP over the base group {@code s..e}; adds its groups to {@code out}. */
  private long dp(GroupEvaluator ev, int s, int e, List<int[]> out, long[] pruned) {
    int len = e - s + 1;
    long[][] cost = new long[len][len];
    int[][] cut = new int[len][len]; // cut[i][j] == j: the single group i..j
    for (int i = 0; i < len; i++) {
      cost[i][i] = ev.rangeCost(s + i, s + i);
      cut[i][i] = i;
    }
    for (int l = 2; l <= len; l++) {
      for (int i = 0; i + l - 1 < len; i++) {
        int j = i + l - 1;
        long best = GroupEvaluator.MAX_COST;
        int bestCut = j;
        for (int m = i; m < j; m++) {
          long sum = Math.min(GroupEvaluator.MAX_COST, cost[i][m] + cost[m + 1][j]);
          if (sum < best) {
            best = sum;
            bestCut = m;
          }
        }
        // out of budget, the evaluator still answers the ranges it has evaluated
        if (l <= maxGroupOps) {
          if (!ev.outOfBudget() && ev.lowerBound(s + i, s + j) >= best) {
            pruned[0]++;
          } else {
            var single = ev.tentativeBelow(s + i, s + j, best);
            if (single.isPresent()) {
              best = single.getAsLong();
              bestCut = j;
            }
          }
        }
        cost[i][j] = best;
        cut[i][j] = bestCut;
      }
    }
    expand(cut, s, 0, len - 1, out);
    return cost[0][len - 1];
  }

  private static void expand(int[][] cut, int s, int i, int j, List<int[]> out) {
    if (cut[i][j] == j) {
      if (j > i) {
        out.add(new int[] {s + i, s + j});
      }
      return;
    }
    expand(cut, s, i, cut[i][j], out);
    expand(cut, s, cut[i][j] + 1, j, out);
  }
}
