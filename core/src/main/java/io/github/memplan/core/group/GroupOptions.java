package io.github.memplan.core.group;

import java.util.Objects;

/**
 * Options of a layer-grouping problem.
 *
 * @param h2Rule whether the doc's h/2 overlap rule applies ({@link SliceRules#h2Rule()})
 * @param objective what a search minimises (heuristics that take the first valid group ignore it)
 */
public record GroupOptions(boolean h2Rule, Objective objective) {
  public static final GroupOptions DEFAULT = new GroupOptions(true, Objective.CYCLES);

  /** What a grouping search minimises. */
  public enum Objective {
    /** Estimated cycles of the whole model ({@link io.github.memplan.core.cost.CostModel}). */
    CYCLES,
    /** DDR bytes moved by the whole model. */
    DDR_BYTES
  }

  public GroupOptions {
    Objects.requireNonNull(objective, "objective");
  }
}
