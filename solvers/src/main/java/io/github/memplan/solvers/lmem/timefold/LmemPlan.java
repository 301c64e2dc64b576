package io.github.memplan.solvers.lmem.timefold;

import ai.timefold.solver.core.api.domain.solution.PlanningEntityCollectionProperty;
import ai.timefold.solver.core.api.domain.solution.PlanningEntityProperty;
import ai.timefold.solver.core.api.domain.solution.PlanningScore;
import ai.timefold.solver.core.api.domain.solution.PlanningSolution;
import ai.timefold.solver.core.api.domain.solution.ProblemFactCollectionProperty;
import ai.timefold.solver.core.api.domain.solution.ProblemFactProperty;
import ai.timefold.solver.core.api.domain.valuerange.ValueRangeProvider;
import ai.timefold.solver.core.api.score.buildin.hardmediumsoftlong.HardMediumSoftLongScore;
import java.util.List;

/**
 * The Timefold planning solution of one LMEM instance: the slots (indexed like the instance's
 * buffers), the order that owns them, the conflicting pairs and limits, and the precomputed {@link
 * LmemDecoder} (immutable, shared by every clone).
 */
@PlanningSolution
public class LmemPlan {
  @PlanningEntityCollectionProperty @ValueRangeProvider private List<Slot> slots;

  @PlanningEntityProperty private Sequence sequence;

  @ProblemFactCollectionProperty private List<ConflictPair> pairs;

  @ProblemFactProperty private LmemLimits limits;

  private LmemDecoder decoder;

  @PlanningScore private HardMediumSoftLongScore score;

  /** For Timefold's planning clone. */
  public LmemPlan() {}

  LmemPlan(
      List<Slot> slots,
      Sequence sequence,
      List<ConflictPair> pairs,
      LmemLimits limits,
      LmemDecoder decoder) {
    this.slots = slots;
    this.sequence = sequence;
    this.pairs = pairs;
    this.limits = limits;
    this.decoder = decoder;
  }

  public List<Slot> getSlots() {
    return slots;
  }

  public Sequence getSequence() {
    return sequence;
  }

  public List<ConflictPair> getPairs() {
    return pairs;
  }

  public LmemLimits getLimits() {
    return limits;
  }

  LmemDecoder decoder() {
    return decoder;
  }

  public HardMediumSoftLongScore getScore() {
    return score;
  }

  /** The decoded addresses, indexed like the instance's buffers (-1 where not decoded). */
  long[] addresses() {
    long[] out = new long[slots.size()];
    for (int i = 0; i < out.length; i++) {
      Long a = slots.get(i).getAddress();
      out[i] = a == null ? -1 : a;
    }
    return out;
  }
}
