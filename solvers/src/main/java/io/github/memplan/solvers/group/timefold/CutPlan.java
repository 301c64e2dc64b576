package io.github.memplan.solvers.group.timefold;

import ai.timefold.solver.core.api.domain.solution.PlanningEntityCollectionProperty;
import ai.timefold.solver.core.api.domain.solution.PlanningScore;
import ai.timefold.solver.core.api.domain.solution.PlanningSolution;
import ai.timefold.solver.core.api.domain.solution.ProblemFactProperty;
import ai.timefold.solver.core.api.domain.valuerange.ValueRangeProvider;
import ai.timefold.solver.core.api.score.buildin.hardsoftlong.HardSoftLongScore;
import java.util.ArrayList;
import java.util.List;

/**
 * The Timefold planning solution of one grouping problem: the boundaries (ascending by index) and
 * the costs they are priced with.
 */
@PlanningSolution
public class CutPlan {
  static final String CUT_VALUES = "cutValues";

  @PlanningEntityCollectionProperty private List<Boundary> boundaries;

  @ProblemFactProperty private CutCosts costs;

  @PlanningScore private HardSoftLongScore score;

  /** Shared by every clone (not a planning property): how a stalled step stops the solver. */
  private Control control = new Control();

  /**
   * How a step that finds no acceptable move ends the search: {@link CutSearch} gives it the solver
   * before solving; {@link CutMoves} calls {@link #stall()} when a step has drawn {@link
   * CutPlan#stallMoves()} moves without the acceptor taking one.
   */
  static final class Control {
    private ai.timefold.solver.core.api.solver.Solver<CutPlan> solver;
    private boolean stalled;

    void attach(ai.timefold.solver.core.api.solver.Solver<CutPlan> solver) {
      this.solver = solver;
    }

    void stall() {
      stalled = true;
      if (solver != null) {
        solver.terminateEarly();
      }
    }

    boolean stalled() {
      return stalled;
    }
  }

  /** For Timefold's planning clone. */
  public CutPlan() {}

  public CutPlan(List<Boundary> boundaries, CutCosts costs) {
    this.boundaries = new ArrayList<>(boundaries);
    this.costs = costs;
  }

  /**
   * One boundary per pair of consecutive ops in a base group of {@code oracle}, cut unless {@code
   * joined[i]} says ops {@code i} and {@code i + 1} share a group.
   */
  public static CutPlan of(RangeOracle oracle, boolean[] joined) {
    List<Boundary> out = new ArrayList<>();
    List<int[]> bases = oracle.baseGroups();
    for (int b = 0; b < bases.size(); b++) {
      for (int i = bases.get(b)[0]; i < bases.get(b)[1]; i++) {
        out.add(new Boundary(i, b, !joined[i]));
      }
    }
    return new CutPlan(out, new CutCosts(oracle));
  }

  Control control() {
    return control;
  }

  /**
   * Moves a step may draw before the search counts as stalled: four times the neighbourhood's size
   * ({@link CutMoves#getSize}), at least 1,000, so that every move of the neighbourhood has most
   * likely been drawn.
   */
  long stallMoves() {
    return Math.max(1_000L, 4L * boundaries.size() * (1 + 2 * CutMoves.SHIFT));
  }

  @ValueRangeProvider(id = CUT_VALUES)
  public List<Boolean> getCutValues() {
    return List.of(Boolean.FALSE, Boolean.TRUE);
  }

  public List<Boundary> getBoundaries() {
    return boundaries;
  }

  public CutCosts getCosts() {
    return costs;
  }

  public HardSoftLongScore getScore() {
    return score;
  }

  /** The runs of uncut boundaries, ascending: the groups of this solution. */
  public List<Run> runs() {
    List<Run> out = new ArrayList<>();
    int start = -1;
    int prev = Integer.MIN_VALUE;
    for (Boundary b : boundaries) {
      boolean extend = !b.isCut() && start >= 0 && b.getIndex() == prev + 1;
      if (!extend && start >= 0) {
        out.add(new Run(start, prev + 1));
        start = -1;
      }
      if (!b.isCut() && start < 0) {
        start = b.getIndex();
      }
      prev = b.isCut() ? Integer.MIN_VALUE : b.getIndex();
    }
    if (start >= 0) {
      out.add(new Run(start, prev + 1));
    }
    return out;
  }
}
