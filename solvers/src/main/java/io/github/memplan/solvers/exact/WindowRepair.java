package io.github.memplan.solvers.exact;

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
 * <p>It starts from the best greedy of {@link Greedies#pick} (several orders, as far as the budget
 * allows, so never worse than the best of them) and lowers a target peak {@code T}: every buffer
 * that ends above {@code T} is repaired inside a time window around it. The buffers that live
 * entirely inside the window are freed; every other buffer alive during the window keeps its offset
 * as a fixed offset; {@link ExactPlanner} in decide mode, with a node limit, looks for a placement
 * of the freed buffers below {@code T}. A window that fails is widened once (four times the
 * buffers); if it still fails, the target is abandoned (the repairs made so far stay: none raised
 * the peak) and the step towards the lower bound is halved. Targets start at the lower bound itself
 * (the step is the whole gap) and the loop ends when the peak meets the bound, the step falls below
 * the granularity, or the budget runs out.
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

  private WindowRepair(DsaInstance inst, SolveContext ctx, long[] start) {
    this.inst = inst;
    this.ctx = ctx;
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
   * Solves {@code inst} (more than {@link ExactPlanner#LARGE} buffers) within the context's budget.
   */
  static Outcome<DsaSolution> solve(DsaInstance inst, SolveContext ctx) {
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
    Greedies.Pick pick = Greedies.pick(inst, ctx.budget());
    if (pick == null) {
      return Outcome.infeasible("buffers with fixed offsets overlap");
    }
    DsaSolution greedy = pick.solution();
    WindowRepair r = new WindowRepair(inst, ctx, greedy.offsets());
    long peak = inst.peak(greedy);
    r.stats.put("incumbent-source-greedy", peak);
    r.stats.put("incumbent-source-" + pick.rule(), peak);
    ctx.progress().improved(peak, lb, "greedy");
    long step = peak - lb;
    while (peak > lb && step >= g && !r.budget.exhausted()) {
      long target = Math.max(lb, (peak - step) / g * g);
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
      if (budget.exhausted()) {
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
      if (budget.exhausted()) {
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
    ExactPlanner decide =
        new ExactPlanner(
            ExactPlanner.Options.defaults()
                .withMode(ExactPlanner.Mode.DECIDE)
                .withNodeLimit(NODES));
    Outcome<DsaSolution> out = decide.solve(part, SolveContext.of(ctx.seed(), budget));
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
