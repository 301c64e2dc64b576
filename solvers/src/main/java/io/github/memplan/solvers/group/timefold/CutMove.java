package io.github.memplan.solvers.group.timefold;

import ai.timefold.solver.core.api.score.director.ScoreDirector;
import ai.timefold.solver.core.impl.heuristic.move.AbstractMove;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Flips one boundary, or two boundaries of one base group whose values differ. One flip merges the
 * two groups (or global ops) on either side of a cut, or splits a group; two flips of a cut and an
 * uncut boundary move the cut, which merges two neighbouring groups and splits the result
 * elsewhere. Flipping the same boundaries again undoes it.
 */
public final class CutMove extends AbstractMove<CutPlan> {
  private final Boundary a;
  private final Boundary b;

  /** A flip of {@code a}, and of {@code b} unless it is {@code null}. */
  CutMove(Boundary a, Boundary b) {
    this.a = Objects.requireNonNull(a, "a");
    this.b = b;
  }

  @Override
  public boolean isMoveDoable(ScoreDirector<CutPlan> scoreDirector) {
    return b == null || (a.isCut() != b.isCut() && a.getBase() == b.getBase());
  }

  @Override
  protected void doMoveOnGenuineVariables(ScoreDirector<CutPlan> scoreDirector) {
    flip(scoreDirector, a);
    if (b != null) {
      flip(scoreDirector, b);
    }
  }

  @SuppressWarnings("removal")
  private static void flip(ScoreDirector<CutPlan> scoreDirector, Boundary x) {
    scoreDirector.beforeVariableChanged(x, "cut");
    x.setCut(!x.isCut());
    scoreDirector.afterVariableChanged(x, "cut");
  }

  @Override
  protected CutMove createUndoMove(ScoreDirector<CutPlan> scoreDirector) {
    return new CutMove(a, b);
  }

  @Override
  public CutMove rebase(ScoreDirector<CutPlan> destination) {
    return new CutMove(
        destination.lookUpWorkingObject(a), b == null ? null : destination.lookUpWorkingObject(b));
  }

  @Override
  public Collection<?> getPlanningEntities() {
    return b == null ? List.of(a) : List.of(a, b);
  }

  @Override
  public Collection<?> getPlanningValues() {
    List<Boolean> out = new ArrayList<>();
    out.add(!a.isCut());
    if (b != null) {
      out.add(!b.isCut());
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CutMove m && m.a == a && m.b == b;
  }

  @Override
  public int hashCode() {
    return Objects.hash(a.getIndex(), b == null ? -1 : b.getIndex());
  }

  @Override
  public String toString() {
    return "flip " + a + (b == null ? "" : " and " + b);
  }
}
