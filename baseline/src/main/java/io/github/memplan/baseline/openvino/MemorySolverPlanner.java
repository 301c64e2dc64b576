package io.github.memplan.baseline.openvino;

import io.github.memplan.baseline.support.Lifetimes;
import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaOutcomes;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * OpenVINO's {@code MemorySolver::solve} ({@code openvinotoolkit/openvino:
 * src/core/include/openvino/runtime/memory_solver.hpp}; read in its 2018 form, {@code
 * inference-engine/src/mkldnn_plugin/mkldnn_memory_solver.cpp}, which the CPU plugin and the
 * snippets {@code BufferSolver} share).
 *
 * <p>Each buffer is a box from {@code start = lower} to {@code finish = upper - 1} (inclusive time
 * slots). The constructor sorts the boxes by (start, finish); {@code solve} then sorts them by
 * size, biggest first, and places each at offset 0, then, sweeping over every time slot it covers
 * and every box already placed in that slot, "pops it up" to the top of any box it intersects,
 * repeating the sweep until a whole sweep pops nothing. Each pop lands on the top of a box that
 * lies wholly below the lowest offset where the box fits, so the fixpoint is exactly that lowest
 * offset: the box lands in the lowest gap, among the boxes that overlap it in time, where it fits
 * (first fit, not best fit). This class computes that offset directly with a sweep over the
 * overlapping placed boxes sorted by offset, which gives the same offsets without the repeated
 * sweeps (the tests check it against a literal pop-up loop).
 *
 * <p>Departures: {@code std::sort} is not stable, so the source leaves equal sizes in an
 * unspecified order; here they keep the constructor's (start, finish) order, then instance order.
 * The source has no alignment (callers align sizes); here a pop lands on the box's top rounded up
 * to the buffer's alignment. Buffers with a fixed offset keep it and are placed first; zero-size
 * buffers take offset 0 and are nobody's obstacle. Gaps are not exploited.
 */
public final class MemorySolverPlanner implements Planner<DsaInstance, DsaSolution> {

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    int n = instance.size();
    int[][] overlaps = Lifetimes.overlaps(instance, ctx.budget());
    if (overlaps == null) {
      return Outcome.noSolution(
          OptionalLong.empty(), "budget exhausted while listing overlapping lifetimes");
    }
    long[] offsets = new long[n];
    boolean[] placed = new boolean[n];
    List<Integer> boxes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Buffer b = instance.buffer(i);
      if (b.fixedOffset().isPresent()) {
        offsets[i] = b.fixedOffset().getAsLong();
        placed[i] = b.size() > 0;
      } else if (b.size() > 0) {
        boxes.add(i);
      }
    }
    boxes.sort(order(instance));
    int most = 0;
    for (int[] o : overlaps) {
      most = Math.max(most, o.length);
    }
    int[] below = new int[most];
    int[] scratch = new int[most];
    long[] packed = new long[most];
    for (int k = 0; k < boxes.size(); k++) {
      if (Lifetimes.stop(ctx.budget(), k)) {
        return Outcome.noSolution(
            OptionalLong.empty(), "budget exhausted after " + k + " of " + boxes.size() + " boxes");
      }
      int i = boxes.get(k);
      Buffer b = instance.buffer(i);
      int m = 0;
      for (int c : overlaps[i]) {
        if (placed[c]) {
          below[m++] = c;
        }
      }
      Lifetimes.sortByKey(below, m, offsets, scratch, packed);
      long at = 0;
      for (int j = 0; j < m; j++) {
        int c = below[j];
        if (offsets[c] >= at + b.size()) {
          break;
        }
        long top = offsets[c] + instance.buffer(c).size();
        if (top > at) {
          at = Alignment.up(top, b.alignment());
        }
      }
      offsets[i] = at;
      placed[i] = true;
    }
    return DsaOutcomes.fromOffsets(instance, offsets, Map.of());
  }

  /** Size descending; ties in the constructor's (start, finish) order, then instance order. */
  static Comparator<Integer> order(DsaInstance instance) {
    return Comparator.<Integer>comparingLong(i -> instance.buffer(i).size())
        .reversed()
        .thenComparingInt(i -> instance.buffer(i).lower())
        .thenComparingInt(i -> instance.buffer(i).upper())
        .thenComparingInt(i -> i);
  }
}
