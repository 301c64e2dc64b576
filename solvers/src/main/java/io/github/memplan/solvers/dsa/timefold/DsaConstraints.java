package io.github.memplan.solvers.dsa.timefold;

import ai.timefold.solver.core.api.score.buildin.hardmediumsoftlong.HardMediumSoftLongScore;
import ai.timefold.solver.core.api.score.stream.Constraint;
import ai.timefold.solver.core.api.score.stream.ConstraintFactory;
import ai.timefold.solver.core.api.score.stream.ConstraintProvider;
import ai.timefold.solver.core.api.score.stream.Joiners;

/**
 * The score of a decoded placement. Overlaps cannot occur (the decoder places every buffer clear of
 * the earlier ones), so what is left is:
 *
 * <ul>
 *   <li>hard: how far the peak exceeds the capacity (bytes);
 *   <li>medium: the peak {@code max(offset + size)} (bytes);
 *   <li>soft, only when {@link Limits#peakCount()} is on: the number of non-empty blocks that end
 *       at the peak (a move that lowers it without lowering the peak is a step towards a lower
 *       peak).
 * </ul>
 *
 * <p>The peak and the count are shadow variables of the {@link Placement} (the decoder computes
 * them), not a {@code groupBy(max(...))} over the blocks: after a move, half the blocks change
 * offset on average, and aggregating each change into a sorted map cost more than the decode.
 */
public class DsaConstraints implements ConstraintProvider {
  static final String OVER_CAPACITY = "over capacity";
  static final String PEAK = "peak";
  static final String AT_PEAK = "blocks at the peak";

  @Override
  public Constraint[] defineConstraints(ConstraintFactory factory) {
    return new Constraint[] {overCapacity(factory), peak(factory), atPeak(factory)};
  }

  Constraint overCapacity(ConstraintFactory factory) {
    return factory
        .forEach(Placement.class)
        .join(Limits.class, Joiners.filtering((p, limits) -> p.peak() > limits.capacity()))
        .penalizeLong(HardMediumSoftLongScore.ONE_HARD, (p, limits) -> p.peak() - limits.capacity())
        .asConstraint(OVER_CAPACITY);
  }

  Constraint peak(ConstraintFactory factory) {
    return factory
        .forEach(Placement.class)
        .penalizeLong(HardMediumSoftLongScore.ONE_MEDIUM, Placement::peak)
        .asConstraint(PEAK);
  }

  Constraint atPeak(ConstraintFactory factory) {
    return factory
        .forEach(Placement.class)
        .join(Limits.class, Joiners.filtering((p, limits) -> limits.peakCount()))
        .penalize(HardMediumSoftLongScore.ONE_SOFT, (p, limits) -> p.atPeak())
        .asConstraint(AT_PEAK);
  }
}
