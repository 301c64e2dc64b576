package io.github.memplan.baseline.tflite;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The DSA contract for every shared-object strategy, and their characteristic behaviour by hand.
 * TFLite's own expectations for each strategy are in {@link SharedObjectsTest}.
 */
class TfliteSharedObjectsPlannerTest {

  private static Outcome<DsaSolution> solve(GpuStrategy strategy, DsaInstance inst) {
    var out = new TfliteSharedObjectsPlanner(strategy).solve(inst, SolveContext.unlimited());
    DsaPlannerContract.assertSolved(inst, out);
    return out;
  }

  /** The contract with one strategy; shared objects cannot honour fixed offsets. */
  abstract static class SharedContract extends DsaPlannerContract {
    abstract GpuStrategy strategy();

    @Override
    protected Planner<DsaInstance, DsaSolution> planner() {
      return new TfliteSharedObjectsPlanner(strategy());
    }

    @Override
    protected boolean supportsFixedOffsets() {
      return false;
    }
  }

  @Nested
  class Naive extends SharedContract {
    @Override
    GpuStrategy strategy() {
      return GpuStrategy.NAIVE;
    }
  }

  @Nested
  class Equality extends SharedContract {
    @Override
    GpuStrategy strategy() {
      return GpuStrategy.EQUALITY;
    }
  }

  @Nested
  class GreedyInOrder extends SharedContract {
    @Override
    GpuStrategy strategy() {
      return GpuStrategy.GREEDY_IN_ORDER;
    }
  }

  @Nested
  class GreedyByBreadth extends SharedContract {
    @Override
    GpuStrategy strategy() {
      return GpuStrategy.GREEDY_BY_BREADTH;
    }
  }

  @Nested
  class GreedyBySize extends SharedContract {
    @Override
    GpuStrategy strategy() {
      return GpuStrategy.GREEDY_BY_SIZE;
    }
  }

  @Nested
  class GreedyBest extends SharedContract {
    @Override
    GpuStrategy strategy() {
      return GpuStrategy.GREEDY_BEST;
    }
  }

  @Nested
  class MinCostFlow extends SharedContract {
    @Override
    GpuStrategy strategy() {
      return GpuStrategy.MINCOSTFLOW;
    }
  }

  /**
   * a (100 bytes) dies before b (99 bytes) is born, and b before c (100 bytes). EQUALITY refuses
   * a's object to b, one byte smaller, and makes a second object; c then reuses a's: objects 100
   * and 99 side by side, peak 199. GREEDY_IN_ORDER gives b the freed 100-byte object (the closest
   * size) and c too: one object, peak 100.
   */
  @Test
  void equalityRefusesANearSize() {
    DsaInstance inst =
        DsaInstance.of(
            "near-size",
            List.of(
                Buffer.of("a", 0, 1, 100), Buffer.of("b", 1, 2, 99), Buffer.of("c", 2, 3, 100)));
    var eq = solve(GpuStrategy.EQUALITY, inst);
    assertThat(eq.solution().offsets()).containsExactly(0, 100, 0);
    assertThat(eq.stats()).containsEntry("objects", 2.0);
    var inOrder = solve(GpuStrategy.GREEDY_IN_ORDER, inst);
    assertThat(inOrder.solution().offsets()).containsExactly(0, 0, 0);
    assertThat(inst.peak(inOrder.solution())).isEqualTo(100);
  }

  /**
   * A (10, task 0), then B (1, tasks 1-2) and C (10, task 1), then D (10, task 2). In order, B
   * takes A's freed object (the only one), C and then D share a second: 10 + 10 = 20. By breadth,
   * task 1 (11 bytes alive) goes first: C gets object 0 and B, which overlaps it, a 1-byte object
   * 1; task 2: D fits object 0 after C; task 0: A fits object 0 before C. 10 + 1 = 11, the max
   * load.
   */
  @Test
  void breadthPlansTheBusiestTaskFirst() {
    DsaInstance inst =
        DsaInstance.of(
            "breadth",
            List.of(
                Buffer.of("A", 0, 1, 10),
                Buffer.of("B", 1, 3, 1),
                Buffer.of("C", 1, 2, 10),
                Buffer.of("D", 2, 3, 10)));
    var inOrder = solve(GpuStrategy.GREEDY_IN_ORDER, inst);
    assertThat(inOrder.solution().offsets()).containsExactly(0, 0, 10, 10);
    assertThat(inst.peak(inOrder.solution())).isEqualTo(20);
    var byBreadth = solve(GpuStrategy.GREEDY_BY_BREADTH, inst);
    assertThat(byBreadth.solution().offsets()).containsExactly(0, 10, 0, 0);
    assertThat(inst.peak(byBreadth.solution())).isEqualTo(11);
  }

  /** An object's offset is rounded up to its tensors' alignments when objects are laid out. */
  @Test
  void objectsAreAligned() {
    DsaInstance inst =
        DsaInstance.of(
            "aligned", List.of(Buffer.of("a", 0, 2, 3), Buffer.of("b", 0, 2, 4).withAlignment(8)));
    assertThat(solve(GpuStrategy.NAIVE, inst).solution().offsets()).containsExactly(0, 8);
  }
}
