package io.github.memplan.solvers.group.timefold;

import ai.timefold.solver.core.api.score.director.ScoreDirector;
import ai.timefold.solver.core.impl.heuristic.selector.move.factory.MoveIteratorFactory;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;

/**
 * The moves of the cut search ({@link CutMove}): with equal odds, a flip of one boundary drawn
 * uniformly, or a shift: that boundary and one up to {@value #SHIFT} boundaries away in the same
 * base group swap values (a cut moves by up to {@value #SHIFT} ops).
 *
 * <p>A random step ends when the acceptor takes a move; in a small neighbourhood at a strict local
 * optimum it would take none and draw forever. So the random iterator stops after {@link
 * CutPlan#stallMoves()} draws within one step and, through the plan's {@link CutPlan.Control},
 * terminates the solver: the search ends there ("stalled"), deterministically.
 */
public final class CutMoves implements MoveIteratorFactory<CutPlan, CutMove> {
  /** How far a shift moves a cut, at most. */
  static final int SHIFT = 4;

  @Override
  public long getSize(ScoreDirector<CutPlan> scoreDirector) {
    return (long) scoreDirector.getWorkingSolution().getBoundaries().size() * (1 + 2 * SHIFT);
  }

  /** Every flip, then every shift, in boundary order. */
  @Override
  public Iterator<CutMove> createOriginalMoveIterator(ScoreDirector<CutPlan> scoreDirector) {
    List<Boundary> bs = scoreDirector.getWorkingSolution().getBoundaries();
    List<CutMove> out = new ArrayList<>();
    for (Boundary b : bs) {
      out.add(new CutMove(b, null));
    }
    for (int i = 0; i < bs.size(); i++) {
      for (int j = i + 1; j < bs.size() && j <= i + SHIFT; j++) {
        if (bs.get(j).getBase() == bs.get(i).getBase()) {
          out.add(new CutMove(bs.get(i), bs.get(j)));
        }
      }
    }
    return out.iterator();
  }

  @Override
  public Iterator<CutMove> createRandomMoveIterator(
      ScoreDirector<CutPlan> scoreDirector, Random random) {
    CutPlan plan = scoreDirector.getWorkingSolution();
    List<Boundary> bs = plan.getBoundaries();
    long cap = plan.stallMoves();
    return new Iterator<>() {
      private long drawn;

      @Override
      public boolean hasNext() {
        if (drawn < cap) {
          return true;
        }
        plan.control().stall();
        return false;
      }

      @Override
      public CutMove next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        drawn++;
        int i = random.nextInt(bs.size());
        Boundary a = bs.get(i);
        if (random.nextBoolean()) {
          return new CutMove(a, null);
        }
        int d = 1 + random.nextInt(SHIFT);
        int j = random.nextBoolean() ? i + d : i - d;
        if (j < 0 || j >= bs.size() || bs.get(j).getBase() != a.getBase()) {
          return new CutMove(a, null);
        }
        return new CutMove(a, bs.get(j));
      }
    };
  }
}
