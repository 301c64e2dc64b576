package io.github.memplan.baseline.glow.dsa;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The DSA contract for {@code glow-linear}, its online first fit and its failure, by hand. */
class GlowLinearPlannerTest extends DsaPlannerContract {
  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return new GlowLinearPlanner();
  }

  @Override
  protected boolean supportsFixedOffsets() {
    return false;
  }

  /**
   * At timestep 0, A (4 bytes, dies at 1) takes 0 and B (4 bytes, lives to 3) the first hole above
   * it, 4. At 1, A is freed; C (8 bytes) does not fit the 4-byte hole at 0 and goes after B, to 8:
   * peak 16. An offline planner that knew C was coming puts C at 0, A at 0 and B at 8: 12, the max
   * load (B + C at timestep 1).
   */
  private static DsaInstance online() {
    return DsaInstance.of(
        "online",
        List.of(Buffer.of("A", 0, 1, 4), Buffer.of("B", 0, 3, 4), Buffer.of("C", 1, 3, 8)));
  }

  @Test
  void firstFitOnlineCannotLookAhead() {
    DsaInstance inst = online();
    var out = new GlowLinearPlanner().solve(inst, SolveContext.unlimited());
    assertSolved(inst, out);
    assertThat(out.solution().offsets()).containsExactly(0, 4, 8);
  }

  /**
   * With a 12-byte capacity the same run fails at timestep 1: C needs 8 bytes, B holds [4,8), the
   * free regions are [0,4) and [8,12).
   */
  @Test
  void outOfMemoryIsReportedAtTheFailingRequest() {
    DsaInstance inst = online().withCapacity(12);
    var out = new GlowLinearPlanner().solve(inst, SolveContext.unlimited());
    assertThat(out.status()).isEqualTo(Status.FAILED_TO_PLACE);
    assertThat(out.solution()).isNull();
    assertThat(out.lowerBound()).hasValue(12);
    assertThat(out.message())
        .isEqualTo(
            "out of memory at timestep 1: buffer 'C' (8 B) fits in no free region below the"
                + " capacity 12 (largest free region 4 B)");
    assertThat(out.stats()).containsEntry("failed-at-timestep", 1.0);
  }

  /** A capacity of 16 holds the online plan. */
  @Test
  void fitsWhenTheCapacityHoldsTheOnlinePlan() {
    DsaInstance inst = online().withCapacity(16);
    assertSolved(inst, new GlowLinearPlanner().solve(inst, SolveContext.unlimited()));
  }

  /** A hole's start is rounded up to the requester's alignment: b (8-aligned) goes to 8, not 3. */
  @Test
  void holesStartAligned() {
    DsaInstance inst =
        DsaInstance.of(
            "aligned", List.of(Buffer.of("a", 0, 2, 3), Buffer.of("b", 0, 2, 4).withAlignment(8)));
    var out = new GlowLinearPlanner().solve(inst, SolveContext.unlimited());
    assertThat(out.solution().offsets()).containsExactly(0, 8);
  }
}
