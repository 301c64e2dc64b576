package io.github.memplan.baseline.tflite;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaOutcomes;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * TensorFlow Lite Micro's {@code GreedyMemoryPlanner::CalculateOffsetsIfNeeded} ({@code
 * tensorflow/tflite-micro: tensorflow/lite/micro/memory_planner/greedy_memory_planner.cc}).
 *
 * <p>Buffers planned offline (here: buffers with a fixed offset) come first, in the order they were
 * added, at their given offsets. The others are sorted by {@code ReverseSortInPlace}, a stable
 * bubble sort into non-increasing size of a list the planner fills from its tail, so buffers of
 * equal size are taken in <em>reverse</em> order of addition (highest instance index first). Each
 * buffer then walks the placed buffers in order of offset, considering only those whose {@code
 * [first_time_used, last_time_used]} overlaps its own, and takes the <em>first</em> gap (from the
 * highest end seen so far to the next such buffer) that holds it, else the place above the last
 * one: first fit, where TFLite's CPU arena takes the best fit. Without offline buffers the largest
 * buffer lands at 0.
 *
 * <p>Departures: TFLM aligns sizes before planning, here each gap's start is rounded up to the
 * buffer's own alignment; gaps are ignored. The source's O(n²) sort is replaced by an equivalent
 * stable sort.
 */
public final class TflmGreedyPlanner implements Planner<DsaInstance, DsaSolution> {

  private record Entry(long offset, long size, int first, int last) {}

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    int n = instance.size();
    long[] offsets = new long[n];
    List<Integer> offline = new ArrayList<>();
    List<Integer> online = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (instance.buffer(i).fixedOffset().isPresent()) {
        offline.add(i);
      } else {
        online.add(i);
      }
    }
    // the source fills its list from the tail: reverse order of addition (reversed once here, not
    // by inserting at the head, which is quadratic)
    java.util.Collections.reverse(online);
    // ReverseSortInPlace is stable: List.sort (a merge sort) keeps equal sizes in list order
    online.sort((x, y) -> Long.compare(instance.buffer(y).size(), instance.buffer(x).size()));
    List<Integer> sorted = new ArrayList<>(offline);
    sorted.addAll(online);

    List<Entry> byOffset = new ArrayList<>(); // buffers_sorted_by_offset_
    for (int k = 0; k < sorted.size(); k++) {
      if (ctx.budget().exhausted(k)) {
        return Outcome.noSolution(
            OptionalLong.of(LowerBounds.maxLoad(instance)),
            "budget exhausted after placing " + k + " of " + n + " buffers");
      }
      int id = sorted.get(k);
      Buffer b = instance.buffer(id);
      int first = b.lower();
      int last = b.upper() - 1;
      long candidate;
      if (b.fixedOffset().isPresent()) {
        candidate = b.fixedOffset().getAsLong();
      } else {
        candidate = 0;
        for (Entry next : byOffset) {
          if (next.first() > last || first > next.last()) {
            continue; // not simultaneously active
          }
          long gap = next.offset() - Alignment.up(candidate, b.alignment());
          if (gap >= b.size()) {
            break;
          }
          candidate = Math.max(candidate, next.offset() + next.size());
        }
        candidate = Alignment.up(candidate, b.alignment());
      }
      offsets[id] = candidate;
      insert(byOffset, new Entry(candidate, b.size(), first, last));
    }
    return DsaOutcomes.fromOffsets(instance, offsets, Map.of());
  }

  /** Inserts before the first entry whose offset exceeds the new one's, as the source does. */
  private static void insert(List<Entry> byOffset, Entry e) {
    int lo = 0;
    int hi = byOffset.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (byOffset.get(mid).offset() <= e.offset()) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    byOffset.add(lo, e);
  }
}
