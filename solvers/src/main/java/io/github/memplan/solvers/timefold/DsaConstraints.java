package io.github.memplan.solvers.timefold;

import ai.timefold.solver.core.api.score.buildin.hardmediumsoftlong.HardMediumSoftLongScore;
import ai.timefold.solver.core.api.score.stream.Constraint;
import ai.timefold.solver.core.api.score.stream.ConstraintCollectors;
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
 *   <li>soft, only when {@link Limits#peakCount()} is on: the number of blocks that end at the peak
 *       (a move that lowers it without lowering the peak is a step towards a lower peak).
 * </ul>
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
        .forEach(Block.class)
        .groupBy(ConstraintCollectors.max(Block::end))
        .join(Limits.class)
        .filter((peak, limits) -> peak > limits.capacity())
        .penalizeLong(HardMediumSoftLongScore.ONE_HARD, (peak, limits) -> peak - limits.capacity())
        .asConstraint(OVER_CAPACITY);
  }

  Constraint peak(ConstraintFactory factory) {
    return factory
        .forEach(Block.class)
        .groupBy(ConstraintCollectors.max(Block::end))
        .penalizeLong(HardMediumSoftLongScore.ONE_MEDIUM, peak -> peak)
        .asConstraint(PEAK);
  }

  Constraint atPeak(ConstraintFactory factory) {
    return factory
        .forEach(Block.class)
        .groupBy(ConstraintCollectors.max(Block::end))
        .join(Limits.class, Joiners.filtering((peak, limits) -> limits.peakCount()))
        .join(Block.class, Joiners.equal((peak, limits) -> peak, Block::end))
        .filter((peak, limits, b) -> b.getSize() > 0)
        .penalize(HardMediumSoftLongScore.ONE_SOFT)
        .asConstraint(AT_PEAK);
  }
}
