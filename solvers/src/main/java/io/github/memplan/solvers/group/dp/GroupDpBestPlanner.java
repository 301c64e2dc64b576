package io.github.memplan.solvers.group.dp;

import io.github.memplan.core.group.CostModel;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingMetrics;
import io.github.memplan.core.group.GroupingOutcomes;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.solvers.group.GroupEvaluator;
import io.github.memplan.solvers.group.LmemOracle;
import io.github.memplan.solvers.group.SecsSpace;
import io.github.memplan.solvers.group.TransferSearch;
import io.github.memplan.solvers.ortools.Natives;
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
 * <p><b>Assigning again where it could pay</b> (cycles objective). The DP costs an over-full table
 * (live bytes above the LMEM) with the exact transfer assignment of {@link TransferSearch#exact}
 * under a small share of CP-SAT's deterministic time, and the DP asks short ranges first, so a long
 * range may be left with its shortest lives. After each base group's DP, the ranges left unproven
 * ({@link GroupEvaluator#unproven}) whose lower bound, between the DP's best cuts before and after
 * them, leaves at least {@value #DEEPEN_MIN_GAIN} of the base group's value (ranked by {@link
 * GroupEvaluator#lowerBound}, confirmed by {@link GroupEvaluator#everySecsBound}) are assigned
 * again with {@value #DEEPEN_PER_RANGE} units each, {@value #DEEPEN_DETERMINISTIC_TIME} in all
 * ({@link GroupEvaluator#deepen}); a range that gets cheaper and is placed takes its new value and
 * the DP chooses again. Deterministic: CP-SAT's deterministic time on one worker. On resnet50 BF16
 * (bm1684x) the whole network as one group, 2298393 cycles at its shortest lives, is assigned at
 * 2082235 and beats the two groups the DP had kept.
 *
 * <p>Departures from TPU-MLIR: no clusters, no structure detection, the exhaustive secs space of
 * {@link SecsSpace} (capped at {@code max-iterations} loops) instead of the quick search; optional
 * {@code max-group-ops} cap on group length (none by default); the roofline cost model.
 */
public final class GroupDpBestPlanner implements Planner<GroupProblem, Grouping> {
  public static final String ID = "group-dp-best";

  /**
   * CP-SAT's deterministic time for assigning again the ranges that could lower a base group's
   * value ({@link GroupEvaluator#deepen}), in all and per range.
   */
  static final double DEEPEN_DETERMINISTIC_TIME = 10.0;

  static final double DEEPEN_PER_RANGE = 5.0;

  /** Most ranges of a base group whose {@link GroupEvaluator#everySecsBound} is computed. */
  static final int DEEPEN_CHECKS = 16;

  /** The least share of a base group's value a range's bound must leave to be assigned again. */
  static final double DEEPEN_MIN_GAIN = 0.002;

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
      long[][] cost = placedDp(ev, s, e, chosen, pruned);
      // ranges whose bound shows they could lower the total, assigned again with more CP-SAT time
      double left = DEEPEN_DETERMINISTIC_TIME;
      java.util.Set<Long> ruledOut = new java.util.HashSet<>();
      while (left > 0 && !ctx.budget().exhausted()) {
        long[] r = mostPromising(ev, s, e, cost[0][e - s], cost, ruledOut);
        if (r == null) {
          break;
        }
        left -= DEEPEN_PER_RANGE;
        if (ev.deepen((int) r[0], (int) r[1], DEEPEN_PER_RANGE, r[2])) {
          cost = placedDp(ev, s, e, chosen, pruned);
        }
      }
      ranges.addAll(chosen);
      for (int i = s; i <= e; i++) {
        known -= global[i];
      }
      known += cost[0][e - s];
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
    // the bank conflicts lmem-tpumlir accepted: removed where a placement without them exists,
    // else proven unavoidable or left undecided (the cycles do not move)
    long[] verdicts = new long[LmemOracle.ConflictVerdict.values().length];
    for (int k = 0; k < groups.size(); k++) {
      Group g = groups.get(k);
      LmemOracle.ConflictCheck c = oracle.withoutConflicts(g.timesteps().lmem(), g.lmem(), ctx);
      verdicts[c.verdict().ordinal()]++;
      if (c.verdict() == LmemOracle.ConflictVerdict.REMOVED) {
        groups.set(
            k,
            new Group(
                g.first(),
                g.last(),
                g.secs(),
                g.slices(),
                g.timesteps(),
                c.placement(),
                g.moves()));
      }
    }
    Grouping grouping =
        new Grouping(Grouping.names(p.order()), ev.rules(), ev.timestepMethod(), groups);
    Map<String, Long> stats = new LinkedHashMap<>(ev.stats());
    stats.put("pruned-ranges", pruned[0]);
    stats.put("objective", known);
    stats.put(
        GroupingMetrics.CONFLICTS_REMOVED, verdicts[LmemOracle.ConflictVerdict.REMOVED.ordinal()]);
    stats.put(
        GroupingMetrics.CONFLICTS_UNAVOIDABLE,
        verdicts[LmemOracle.ConflictVerdict.UNAVOIDABLE.ordinal()]);
    stats.put(
        GroupingMetrics.CONFLICTS_UNDECIDED,
        verdicts[LmemOracle.ConflictVerdict.UNDECIDED.ordinal()]);
    return GroupingOutcomes.validated(ID, p, grouping, stats, message(ev.outOfBudget(), verdicts));
  }

  /**
   * The outcome's message: how many groups had bank conflicts and what became of them ({@code
   * verdicts} by {@link LmemOracle.ConflictVerdict}), that the budget ran out, and that CP-SAT
   * could not run here (no exact transfer assignment, no {@code lmem-exact}: the grouping is the
   * one a machine without OR-Tools' native library finds, not the one this planner finds
   * elsewhere); null when none of these.
   */
  static String message(boolean outOfBudget, long[] verdicts) {
    List<String> parts = new ArrayList<>();
    long removed = verdicts[LmemOracle.ConflictVerdict.REMOVED.ordinal()];
    long unavoidable = verdicts[LmemOracle.ConflictVerdict.UNAVOIDABLE.ordinal()];
    long undecided = verdicts[LmemOracle.ConflictVerdict.UNDECIDED.ordinal()];
    if (removed + unavoidable + undecided > 0) {
      parts.add(
          "bank conflicts in "
              + (removed + unavoidable + undecided)
              + " groups: "
              + removed
              + " placed without, "
              + unavoidable
              + " proven unavoidable, "
              + undecided
              + " undecided");
    }
    if (outOfBudget) {
      parts.add("budget ran out; ranges not evaluated counted as invalid");
    }
    if (!Natives.available()) {
      parts.add("CP-SAT unavailable, no exact transfer assignment: " + Natives.problem());
    }
    return parts.isEmpty() ? null : String.join("; ", parts);
  }

  /**
   * The range of {@code s..e} with an unproven exact assignment ({@link GroupEvaluator#unproven})
   * whose lower bound, between the DP's best cuts before and after it, is furthest below the base
   * group's value {@code best} by at least {@link #DEEPEN_MIN_GAIN} of it: ranked by the bound of
   * {@link GroupEvaluator#lowerBound}, confirmed by {@link GroupEvaluator#everySecsBound} (a range
   * it rules out is not asked again); as {@code {first, last, the value it must beat}}, null when
   * none is left.
   */
  private static long[] mostPromising(
      GroupEvaluator ev, int s, int e, long best, long[][] cost, java.util.Set<Long> ruledOut) {
    List<long[]> ranked = new ArrayList<>();
    for (int i = s; i <= e; i++) {
      for (int j = i + 1; j <= e; j++) {
        if (!ev.unproven(i, j) || ruledOut.contains((long) i << 32 | j)) {
          continue;
        }
        long around = (i == s ? 0 : cost[0][i - 1 - s]) + (j == e ? 0 : cost[j + 1 - s][e - s]);
        long gain = best - (around + ev.lowerBound(i, j));
        if (gain > best * DEEPEN_MIN_GAIN) {
          ranked.add(new long[] {gain, i, j, around});
        }
      }
    }
    ranked.sort((x, y) -> Long.compare(y[0], x[0]));
    for (long[] r : ranked) {
      if (ruledOut.size() >= DEEPEN_CHECKS) {
        return null;
      }
      int i = (int) r[1];
      int j = (int) r[2];
      if (best - (r[3] + ev.everySecsBound(i, j)) > best * DEEPEN_MIN_GAIN) {
        ruledOut.add((long) i << 32 | j);
        return new long[] {i, j, best - r[3]};
      }
      ruledOut.add((long) i << 32 | j);
    }
    return null;
  }

  /**
   * The DP over {@code s..e} until the ranges it chooses ({@code out}) are placed: it chooses by
   * tentative values (no LMEM placement), and while a chosen range is refused (its value rises) it
   * runs again over the memo. Out of budget, tentativeBelow answers only ranges evaluated already,
   * and confirm drops a range it cannot place in the time kept back: the DP ends on placed groups.
   * Returns the last DP's cost matrix.
   */
  private long[][] placedDp(GroupEvaluator ev, int s, int e, List<int[]> out, long[] pruned) {
    while (true) {
      out.clear();
      long[][] cost = dp(ev, s, e, out, pruned);
      boolean placed = true;
      for (int[] r : out) {
        placed &= ev.confirm(r[0], r[1]);
      }
      if (placed) {
        return cost;
      }
    }
  }

  /**
   * The interval DP over the base group {@code s..e}; adds its groups to {@code out} and returns
   * its cost matrix ({@code [i - s][j - s]}: the best value of {@code i..j}).
   */
  private long[][] dp(GroupEvaluator ev, int s, int e, List<int[]> out, long[] pruned) {
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
    return cost;
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
