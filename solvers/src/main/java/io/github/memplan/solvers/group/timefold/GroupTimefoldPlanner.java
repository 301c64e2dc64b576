package io.github.memplan.solvers.group.timefold;

import ai.timefold.solver.core.config.solver.EnvironmentMode;
import io.github.memplan.core.group.CostModel;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupCost;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingOutcomes;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Layer grouping by local search over group cuts with Timefold Solver 1.32 (timefold.ai,
 * Apache-2.0), under the rules of TPU-MLIR's LayerGroup ({@code reference/tpu-mlir.md} §2.4-2.6):
 * the same base groups ({@code get_base_groups}), the same validity check of a candidate group
 * (backward slicing with today's rules and the switchable h/2 rule, today's timesteps, an LMEM
 * placement found by the {@code lmem} planner) and the same cost model as {@code tpumlir-dp}.
 *
 * <p><b>Model.</b> One planning entity ({@link Boundary}) per boundary between two consecutive ops
 * of a base group, with a boolean planning variable "cut"; the groups are the maximal uncut runs
 * (two ops or more), every other op is global. The shape secs are <b>not</b> a planning variable:
 * the {@link RangeOracle} (the shared group evaluator of {@code solvers.group}) already gives each
 * op range its cheapest valid secs, memoised, so the search only chooses the cuts. Score ({@link
 * CutConstraints}, Constraint Streams with {@code toConsecutiveSequences} over the uncut boundaries
 * of each base group): hard, the number of runs that make no valid group; soft, minus the total
 * cost (cycles or DDR bytes, as the problem's objective says) of the groups and the global ops.
 *
 * <p><b>Start and search.</b> The cuts of the {@code start} planner's grouping ({@code tpumlir-dp}
 * by default, reached through the planner SPI; {@code none}: every op global), then {@link
 * CutSearch}: custom moves ({@link CutMoves}: flip a boundary, which merges two neighbouring groups
 * or splits one; shift a cut by up to four ops, which merges two neighbouring groups and splits the
 * result at another point), late acceptance by default, seeded, reproducible under step limits,
 * anytime, within the budget. The start's own grouping is kept as the incumbent, so the planner
 * never returns a costlier grouping than its start.
 *
 * <p><b>Transfer moves</b> ({@code moves=on}, the default): every group of the answer then gets
 * {@link RangeOracle#withMoves} (the {@code TransferSearch} post-pass of {@code solvers.group}:
 * GDMA transfers moved to other rows, as TPU-MLIR's opt=3 chooses their timesteps), which never
 * makes a group costlier; the cut search itself scores unmoved tables.
 *
 * <p><b>Why beside the exact DP.</b> {@code group-dp-best} is exact for contiguous groups under
 * this cost model, but it evaluates all O(L²) ranges of a base group of L ops before it can answer.
 * The local search evaluates only the ranges its moves touch, starting from a heuristic's grouping,
 * so on long base groups under a budget it has an answer at any time and improves it.
 *
 * <p><b>Departures</b> from TPU-MLIR: not a TPU-MLIR algorithm but a search under its rules; each
 * group gets its cheapest secs rather than the first valid ones (§6: "the default takes the first
 * feasible secs"); clusters and structure detection (§2.4) are not used. The returned grouping is
 * re-derived from the oracle's groups and checked by {@link
 * io.github.memplan.core.group.GroupingValidator}.
 *
 * <p>Immutable and thread-safe: each {@link #solve} builds its own oracle and Timefold solver.
 */
public final class GroupTimefoldPlanner implements Planner<GroupProblem, Grouping> {
  static final String ID = "group-timefold";

  /** Makes the range oracle of one solve. */
  @FunctionalInterface
  public interface OracleFactory {
    RangeOracle create(GroupProblem p, SolveContext ctx);
  }

  private final OracleFactory oracles;
  private final Planner<GroupProblem, Grouping> start;
  private final String startId;
  private final CostModel costModel;
  private final CutSearch.Options options;
  private final boolean moves;

  /**
   * @param start the planner whose grouping seeds the search, or {@code null} for every op global
   * @param startId its id, for messages
   * @param moves whether every group of the answer gets {@link RangeOracle#withMoves}
   */
  GroupTimefoldPlanner(
      OracleFactory oracles,
      Planner<GroupProblem, Grouping> start,
      String startId,
      CostModel costModel,
      CutSearch.Options options,
      boolean moves) {
    this.oracles = Objects.requireNonNull(oracles, "oracles");
    this.start = start;
    this.startId = startId;
    this.costModel = Objects.requireNonNull(costModel, "costModel");
    this.options = Objects.requireNonNull(options, "options");
    this.moves = moves;
  }

  @Override
  public Outcome<Grouping> solve(GroupProblem p, SolveContext ctx) {
    return solve(p, ctx, EnvironmentMode.NO_ASSERT);
  }

  /** {@link #solve(GroupProblem, SolveContext)} in another environment mode (tests). */
  Outcome<Grouping> solve(GroupProblem p, SolveContext ctx, EnvironmentMode mode) {
    long t0 = System.nanoTime();
    Map<String, Number> stats = new TreeMap<>();
    List<String> notes = new ArrayList<>();
    Grouping startGrouping = null;
    if (start != null) {
      Outcome<Grouping> so = start.solve(p, ctx);
      if (so.status().hasSolution()) {
        startGrouping = so.solution();
      } else {
        notes.add(
            "start planner '"
                + startId
                + "' answered "
                + so.status()
                + (so.message().isEmpty() ? "" : " (" + so.message() + ")")
                + "; searched from every op global");
      }
    }
    RangeOracle oracle = oracles.create(p, ctx);
    boolean[] joined = new boolean[p.order().size()];
    long reportBelow = Long.MAX_VALUE;
    if (startGrouping != null) {
      for (Group g : startGrouping.groups()) {
        for (int i = g.first(); i < g.last(); i++) {
          joined[i] = true;
        }
      }
      long startCost = cost(p, startGrouping);
      stats.put("start-cost", startCost);
      ctx.progress().improved(startCost, 0, "start " + startId);
      reportBelow = startCost;
    }
    CutSearch.Result r =
        CutSearch.run(CutPlan.of(oracle, joined), ctx, options, mode, ID, reportBelow);
    stats.putAll(r.stats());
    List<Group> groups = new ArrayList<>();
    for (Run run : r.runs()) {
      Optional<Group> g = oracle.group(run.first(), run.last());
      g.ifPresent(groups::add);
    }
    Grouping found =
        new Grouping(Grouping.names(p.order()), oracle.rules(), oracle.timestepMethod(), groups);
    stats.putAll(oracle.stats());
    long foundCost = cost(p, found);
    stats.put("search-cost", foundCost);
    if (r.score() != null && -r.score().softScore() != foundCost) {
      return Outcome.error(
          ID
              + ": the search's score "
              + r.score()
              + " disagrees with the cost model's "
              + foundCost
              + " on "
              + p.name());
    }
    Grouping best = found;
    if (startGrouping != null && cost(p, startGrouping) < foundCost) {
      best = startGrouping;
      notes.add("kept the start's grouping, cheaper than the search's best");
    }
    if (moves && best.timestepMethod().equals(oracle.timestepMethod())) {
      List<Group> moved = new ArrayList<>();
      for (Group g : best.groups()) {
        moved.add(oracle.withMoves(g));
      }
      best = new Grouping(best.order(), best.rules(), best.timestepMethod(), moved);
      stats.putAll(oracle.stats());
      stats.put("moved-cost", cost(p, best));
    }
    stats.put("millis", (System.nanoTime() - t0) / 1e6);
    if (oracle.outOfBudget()) {
      notes.add("budget ran out; ranges not evaluated counted as invalid");
    }
    return GroupingOutcomes.validated(
        ID, p, best, stats, notes.isEmpty() ? null : String.join("; ", notes));
  }

  /** The grouping's total cost under the problem's objective. */
  private long cost(GroupProblem p, Grouping g) {
    GroupCost c = costModel.model(p.graph(), p.chip(), g);
    return p.options().objective() == GroupOptions.Objective.DDR_BYTES ? c.ddrBytes() : c.cycles();
  }
}
