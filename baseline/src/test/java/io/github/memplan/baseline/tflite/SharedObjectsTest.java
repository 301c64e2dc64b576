package io.github.memplan.baseline.tflite;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The GPU delegate's strategies against the expectations of TFLite's own test, {@code
 * tensorflow/lite/delegates/gpu/common/memory_management_test.cc} ({@code ChainRecords}, {@code
 * ComplexRecords}): an independent oracle for the port, tie-breaking included.
 */
class SharedObjectsTest {

  /** {@code TensorUsageRecord{size, first, last}}s, in the order the source's test lists them. */
  private static List<UsageRecord> records(long[][] sizeFirstLast) {
    List<UsageRecord> out = new ArrayList<>();
    for (int i = 0; i < sizeFirstLast.length; i++) {
      long[] r = sizeFirstLast[i];
      out.add(new UsageRecord(i, r[0], (int) r[1], (int) r[2], 1));
    }
    return out;
  }

  private static DsaInstance instance(String name, long[][] sizeFirstLast) {
    List<Buffer> bs = new ArrayList<>();
    for (int i = 0; i < sizeFirstLast.length; i++) {
      long[] r = sizeFirstLast[i];
      bs.add(Buffer.of("t" + i, (int) r[1], (int) r[2] + 1, r[0]));
    }
    return DsaInstance.of(name, bs);
  }

  private static final long[][] CHAIN = {{16, 0, 1}, {8, 1, 2}, {64, 2, 3}, {32, 3, 4}, {8, 4, 5}};

  private static final long[][] COMPLEX = {
    {32, 0, 1},
    {32, 1, 4},
    {8, 2, 5},
    {16, 3, 5},
    {8, 4, 5},
    {64, 5, 7},
    {8, 6, 8},
    {8, 7, 8},
    {16, 8, 9}
  };

  private static void check(
      GpuStrategy strategy, long[][] recs, int[] expectedIds, long[] expectedSizes) {
    SharedObjects.Assignment a = SharedObjects.run(strategy, records(recs), Budget.unlimited());
    assertThat(a.objectIds()).as("%s object ids", strategy).containsExactly(expectedIds);
    assertThat(a.objectSizes()).as("%s object sizes", strategy).containsExactly(expectedSizes);
  }

  @Test
  void chainRecords() {
    check(GpuStrategy.NAIVE, CHAIN, new int[] {0, 1, 2, 3, 4}, new long[] {16, 8, 64, 32, 8});
    check(GpuStrategy.EQUALITY, CHAIN, new int[] {0, 1, 2, 3, 1}, new long[] {16, 8, 64, 32});
    check(GpuStrategy.MINCOSTFLOW, CHAIN, new int[] {0, 1, 0, 1, 0}, new long[] {64, 32});
    check(GpuStrategy.GREEDY_IN_ORDER, CHAIN, new int[] {0, 1, 0, 1, 0}, new long[] {64, 32});
    check(GpuStrategy.GREEDY_BY_BREADTH, CHAIN, new int[] {0, 1, 0, 1, 0}, new long[] {64, 32});
    check(GpuStrategy.GREEDY_BY_SIZE, CHAIN, new int[] {0, 1, 0, 1, 0}, new long[] {64, 32});
  }

  @Test
  void complexRecords() {
    check(
        GpuStrategy.NAIVE,
        COMPLEX,
        new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8},
        new long[] {32, 32, 8, 16, 8, 64, 8, 8, 16});
    check(
        GpuStrategy.EQUALITY,
        COMPLEX,
        new int[] {0, 1, 2, 3, 4, 5, 4, 2, 3},
        new long[] {32, 32, 8, 16, 8, 64});
    check(
        GpuStrategy.MINCOSTFLOW,
        COMPLEX,
        new int[] {0, 1, 2, 0, 3, 1, 3, 2, 0},
        new long[] {32, 64, 8, 8});
    check(
        GpuStrategy.GREEDY_IN_ORDER,
        COMPLEX,
        new int[] {0, 1, 0, 2, 3, 1, 3, 2, 0},
        new long[] {32, 64, 16, 8});
    check(
        GpuStrategy.GREEDY_BY_BREADTH,
        COMPLEX,
        new int[] {0, 4, 2, 1, 3, 0, 2, 3, 1},
        new long[] {64, 16, 8, 8, 32});
    check(
        GpuStrategy.GREEDY_BY_SIZE,
        COMPLEX,
        new int[] {1, 0, 2, 1, 3, 0, 1, 2, 0},
        new long[] {64, 32, 8, 8});
  }

  /** BestGreedy keeps greedy-by-size (64+32+8+8 = 112) over greedy-by-breadth (128). */
  @Test
  void greedyBestKeepsTheSmaller() {
    check(
        GpuStrategy.GREEDY_BEST,
        COMPLEX,
        new int[] {1, 0, 2, 1, 3, 0, 1, 2, 0},
        new long[] {64, 32, 8, 8});
  }

  /** {@code AssignOffsetsToTensors(GREEDY_BY_SIZE)}: the expected offsets and total size. */
  @Test
  void greedyBySizeOffsets() {
    DsaInstance chain = instance("chain", CHAIN);
    var out = new TfliteGreedyBySizePlanner().solve(chain, SolveContext.unlimited());
    assertThat(out.solution().offsets()).containsExactly(0, 64, 0, 64, 0);
    assertThat(chain.peak(out.solution())).isEqualTo(96);

    DsaInstance complex = instance("complex", COMPLEX);
    out = new TfliteGreedyBySizePlanner().solve(complex, SolveContext.unlimited());
    assertThat(out.solution().offsets()).containsExactly(0, 32, 80, 64, 88, 0, 64, 72, 0);
    assertThat(complex.peak(out.solution())).isEqualTo(96);
  }

  /**
   * {@code ObjectsToOffsets} ({@code ManyObjectsAssignment} of the same test): objects of sizes 16,
   * 8, 32, 32, 4, 16 side by side start at 0, 16, 24, 56, 88, 92.
   */
  @Test
  void objectsSideBySide() {
    List<UsageRecord> recs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      recs.add(new UsageRecord(i, 1, i, i, 1));
    }
    SharedObjects.Assignment a =
        new SharedObjects.Assignment(
            new int[] {2, 0, 2, 1, 3, 3, 1, 5}, new long[] {16, 8, 32, 32, 4, 16});
    assertThat(TfliteSharedObjectsPlanner.toOffsets(recs, a, 8))
        .containsExactly(24, 0, 24, 16, 56, 56, 16, 92);
  }
}
