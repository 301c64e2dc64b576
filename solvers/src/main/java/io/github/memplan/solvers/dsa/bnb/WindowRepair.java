package io.github.memplan.solvers.dsa.bnb;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.dsa.greedy.GreedyIncumbents;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The anytime mode of {@link ExactPlanner} for instances too large for one search (more than {@link
 * ExactPlanner#LARGE} buffers: the depth-first search keeps an order array per depth, so its memory
 * grows with the square of the buffer count): a large neighbourhood search whose neighbourhoods are
 * solved exactly.
 *
 * <p>It starts from the best greedy of {@link GreedyIncumbents#pick} (several orders, as far as the
 * budget allows, so never worse than the best of them) and lowers a target peak {@code T}: every
 * buffer that ends above {@code T} is repaired inside a time window around it. The buffers that
 * live entirely inside the window are freed; every other buffer alive during the window keeps its
 * offset as a fixed offset; {@link ExactPlanner} in decide mode, with a node limit, looks for a
 * placement of the freed buffers below {@code T}. A window that fails is widened once (four times
 * the buffers); if it still fails, the target is abandoned (the repairs made so far stay: none
 * raised the peak) and the step towards the lower bound is halved. Targets start at the lower bound
 * itself (the step is the whole gap) and the loop ends when the peak meets the bound, the step
 * falls below the granularity, or the budget runs out.
 *
 * <p>{@code exact}'s options apply as follows. {@code mode=decide}: the targets stop at the
 * capacity (rounded down to the granularity) instead of the lower bound, so the run ends as soon as
 * a placement within the capacity is found, at once when the start fits. {@code orders}: the
 * preorders of every window's search. {@code node-limit}: a cap on the search nodes of all windows
 * together (each window gets at most {@link #NODES} and what is left of the cap); the window search
 * running when the cap is reached stops there. {@code warm-start}: the planner runs on the whole
 * instance, and its placement, if valid and of a lower peak than the greedy's, is the start. The
 * run's budget reaches every window: they search under it (a cancellation or the deadline stops the
 * window search at once), and a step cap counts the nodes of all windows together, as {@code
 * node-limit} does.
 *
 * <p>This is in the spirit of MiniMalloc's decomposition (Moffitt, ASPLOS 2023): exact search on
 * parts of the timeline, here on overlapping windows with their borders frozen, so that only the
 * lower bound, never the window search, can prove optimality. The result is {@code OPTIMAL} only
 * when the peak meets the max-load bound.
 */
final class WindowRepair {
  /** Buffers freed in a first window. */
  static final int WINDOW = 300;

  /** Search nodes per window. */
  static final long NODES = 20_000;

  private final DsaInstance inst;
  private final SolveContext ctx;
  private final ExactPlanner.Options options;
  private final Budget budget;
  private final int n;
  private final long[] off;
  private final long[] size;
  private final int[] lower;
  private final int[] upper;
  private final Integer[] byLower;
  private final int[] position; // of each buffer in byLower
  private final Map<String, Number> stats = new TreeMap<>();
  private long windows;
  private long repaired;
  private long nodes; // searched by the windows so far

  private WindowRepair(
      DsaInstance inst, SolveContext ctx, ExactPlanner.Options options, long[] start) {
    this.inst = inst;
    this.ctx = ctx;
    this.options = options;
    // the repairs stop Budget.wrapUp before the deadline: the placement is then validated and
    // returned within the budget (a second at 100,000 buffers)
    this.budget = ctx.budget().keepingBack(ctx.budget().wrapUp(inst.size()));
    this.n = inst.size();
    this.off = start.clone();
    this.size = new long[n];
    this.lower = new int[n];
    this.upper = new int[n];
    for (int i = 0; i < n; i++) {
      Buffer b = inst.buffer(i);
      size[i] = b.size();
      lower[i] = b.lower();
      upper[i] = b.upper();
    }
    byLower = new Integer[n];
    for (int i = 0; i < n; i++) {
      byLower[i] = i;
    }
    Arrays.sort(
        byLower, (a, b) -> lower[a] != lower[b] ? Integer.compare(lower[a], lower[b]) : a - b);
    position = new int[n];
    for (int k = 0; k < n; k++) {
      position[byLower[k]] = k;
    }
  }

  /**
   * Solves {@code inst} (more than {@link ExactPlanner#LARGE} buffers) within the context's budget,
   * under {@code exact}'s {@code options}.
   */
  static Outcome<DsaSolution> solve(
      DsaInstance inst, SolveContext ctx, ExactPlanner.Options options) {
    long t0 = System.nanoTime();
    long lb = LowerBounds.maxLoadAndSizes(inst);
    long g = 0;
    for (Buffer b : inst.buffers()) {
      g = Alignment.gcd(g, b.size());
      g = Alignment.gcd(g, b.alignment());
      if (b.fixedOffset().isPresent()) {
        g = Alignment.gcd(g, b.fixedOffset().getAsLong());
      }
    }
    g = Math.max(1, g);
    lb = (lb + g - 1) / g * g;
    if (lb > inst.capacity()) {
      return Outcome.infeasible(
          "the lower bound " + lb + " exceeds the capacity " + inst.capacity());
    }
    GreedyIncumbents.Pick pick = GreedyIncumbents.pick(inst, ctx.budget());
    if (pick == null) {
      return Outcome.infeasible("buffers with fixed offsets overlap");
    }
    DsaSolution start = pick.solution();
    Map<String, Number> startStats = new TreeMap<>();
    startStats.put("incumbent-source-greedy", inst.peak(start));
    startStats.put("incumbent-source-" + pick.rule(), inst.peak(start));
    String source = "greedy";
    if (options.warmStart() != null && !ctx.budget().exhausted()) {
      Outcome<DsaSolution> warm = options.warmStart().solve(inst, ctx);
      if (warm.status().hasSolution()
          && warm.solution().size() == inst.size()
          && new DsaValidator()
              .isValid(inst.withCapacity(DsaInstance.UNBOUNDED), warm.solution())) {
        long warmPeak = inst.peak(warm.solution());
        startStats.put("warm-start-peak", warmPeak);
        if (warmPeak < inst.peak(start)) {
          start = warm.solution();
          source = "warm start";
          startStats.put("incumbent-source-" + source, warmPeak);
        }
      }
    }
    WindowRepair r = new WindowRepair(inst, ctx, options, start.offsets());
    r.stats.putAll(startStats);
    long peak = inst.peak(start);
    ctx.progress().improved(peak, lb, source);
    // minimise: down to the lower bound; decide: down to the capacity
    long goal =
        options.mode() == ExactPlanner.Mode.DECIDE ? Math.max(lb, inst.capacity() / g * g) : lb;
    long step = peak - goal;
    while (peak > goal && step >= g && !r.stopped()) {
      long target = Math.max(goal, (peak - step) / g * g);
      if (target > inst.capacity()) {
        target = inst.capacity() / g * g;
      }
      if (r.reach(target)) {
        peak = r.peak();
        ctx.progress().improved(peak, lb, "window-repair");
      } else {
        peak = r.peak(); // partial repairs never raise the peak
        step /= 2;
      }
    }
    DsaSolution sol = new DsaSolution(r.off);
    if (!new DsaValidator().isValid(inst, sol)) {
      if (peak > inst.capacity()) {
        return Outcome.<DsaSolution>noSolution(
                OptionalLong.of(lb), "no placement within the capacity found")
            .withStats(r.stats);
      }
      return Outcome.<DsaSolution>error("window repair produced an invalid placement")
          .withStats(r.stats);
    }
    r.stats.put("lower-bound", lb);
    r.stats.put("windows", r.windows);
    r.stats.put("windows-repaired", r.repaired);
    r.stats.put("nodes", r.nodes);
    r.stats.put("millis", (System.nanoTime() - t0) / 1e6);
    Outcome<DsaSolution> out =
        peak == lb
            ? Outcome.optimal(sol, lb)
            : new Outcome<>(
                Status.FEASIBLE,
                sol,
                OptionalLong.of(lb),
                Map.of(),
                "anytime window repair (" + inst.size() + " buffers > " + ExactPlanner.LARGE + ")");
    return out.withStats(r.stats);
  }

  /**
   * The options of a window's search under the run's {@code options} after {@code nodesSpent}
   * nodes: decide mode, the run's preorders, at most {@link #NODES} nodes and what is left of the
   * run's node limit, no warm start.
   */
  static ExactPlanner.Options windowOptions(ExactPlanner.Options options, long nodesSpent) {
    long limit = NODES;
    if (options.nodeLimit() > 0) {
      limit = Math.min(limit, options.nodeLimit() - nodesSpent);
    }
    return new ExactPlanner.Options(ExactPlanner.Mode.DECIDE, options.orders(), limit, null);
  }

  /** The budget (its step cap counting the windows' nodes) or the node limit is spent. */
  private boolean stopped() {
    return budget.exhausted(nodes) || (options.nodeLimit() > 0 && nodes >= options.nodeLimit());
  }

  private long peak() {
    long p = 0;
    for (int i = 0; i < n; i++) {
      p = Math.max(p, off[i] + size[i]);
    }
    return p;
  }

  /** Repairs every buffer above {@code target}; whether all of them now end at or below it. */
  private boolean reach(long target) {
    for (int k = 0; k < n; k++) {
      int v = byLower[k];
      if (off[v] + size[v] <= target) {
        continue;
      }
      if (stopped()) {
        return false;
      }
      if (!repair(v, target, WINDOW) && !repair(v, target, 4 * WINDOW)) {
        return false;
      }
    }
    return true;
  }

  /** Re-places the window of about {@code want} buffers around {@code v} below {@code target}. */
  private boolean repair(int v, long target, int want) {
    windows++;
    int pos = position[v];
    int from = Math.max(0, pos - want / 2);
    int to = Math.min(n, from + want);
    int t0 = lower[byLower[from]];
    int t1 = Math.max(upper[v], lower[byLower[to - 1]] + 1);
    // the window grows until no buffer above the target crosses its border
    boolean grown = true;
    while (grown) {
      grown = false;
      if (stopped()) {
        return false;
      }
      for (int k = 0; k < n; k++) {
        int i = byLower[k];
        if (lower[i] >= t1) {
          break;
        }
        if (upper[i] > t0 && off[i] + size[i] > target && (lower[i] < t0 || upper[i] > t1)) {
          if (inst.buffer(i).fixedOffset().isPresent()) {
            return false;
          }
          t0 = Math.min(t0, lower[i]);
          t1 = Math.max(t1, upper[i]);
          grown = true;
        }
      }
    }
    // freed: alive only inside [t0, t1); context: alive during it, kept where it is
    List<Integer> freed = new ArrayList<>();
    List<Integer> context = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      int i = byLower[k];
      if (lower[i] >= t1) {
        break;
      }
      if (upper[i] <= t0) {
        continue;
      }
      boolean inside = lower[i] >= t0 && upper[i] <= t1 && inst.buffer(i).fixedOffset().isEmpty();
      (inside ? freed : context).add(i);
    }
    if (!freed.contains(v)) {
      return false; // v itself is pinned
    }
    List<Buffer> sub = new ArrayList<>(freed.size() + context.size());
    for (int i : freed) {
      sub.add(inst.buffer(i));
    }
    for (int i : context) {
      sub.add(inst.buffer(i).withFixedOffset(off[i]));
    }
    DsaInstance part = DsaInstance.of(inst.name() + "@" + t0 + "-" + t1, sub).withCapacity(target);
    ExactPlanner decide = new ExactPlanner(windowOptions(options, nodes));
    Outcome<DsaSolution> out = decide.solve(part, SolveContext.of(ctx.seed(), budget));
    nodes += out.stats().getOrDefault("nodes", 0.0).longValue();
    if (!out.status().hasSolution()) {
      return false;
    }
    long[] o = out.solution().offsets();
    for (int k = 0; k < freed.size(); k++) {
      off[freed.get(k)] = o[k];
    }
    repaired++;
    return true;
  }
}
