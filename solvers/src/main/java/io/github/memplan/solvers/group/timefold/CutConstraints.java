package io.github.memplan.solvers.group.timefold;

import ai.timefold.solver.core.api.score.buildin.hardsoftlong.HardSoftLongScore;
import ai.timefold.solver.core.api.score.stream.Constraint;
import ai.timefold.solver.core.api.score.stream.ConstraintCollectors;
import ai.timefold.solver.core.api.score.stream.ConstraintFactory;
import ai.timefold.solver.core.api.score.stream.ConstraintProvider;
import ai.timefold.solver.core.api.score.stream.common.Sequence;
import ai.timefold.solver.core.api.score.stream.uni.UniConstraintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The score of a set of cuts, with Constraint Streams over the runs of uncut boundaries. A run is
 * found with {@link ConstraintCollectors#toConsecutiveSequences}, grouped per base group, so that
 * flipping one boundary re-derives the runs of its own base group only (Timefold keeps the
 * sequences incrementally in a tree); each run becomes an immutable {@link Run} priced by the
 * memoised {@link CutCosts}.
 *
 * <ul>
 *   <li>hard, {@value #INVALID}: one per run whose ops make no valid group under any secs;
 *   <li>soft, {@value #ALL_GLOBAL}: the cost of running every op alone (a constant);
 *   <li>soft, {@value #SAVING}: per valid run cheaper than its ops run alone, reward the
 *       difference;
 *   <li>soft, {@value #LOSS}: per valid run costlier than its ops run alone, penalise the
 *       difference.
 * </ul>
 *
 * The soft score is thus minus the total cost of the grouping in which every valid run is a group
 * and every other op is global, which is exactly the grouping the planner returns.
 */
public class CutConstraints implements ConstraintProvider {
  static final String INVALID = "invalid group";
  static final String ALL_GLOBAL = "every op global";
  static final String SAVING = "grouping saving";
  static final String LOSS = "grouping loss";

  @Override
  public Constraint[] defineConstraints(ConstraintFactory factory) {
    return new Constraint[] {invalid(factory), allGlobal(factory), saving(factory), loss(factory)};
  }

  /** The runs of uncut boundaries, one {@link Run} each. */
  static UniConstraintStream<Run> runs(ConstraintFactory factory) {
    return factory
        .forEach(Boundary.class)
        .filter(b -> !b.isCut())
        .groupBy(Boundary::getBase, ConstraintCollectors.toConsecutiveSequences(Boundary::getIndex))
        .flattenLast(chain -> toRuns(chain.getConsecutiveSequences()))
        .map((base, run) -> run);
  }

  private static List<Run> toRuns(java.util.Collection<Sequence<Boundary, Integer>> sequences) {
    List<Run> out = new ArrayList<>(sequences.size());
    for (Sequence<Boundary, Integer> s : sequences) {
      out.add(new Run(s.getFirstItem().getIndex(), s.getLastItem().getIndex() + 1));
    }
    return out;
  }

  Constraint invalid(ConstraintFactory factory) {
    return runs(factory)
        .join(CutCosts.class)
        .filter((run, costs) -> costs.invalid(run))
        .penalize(HardSoftLongScore.ONE_HARD)
        .asConstraint(INVALID);
  }

  Constraint allGlobal(ConstraintFactory factory) {
    return factory
        .forEach(CutCosts.class)
        .penalizeLong(HardSoftLongScore.ONE_SOFT, CutCosts::allGlobal)
        .asConstraint(ALL_GLOBAL);
  }

  Constraint saving(ConstraintFactory factory) {
    return runs(factory)
        .join(CutCosts.class)
        .filter((run, costs) -> costs.saving(run) > 0)
        .rewardLong(HardSoftLongScore.ONE_SOFT, (run, costs) -> costs.saving(run))
        .asConstraint(SAVING);
  }

  Constraint loss(ConstraintFactory factory) {
    return runs(factory)
        .join(CutCosts.class)
        .filter((run, costs) -> costs.saving(run) < 0)
        .penalizeLong(HardSoftLongScore.ONE_SOFT, (run, costs) -> -costs.saving(run))
        .asConstraint(LOSS);
  }
}
