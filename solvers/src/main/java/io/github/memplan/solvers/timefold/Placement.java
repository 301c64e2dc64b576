package io.github.memplan.solvers.timefold;

import ai.timefold.solver.core.api.domain.entity.PlanningEntity;
import ai.timefold.solver.core.api.domain.entity.PlanningPinToIndex;
import ai.timefold.solver.core.api.domain.variable.PlanningListVariable;
import java.util.ArrayList;
import java.util.List;

/**
 * The single list-owning entity: the order in which the buffers are placed. Buffers with a fixed
 * offset come first and are pinned there ({@code pinned} of them), so that every other buffer sees
 * them as obstacles and no move can reorder them.
 */
@PlanningEntity
public class Placement {
  @PlanningListVariable private List<Block> order = new ArrayList<>();

  @PlanningPinToIndex private int pinned;

  /** For Timefold's planning clone. */
  public Placement() {}

  Placement(List<Block> order, int pinned) {
    this.order = new ArrayList<>(order);
    this.pinned = pinned;
  }

  public List<Block> getOrder() {
    return order;
  }

  public int getPinned() {
    return pinned;
  }
}
