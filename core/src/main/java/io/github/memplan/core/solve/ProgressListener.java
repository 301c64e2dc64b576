package io.github.memplan.core.solve;

/** Receives a planner's progress: each improvement of its best objective or bound. */
@FunctionalInterface
public interface ProgressListener {
  ProgressListener NONE = (objective, bound, note) -> {};

  /**
   * Called when the planner finds a better solution or proves a better bound.
   *
   * @param bestObjective the best objective so far, or {@code Long.MAX_VALUE} if none
   * @param bestBound the best lower bound so far, or {@code 0} if none
   * @param note a short description (e.g. the phase)
   */
  void improved(long bestObjective, long bestBound, String note);
}
