package io.github.memplan.baseline.ort;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-worked runs of ONNX Runtime's exact-size reuse. */
class ExactSizeReusePlannerTest {

  private static Outcome<DsaSolution> run(DsaInstance instance) {
    Outcome<DsaSolution> o = new ExactSizeReusePlanner().solve(instance, SolveContext.unlimited());
    DsaPlannerContract.assertSolved(instance, o);
    return o;
  }

  /**
   * A(100) dies at step 0; B(96) at step 1 finds only A's 100-byte buffer free and refuses it (not
   * the same size): a new allocation at 100. C(100) at step 2 finds B's (96) then A's (100) and
   * reuses A's. Peak 196, where one buffer at a time is alive (max load 100).
   */
  @Test
  void refusesABufferOfANearSize() {
    DsaInstance instance =
        DsaInstance.of(
            "near",
            List.of(
                Buffer.of("A", 0, 1, 100), Buffer.of("B", 1, 2, 96), Buffer.of("C", 2, 3, 100)));
    Outcome<DsaSolution> o = run(instance);
    assertThat(o.solution().offsets()).containsExactly(0, 100, 0);
    assertThat(o.stats()).containsEntry("allocations", 2.0).containsEntry("reused", 1.0);
  }

  /**
   * The free list is last-in first-out: A (freed at step 0) and B (freed at step 1) are both 64
   * bytes; C at step 2 takes B's, the most recently freed.
   */
  @Test
  void reusesTheMostRecentlyFreedBuffer() {
    DsaInstance instance =
        DsaInstance.of(
            "lifo",
            List.of(Buffer.of("A", 0, 1, 64), Buffer.of("B", 0, 2, 64), Buffer.of("C", 2, 3, 64)));
    assertThat(run(instance).solution().offsets()).containsExactly(0, 64, 64);
  }

  /**
   * At step 1, X (an input read for the last time) is freed before Y (an output nobody reads), so Y
   * ends up at the front of the free list and Z takes Y's buffer.
   */
  @Test
  void inputsAreFreedBeforeUnreadOutputs() {
    DsaInstance instance =
        DsaInstance.of(
            "free-order",
            List.of(Buffer.of("X", 0, 2, 8), Buffer.of("Y", 1, 2, 8), Buffer.of("Z", 2, 3, 8)));
    assertThat(run(instance).solution().offsets()).containsExactly(0, 8, 8);
  }

  /**
   * Allocations sit on the least common multiple of their buffers' alignments, above fixed ones.
   */
  @Test
  void allocationsStartAboveFixedBuffersOnTheirAlignment() {
    DsaInstance instance =
        DsaInstance.of(
            "aligned",
            List.of(
                Buffer.of("f", 0, 3, 10).withFixedOffset(0),
                Buffer.of("a", 0, 1, 32),
                Buffer.of("b", 1, 2, 32).withAlignment(16)));
    // b reuses a's allocation, which must then sit on 16: round_up(10, 16) = 16
    assertThat(run(instance).solution().offsets()).containsExactly(0, 16, 16);
  }
}
