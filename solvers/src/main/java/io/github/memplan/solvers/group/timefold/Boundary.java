package io.github.memplan.solvers.group.timefold;

import ai.timefold.solver.core.api.domain.entity.PlanningEntity;
import ai.timefold.solver.core.api.domain.variable.PlanningVariable;

/**
 * The boundary between op {@code index} and op {@code index + 1} of the order, inside base group
 * {@code base}; its planning variable says whether a group ends there. Boundaries exist only inside
 * base groups, so two base groups are always apart (their boundary indices are never consecutive).
 */
@PlanningEntity
public class Boundary {
  private int index;
  private int base;

  @PlanningVariable(valueRangeProviderRefs = CutPlan.CUT_VALUES)
  private Boolean cut;

  /** For Timefold's planning clone. */
  public Boundary() {}

  public Boundary(int index, int base, boolean cut) {
    this.index = index;
    this.base = base;
    this.cut = cut;
  }

  /** The op before the boundary; the op after it is {@code index + 1}. */
  public int getIndex() {
    return index;
  }

  /** The base group it belongs to. */
  public int getBase() {
    return base;
  }

  public Boolean getCut() {
    return cut;
  }

  public void setCut(Boolean cut) {
    this.cut = cut;
  }

  /** Whether a group ends here ({@code null}, before initialisation, counts as cut). */
  public boolean isCut() {
    return cut == null || cut;
  }

  @Override
  public String toString() {
    return index + (isCut() ? "|" : "-");
  }
}
