package io.github.memplan.solvers.exact;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;

/**
 * The greedy incumbents of {@link ExactPlanner}, for other search planners to start from: best fit
 * by decreasing size (the rule of TFLite's {@code SimpleMemoryArena} and XLA's spatial heap) and
 * online best fit in order of start times (see {@link Greedy}). Solvers never import baselines;
 * this is the solvers' own starting point.
 */
public final class Greedies {
  private Greedies() {}

  /**
   * The valid placement of smaller peak of the two greedies (best fit first on a tie), ignoring the
   * instance's capacity; {@code null} when neither is valid (fixed offsets that collide).
   */
  public static DsaSolution best(DsaInstance instance) {
    DsaInstance unbounded = instance.withCapacity(DsaInstance.UNBOUNDED);
    DsaValidator validator = new DsaValidator();
    DsaSolution best = null;
    try {
      Model md = new Model(instance);
      long[] searched = Greedy.bestFit(md);
      if (searched != null) {
        long[] offs = md.trivialOffset.clone();
        for (int k = 0; k < md.n; k++) {
          offs[md.index[k]] = searched[k];
        }
        DsaSolution s = new DsaSolution(offs);
        if (validator.isValid(unbounded, s)) {
          best = s;
        }
      }
    } catch (Model.TooDense e) {
      // too many co-active pairs to model: the online greedy needs none
    }
    DsaSolution online = new DsaSolution(Greedy.online(instance));
    if (validator.isValid(unbounded, online)
        && (best == null || instance.peak(online) < instance.peak(best))) {
      best = online;
    }
    return best;
  }
}
