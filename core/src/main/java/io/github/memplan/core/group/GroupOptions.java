package io.github.memplan.core.group;

import java.util.Objects;

/**
 * Options of a layer-grouping problem.
 *
 * @param h2Rule whether the doc's h/2 overlap rule applies ({@link SliceRules#h2Rule()}): as the
 *     planner's era has it ({@link H2Rule#ERA}, the default), or forced on or off
 * @param objective what a search minimises (heuristics that take the first valid group ignore it)
 */
public record GroupOptions(H2Rule h2Rule, Objective objective) {
  /** The h/2 rule as each planner's era has it, cycles minimised. */
  public static final GroupOptions DEFAULT = new GroupOptions(H2Rule.ERA, Objective.CYCLES);

  /** What a grouping search minimises. */
  public enum Objective {
    /** Estimated cycles of the whole model ({@link io.github.memplan.core.group.CostModel}). */
    CYCLES,
    /** DDR bytes moved by the whole model. */
    DDR_BYTES
  }

  /**
   * Whether the h/2 rule applies ({@code check_hsecs}, {@code reference/tpu-mlir.md} §2.7). The
   * 2022 LayerGroup the developer manual documents has it; today's TPU-MLIR has its call commented
   * out (commit 829dab2c2, 2023-03-09).
   */
  public enum H2Rule {
    /**
     * As the planner's era: on for v0's rules ({@link SliceRules#V0}, {@code tpumlir-v0}), off for
     * today's ({@link SliceRules#TODAY}: {@code tpumlir-greedy}, {@code tpumlir-dp} and the
     * searches).
     */
    ERA,
    /** On for every planner. */
    ON,
    /** Off for every planner. */
    OFF
  }

  public GroupOptions {
    Objects.requireNonNull(h2Rule, "h2Rule");
    Objects.requireNonNull(objective, "objective");
  }

  /** The h/2 rule forced on ({@code true}) or off ({@code false}). */
  public GroupOptions(boolean h2Rule, Objective objective) {
    this(h2Rule ? H2Rule.ON : H2Rule.OFF, objective);
  }

  /**
   * The slicing rules a planner of the era {@code era} ({@link SliceRules#V0} or {@link
   * SliceRules#TODAY}) slices with under these options: the era's own h/2 rule, unless forced.
   */
  public SliceRules rules(SliceRules era) {
    return switch (h2Rule) {
      case ERA -> era;
      case ON -> era.withH2Rule(true);
      case OFF -> era.withH2Rule(false);
    };
  }

  /**
   * Whether a grouping sliced with {@code rules} honours these options: the h/2 rule as forced, or
   * with {@link H2Rule#ERA} as the era of {@code rules} has it ({@link SliceRules#eraH2Rule()}).
   */
  public boolean admits(SliceRules rules) {
    return switch (h2Rule) {
      case ERA -> rules.h2Rule() == rules.eraH2Rule();
      case ON -> rules.h2Rule();
      case OFF -> !rules.h2Rule();
    };
  }
}
