package io.github.memplan.solvers.lmem.timefold;

import ai.timefold.solver.core.api.domain.entity.PlanningEntity;
import ai.timefold.solver.core.api.domain.variable.PiggybackShadowVariable;
import ai.timefold.solver.core.api.domain.variable.PlanningListVariable;
import java.util.ArrayList;
import java.util.List;

/**
 * The single list-owning entity: the order in which the buffers are placed, and the peak of its
 * decode (a shadow variable that {@link LmemDecodeListener} keeps beside the slots' addresses, so
 * that the score reads one number instead of aggregating every slot's end).
 */
@PlanningEntity
public class Sequence {
  @PlanningListVariable private List<Slot> order = new ArrayList<>();

  /** The peak of the decoded order, {@code max(address + bytes)}; set by the listener. */
  @SuppressWarnings("removal")
  @PiggybackShadowVariable(shadowEntityClass = Slot.class, shadowVariableName = "address")
  private Long peak;

  /** For Timefold's planning clone. */
  public Sequence() {}

  Sequence(List<Slot> order) {
    this.order = new ArrayList<>(order);
  }

  /** A sequence with a given peak, for constraint tests. */
  static Sequence withPeak(long peak) {
    Sequence s = new Sequence();
    s.peak = peak;
    return s;
  }

  /** The decoded peak (0 before the first decode). */
  public long peak() {
    return peak == null ? 0 : peak;
  }

  Long getPeak() {
    return peak;
  }

  void setPeak(Long peak) {
    this.peak = peak;
  }

  public List<Slot> getOrder() {
    return order;
  }
}
