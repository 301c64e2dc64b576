package io.github.memplan.solvers.dsa.greedy;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.solvers.dsa.SearchModel;
import io.github.memplan.solvers.dsa.bnb.ExactPlanner;

/**
 * The greedy incumbents of {@link ExactPlanner}, for other search planners to start from: best fit
 * by decreasing size (the rule of TFLite's {@code SimpleMemoryArena} and XLA's spatial heap), the
 * orders of {@link Portfolio} (among them first fit by decreasing size, TFLite Micro's rule) and
 * online best fit in order of start times (see {@link SmallestGapFit}). Solvers never import
 * baselines; this is the solvers' own starting point.
 */
public final class GreedyIncumbents {
  private GreedyIncumbents() {}

  /** A greedy placement and the rule that gave it. */
  public record Pick(DsaSolution solution, String rule) {}

  /**
   * The valid placement of smallest peak of the greedies, ignoring the instance's capacity; {@code
   * null} when none is valid (fixed offsets that collide). Without a budget: see {@link #pick}.
   */
  public static DsaSolution best(DsaInstance instance) {
    Pick p = pick(instance, Budget.unlimited());
    return p == null ? null : p.solution();
  }

  /**
   * The valid placement of smallest peak, ignoring the instance's capacity, among: best fit by
   * decreasing size on the search model (up to {@value #MODELLED} buffers, or when there are gaps
   * or fixed offsets), the {@link Portfolio} orders (first fit and best fit by decreasing size, by
   * area, by lifetime; instances without gaps and fixed offsets) as far as the budget allows, and
   * online best fit in order of start times (always run: it needs no pairs and takes {@code O(n log
   * n)}). Ties go to the earlier in that list. {@code null} when none is valid. The portfolio stops
   * {@link Budget#wrapUp} before the deadline, so that the caller can still validate and return the
   * pick within the budget.
   */
  public static Pick pick(DsaInstance instance, Budget whole) {
    Budget budget = whole.keepingBack(whole.wrapUp(instance.size()));
    DsaInstance unbounded = instance.withCapacity(DsaInstance.UNBOUNDED);
    DsaValidator validator = new DsaValidator();
    Pick best = null;
    long bestPeak = Long.MAX_VALUE;
    // computed first, so that what is left to do when the budget runs out is little
    DsaSolution online = new DsaSolution(SmallestGapFit.online(instance));
    boolean plain = Portfolio.applies(instance);
    if (!plain || instance.size() <= MODELLED) {
      try {
        SearchModel md = new SearchModel(instance);
        long[] searched = SmallestGapFit.bestFit(md);
        if (searched != null) {
          long[] offs = md.trivialOffset.clone();
          for (int k = 0; k < md.n; k++) {
            offs[md.index[k]] = searched[k];
          }
          DsaSolution s = new DsaSolution(offs);
          if (validator.isValid(unbounded, s)) {
            best = new Pick(s, "best-fit");
            bestPeak = instance.peak(s);
          }
        }
      } catch (SearchModel.TooDense e) {
        // too many co-active pairs to model: the others need fewer or none
      }
    }
    // above MODELLED buffers the placements valid by construction are not checked again here
    // (each caller validates its answer), so that little is left to do when the budget runs out
    boolean check = instance.size() <= MODELLED;
    if (plain) {
      Portfolio.Result r = Portfolio.best(instance, budget);
      if (r != null && r.peak() < bestPeak) {
        DsaSolution s = new DsaSolution(r.offsets());
        if (!check || validator.isValid(unbounded, s)) {
          best = new Pick(s, r.order());
          bestPeak = r.peak();
        }
      }
    }
    if ((!check && plain || validator.isValid(unbounded, online))
        && instance.peak(online) < bestPeak) {
      best = new Pick(online, "online");
    }
    return best;
  }

  /** Up to this many buffers the model-based best fit runs too (it is cheap there). */
  static final int MODELLED = ExactPlanner.LARGE;
}
