package io.github.memplan.solvers.dsa.timefold;

import ai.timefold.solver.core.api.domain.entity.PlanningEntity;
import ai.timefold.solver.core.api.domain.entity.PlanningPinToIndex;
import ai.timefold.solver.core.api.domain.variable.PiggybackShadowVariable;
import ai.timefold.solver.core.api.domain.variable.PlanningListVariable;
import java.util.ArrayList;
import java.util.List;

/**
 * The single list-owning entity: the order in which the buffers are placed, and the peak of its
 * decode (shadow variables that {@link DecodeListener} keeps beside the blocks' offsets, so that
 * the score reads one number instead of aggregating every block's end). Buffers with a fixed offset
 * come first and are pinned there ({@code pinned} of them), so that every other buffer sees them as
 * obstacles and no move can reorder them.
 */
@PlanningEntity
public class Placement {
  @PlanningListVariable private List<Block> order = new ArrayList<>();

  @PlanningPinToIndex private int pinned;

  /** The peak of the decoded order, {@code max(offset + size)}; set by {@link DecodeListener}. */
  @SuppressWarnings("removal")
  @PiggybackShadowVariable(shadowEntityClass = Block.class, shadowVariableName = "offset")
  private Long peak;

  /** How many non-empty blocks end at the peak; set by {@link DecodeListener}. */
  @SuppressWarnings("removal")
  @PiggybackShadowVariable(shadowEntityClass = Block.class, shadowVariableName = "offset")
  private Integer atPeak;

  /** For Timefold's planning clone. */
  public Placement() {}

  Placement(List<Block> order, int pinned) {
    this.order = new ArrayList<>(order);
    this.pinned = pinned;
  }

  /** A placement with a given peak and count at the peak, for constraint tests. */
  static Placement withPeak(long peak, int atPeak) {
    Placement p = new Placement();
    p.peak = peak;
    p.atPeak = atPeak;
    return p;
  }

  /** The decoded peak (0 before the first decode). */
  public long peak() {
    return peak == null ? 0 : peak;
  }

  /** Non-empty blocks ending at the peak (0 before the first decode). */
  public int atPeak() {
    return atPeak == null ? 0 : atPeak;
  }

  Long getPeak() {
    return peak;
  }

  void setPeak(Long peak) {
    this.peak = peak;
  }

  Integer getAtPeak() {
    return atPeak;
  }

  void setAtPeak(Integer atPeak) {
    this.atPeak = atPeak;
  }

  public List<Block> getOrder() {
    return order;
  }

  public int getPinned() {
    return pinned;
  }
}
