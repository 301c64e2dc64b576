package io.github.memplan.solvers.lmem.timefold;

import ai.timefold.solver.core.api.score.buildin.hardmediumsoftlong.HardMediumSoftLongScore;
import ai.timefold.solver.core.api.score.stream.Constraint;
import ai.timefold.solver.core.api.score.stream.ConstraintFactory;
import ai.timefold.solver.core.api.score.stream.ConstraintProvider;
import ai.timefold.solver.core.api.score.stream.Joiners;
import ai.timefold.solver.core.api.score.stream.bi.BiConstraintStream;
import ai.timefold.solver.core.api.score.stream.quad.QuadConstraintStream;
import io.github.memplan.solvers.lmem.BankRule;

/**
 * The score of a decoded LMEM placement, the lexicographic objective of issue 7 under the hard
 * rules. Overlaps cannot occur (the decoder places every buffer clear of the earlier ones) and
 * neither can alignment faults, so what is left is:
 *
 * <ul>
 *   <li>hard: how far the peak exceeds the capacity (bytes); one per conflicting pair sharing a
 *       bank under {@code conflict=hard} and one per straddling buffer under {@code straddle=hard}
 *       (the decoder never produces either; counted so that a decoder bug could not pass as a
 *       solution);
 *   <li>medium: under {@code conflict=soft}, {@link LmemLimits#conflictWeight} per conflicting pair
 *       sharing a bank, and under {@code straddle=soft}, one per straddling buffer: one conflict
 *       outweighs every straddle;
 *   <li>soft: the peak {@code max(address + bytes)} (bytes).
 * </ul>
 *
 * Conflicts and straddles are exactly {@link io.github.memplan.core.lmem.LmemBanks}'s: a
 * conflicting pair is a {@link ConflictPair} fact (the engine condition, precomputed), joined with
 * the two slots by index, and counts when they share a bank; only slots whose address changed are
 * re-evaluated. The peak is a shadow variable of the {@link Sequence} as in the DSA planner.
 */
public class LmemConstraints implements ConstraintProvider {
  static final String OVER_CAPACITY = "over capacity";
  static final String HARD_CONFLICT = "bank conflict (hard)";
  static final String HARD_STRADDLE = "bank straddle (hard)";
  static final String SOFT_CONFLICT = "bank conflict";
  static final String SOFT_STRADDLE = "bank straddle";
  static final String PEAK = "peak";

  @Override
  public Constraint[] defineConstraints(ConstraintFactory factory) {
    return new Constraint[] {
      overCapacity(factory),
      hardConflict(factory),
      hardStraddle(factory),
      softConflict(factory),
      softStraddle(factory),
      peak(factory)
    };
  }

  Constraint overCapacity(ConstraintFactory factory) {
    return factory
        .forEach(Sequence.class)
        .join(LmemLimits.class, Joiners.filtering((s, l) -> s.peak() > l.capacity()))
        .penalizeLong(HardMediumSoftLongScore.ONE_HARD, (s, l) -> s.peak() - l.capacity())
        .asConstraint(OVER_CAPACITY);
  }

  /** The conflicting pairs sharing a bank, when the conflict rule is {@code rule}. */
  private static QuadConstraintStream<LmemLimits, ConflictPair, Slot, Slot> conflicts(
      ConstraintFactory factory, BankRule rule) {
    return factory
        .forEach(LmemLimits.class)
        .filter(l -> l.conflict() == rule)
        .join(ConflictPair.class)
        .join(Slot.class, Joiners.equal((l, p) -> p.a(), Slot::getIndex))
        .join(Slot.class, Joiners.equal((l, p, x) -> p.b(), Slot::getIndex))
        .filter((l, p, x, y) -> x.sharesBank(y));
  }

  /** The straddling slots, when the straddle rule is {@code rule}. */
  private static BiConstraintStream<LmemLimits, Slot> straddles(
      ConstraintFactory factory, BankRule rule) {
    return factory
        .forEach(LmemLimits.class)
        .filter(l -> l.straddle() == rule)
        .join(Slot.class, Joiners.filtering((l, s) -> s.straddles()));
  }

  Constraint hardConflict(ConstraintFactory factory) {
    return conflicts(factory, BankRule.HARD)
        .penalize(HardMediumSoftLongScore.ONE_HARD)
        .asConstraint(HARD_CONFLICT);
  }

  Constraint hardStraddle(ConstraintFactory factory) {
    return straddles(factory, BankRule.HARD)
        .penalize(HardMediumSoftLongScore.ONE_HARD)
        .asConstraint(HARD_STRADDLE);
  }

  Constraint softConflict(ConstraintFactory factory) {
    return conflicts(factory, BankRule.SOFT)
        .penalizeLong(HardMediumSoftLongScore.ONE_MEDIUM, (l, p, x, y) -> l.conflictWeight())
        .asConstraint(SOFT_CONFLICT);
  }

  Constraint softStraddle(ConstraintFactory factory) {
    return straddles(factory, BankRule.SOFT)
        .penalize(HardMediumSoftLongScore.ONE_MEDIUM)
        .asConstraint(SOFT_STRADDLE);
  }

  Constraint peak(ConstraintFactory factory) {
    return factory
        .forEach(Sequence.class)
        .penalizeLong(HardMediumSoftLongScore.ONE_SOFT, Sequence::peak)
        .asConstraint(PEAK);
  }
}
