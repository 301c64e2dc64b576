package io.github.memplan.baseline.openvino;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaFixtures;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Hand-worked runs of OpenVINO's MemorySolver, and the literal pop-up loop as an oracle. */
class MemorySolverPlannerTest {

  private static long[] plan(DsaInstance instance) {
    Outcome<DsaSolution> o = new MemorySolverPlanner().solve(instance, SolveContext.unlimited());
    DsaPlannerContract.assertSolved(instance, o);
    return o.solution().offsets();
  }

  /**
   * The source's loop, transcribed: boxes sorted by (start, finish), then stably by size
   * descending; each starts at 0 and, over every slot it covers and every box already in that slot,
   * pops up to the top of any box it intersects (rounded to its alignment), until a whole sweep
   * pops nothing.
   */
  static long[] popUp(DsaInstance instance) {
    int n = instance.size();
    List<Integer> boxes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      boxes.add(i);
    }
    boxes.sort(
        Comparator.<Integer>comparingInt(i -> instance.buffer(i).lower())
            .thenComparingInt(i -> instance.buffer(i).upper()));
    boxes.sort(Comparator.<Integer>comparingLong(i -> instance.buffer(i).size()).reversed());
    Map<Integer, List<Integer>> slots = new TreeMap<>();
    long[] off = new long[n];
    for (int i : boxes) {
      Buffer b = instance.buffer(i);
      long at = 0;
      boolean popped;
      do {
        popped = false;
        for (int t = b.lower(); t < b.upper(); t++) {
          for (int j : slots.getOrDefault(t, List.of())) {
            long top = off[j] + instance.buffer(j).size();
            if (at + b.size() > off[j] && top > at) {
              at = Alignment.up(top, b.alignment());
              popped = true;
            }
          }
        }
      } while (popped);
      off[i] = at;
      for (int t = b.lower(); t < b.upper(); t++) {
        slots.computeIfAbsent(t, k -> new ArrayList<>()).add(i);
      }
    }
    return off;
  }

  @Test
  void matchesTheLiteralPopUpLoopOnRandomInstances() {
    for (DsaInstance instance : DsaFixtures.randomInstances(DsaFixtures.RANDOM_SEED + 7, 150)) {
      assertThat(plan(instance)).as(instance.name()).containsExactly(popUp(instance));
    }
  }

  /**
   * Two fixed buffers at [10,20) and [26,40) while n (5 bytes) lives: n pops nothing at 0, so it
   * takes the lowest gap, 0 (XLA's best fit takes [20,26)).
   */
  @Test
  void takesTheLowestGapThatFits() {
    DsaInstance instance =
        DsaInstance.of(
            "first-fit",
            List.of(
                Buffer.of("f1", 0, 1, 10).withFixedOffset(10),
                Buffer.of("f2", 0, 1, 14).withFixedOffset(26),
                Buffer.of("n", 0, 1, 5)));
    assertThat(plan(instance)[2]).isZero();
  }

  /**
   * A(2) [0,3), B(5) [0,1), C(6) [1,3), D(2) [0,1). Sizes: C, B, then A and D tie at 2 and keep the
   * constructor's (start, finish) order: D (0,0) before A (0,2). C 0, B 0 (not alive with C), D
   * pops over B to 5, A pops over B (5), C (6) and D (7): A at 7, peak 9 = max load (t0: 2+5+2).
   */
  @Test
  void equalSizesKeepStartFinishOrder() {
    DsaInstance instance =
        DsaInstance.of(
            "ties",
            List.of(
                Buffer.of("A", 0, 3, 2),
                Buffer.of("B", 0, 1, 5),
                Buffer.of("C", 1, 3, 6),
                Buffer.of("D", 0, 1, 2)));
    assertThat(plan(instance)).containsExactly(7, 0, 0, 5);
  }
}
