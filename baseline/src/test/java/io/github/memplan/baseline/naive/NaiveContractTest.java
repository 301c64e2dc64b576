package io.github.memplan.baseline.naive;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The DSA planner contract for {@code naive}, and its stacking rule by hand. */
class NaiveContractTest extends DsaPlannerContract {
  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return new NaivePlanner();
  }

  /** Disjoint lifetimes still get disjoint space; the fixed buffer keeps 0, others go above it. */
  @Test
  void stacksEveryBufferAboveTheFixedOnes() {
    DsaInstance inst =
        DsaInstance.of(
            "stack",
            List.of(
                Buffer.of("a", 0, 1, 10),
                Buffer.of("b", 1, 2, 10).withAlignment(8),
                Buffer.of("f", 0, 2, 4).withFixedOffset(0)));
    DsaSolution s = assertSolvedSolution(inst);
    // a at 4 (above f's end), b at align_up(14, 8) = 16
    assertThat(s.offsets()).containsExactly(4, 16, 0);
  }

  private DsaSolution assertSolvedSolution(DsaInstance inst) {
    var out = planner().solve(inst, SolveContext.unlimited());
    assertSolved(inst, out);
    return out.solution();
  }
}
