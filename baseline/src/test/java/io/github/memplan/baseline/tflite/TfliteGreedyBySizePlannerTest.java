package io.github.memplan.baseline.tflite;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The DSA contract for {@code tflite-greedy-by-size}; its source's own expectations are in {@link
 * SharedObjectsTest#greedyBySizeOffsets()}.
 */
class TfliteGreedyBySizePlannerTest extends DsaPlannerContract {
  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return new TfliteGreedyBySizePlanner();
  }

  /**
   * Fixed walls F1 [0,3), F2 [16,20), F3 [34,36) over time [0,2) leave, for e (8 bytes, 8-aligned),
   * the gaps [align_up(3, 8) = 8, 16) of 8 bytes and [24, 34) of 10 bytes. Greedy by size measures
   * each gap from its aligned start and takes the smaller, 8. The CPU arena, which records the
   * first gap's fit from the unaligned end 3 (13 bytes), takes 24 (see {@link
   * TfliteArenaPlannerTest#keepsTheSourcesFitQuirk()}).
   */
  @Test
  void smallestGapFromTheAlignedStart() {
    DsaInstance inst = alignedWalls();
    var out = new TfliteGreedyBySizePlanner().solve(inst, SolveContext.unlimited());
    assertSolved(inst, out);
    assertThat(out.solution().offsets()).containsExactly(0, 16, 34, 8);
  }

  static DsaInstance alignedWalls() {
    return DsaInstance.of(
        "aligned-walls",
        List.of(
            Buffer.of("F1", 0, 2, 3).withFixedOffset(0),
            Buffer.of("F2", 0, 2, 4).withFixedOffset(16),
            Buffer.of("F3", 0, 2, 2).withFixedOffset(34),
            Buffer.of("e", 0, 2, 8).withAlignment(8)));
  }
}
