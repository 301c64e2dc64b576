package io.github.memplan.solvers.dsa.timefold;

import ai.timefold.solver.core.api.domain.solution.PlanningEntityCollectionProperty;
import ai.timefold.solver.core.api.domain.solution.PlanningEntityProperty;
import ai.timefold.solver.core.api.domain.solution.PlanningScore;
import ai.timefold.solver.core.api.domain.solution.PlanningSolution;
import ai.timefold.solver.core.api.domain.solution.ProblemFactProperty;
import ai.timefold.solver.core.api.domain.valuerange.ValueRangeProvider;
import ai.timefold.solver.core.api.score.buildin.hardmediumsoftlong.HardMediumSoftLongScore;
import java.util.List;

/**
 * The Timefold planning solution of one DSA instance: the blocks (indexed like the instance's
 * buffers), the placement order that owns them, the limits and the precomputed {@link Decoder}
 * (immutable, shared by every clone).
 */
@PlanningSolution
public class DsaPlan {
  @PlanningEntityCollectionProperty @ValueRangeProvider private List<Block> blocks;

  @PlanningEntityProperty private Placement placement;

  @ProblemFactProperty private Limits limits;

  private Decoder decoder;

  @PlanningScore private HardMediumSoftLongScore score;

  /** For Timefold's planning clone. */
  public DsaPlan() {}

  DsaPlan(List<Block> blocks, Placement placement, Limits limits, Decoder decoder) {
    this.blocks = blocks;
    this.placement = placement;
    this.limits = limits;
    this.decoder = decoder;
  }

  public List<Block> getBlocks() {
    return blocks;
  }

  public Placement getPlacement() {
    return placement;
  }

  public Limits getLimits() {
    return limits;
  }

  Decoder decoder() {
    return decoder;
  }

  public HardMediumSoftLongScore getScore() {
    return score;
  }

  /** The decoded offsets, indexed like the instance's buffers. */
  long[] offsets() {
    long[] out = new long[blocks.size()];
    for (int i = 0; i < out.length; i++) {
      Long o = blocks.get(i).getOffset();
      out[i] = o == null ? -1 : o;
    }
    return out;
  }
}
