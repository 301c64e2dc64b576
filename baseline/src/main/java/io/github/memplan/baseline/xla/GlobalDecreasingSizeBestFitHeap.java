package io.github.memplan.baseline.xla;

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
import java.util.Objects;
import java.util.OptionalLong;

/**
 * XLA's {@code GlobalDecreasingSizeBestFitHeap} ({@code openxla/xla:
 * xla/service/heap_simulator/heap_simulator.cc}; {@code GetSortedBufferIntervals}, {@code
 * GetSpatialBufferIntervalCompare}, {@code GetTemporalBufferIntervalCompare}, {@code
 * FindChunkCandidate}, {@code CommitChunk}; the events of {@code HeapSimulator::RunComputation}),
 * in its {@code kSpatial} and {@code kTemporal} packing orders with the default best-fit chunk
 * placement.
 *
 * <p><b>Events.</b> The heap simulator replays the schedule: values sorted by (start, inclusive
 * end, id); at each step, {@code Alloc} for the values that start there, then {@code Free} for
 * those whose last step it is. The heap's clock advances by one at every call, and a buffer's
 * interval is {@code [clock at Alloc, clock at Free]}: its duration counts events, not steps.
 * Zero-size buffers are given offset 0 and no event.
 *
 * <p><b>Order.</b> {@link Type#SPATIAL}: size descending, then duration descending, then id
 * ascending (here: instance index). {@link Type#TEMPORAL}: duration descending, then size
 * descending, then id.
 *
 * <p><b>Placement.</b> For each buffer in that order, the chunks already committed that overlap it
 * in time are subtracted from {@code [0, INT64_MAX)}; a free range starts at 0 or at the end of a
 * used chunk rounded up to the alignment, ends at the next used chunk, and is kept only if the
 * buffer fits. The buffer takes the start of the <em>smallest</em> kept range, the lowest on ties
 * (best fit; the unbounded top range counts as the largest). The heap size is the highest chunk
 * end.
 *
 * <p>Departures: XLA rounds with one heap-wide alignment; here each buffer's own alignment rounds
 * the starts of its free ranges (the same when all alignments agree); colocations, preferred
 * offsets, slicing and the multi-heap size limit of {@code
 * ConstrainedGlobalDecreasingSizeBestFitHeap} are not modelled (one heap, capacity checked on the
 * result); buffers with a fixed offset are committed before the others. Gaps are not exploited.
 */
public final class GlobalDecreasingSizeBestFitHeap implements Planner<DsaInstance, DsaSolution> {

  /** The packing order ({@code PackingStrategy}). */
  public enum Type {
    /** {@code kSpatial}: size, then duration, descending. */
    SPATIAL,
    /** {@code kTemporal}: duration, then size, descending. */
    TEMPORAL
  }

  private final Type type;

  public GlobalDecreasingSizeBestFitHeap(Type type) {
    this.type = Objects.requireNonNull(type, "type");
  }

  public Type type() {
    return type;
  }

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    long[] offsets = place(instance, ctx);
    if (offsets == null) {
      return Outcome.noSolution(OptionalLong.empty(), "budget exhausted while placing");
    }
    return DsaOutcomes.fromOffsets(instance, offsets, Map.of());
  }

  /**
   * The heap clock at each buffer's {@code Alloc} and {@code Free}, as {@code {start, end}} ({@code
   * null} for zero-size buffers).
   */
  static long[][] eventIntervals(DsaInstance instance) {
    int n = instance.size();
    List<Integer> values = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (instance.buffer(i).size() > 0) {
        values.add(i);
      }
    }
    List<Integer> allocs = new ArrayList<>(values);
    allocs.sort(
        Comparator.<Integer>comparingInt(i -> instance.buffer(i).lower())
            .thenComparingInt(i -> instance.buffer(i).upper())
            .thenComparingInt(i -> i));
    List<Integer> frees = new ArrayList<>(values);
    frees.sort(
        Comparator.<Integer>comparingInt(i -> instance.buffer(i).upper())
            .thenComparingInt(i -> instance.buffer(i).lower())
            .thenComparingInt(i -> i));
    long[][] interval = new long[n][];
    long clock = 0;
    int a = 0;
    int f = 0;
    while (f < frees.size()) {
      int t =
          a < allocs.size()
              ? Math.min(instance.buffer(allocs.get(a)).lower(), last(instance, frees.get(f)))
              : last(instance, frees.get(f));
      for (; a < allocs.size() && instance.buffer(allocs.get(a)).lower() == t; a++) {
        interval[allocs.get(a)] = new long[] {clock++, -1};
      }
      for (; f < frees.size() && last(instance, frees.get(f)) == t; f++) {
        interval[frees.get(f)][1] = clock++;
      }
    }
    return interval;
  }

  private static int last(DsaInstance instance, int i) {
    return instance.buffer(i).upper() - 1;
  }

  /** The offsets of every buffer, or {@code null} if the budget ran out. */
  long[] place(DsaInstance instance, SolveContext ctx) {
    int n = instance.size();
    long[][] events = eventIntervals(instance);
    int[][] overlaps = Lifetimes.overlaps(instance, ctx.budget());
    if (overlaps == null) {
      return null;
    }
    long[] offsets = new long[n];
    boolean[] committed = new boolean[n];
    List<Integer> sorted = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Buffer b = instance.buffer(i);
      if (b.fixedOffset().isPresent()) {
        offsets[i] = b.fixedOffset().getAsLong();
        committed[i] = b.size() > 0;
      } else if (b.size() > 0) {
        sorted.add(i);
      }
    }
    Comparator<Integer> bySize =
        Comparator.<Integer>comparingLong(i -> instance.buffer(i).size()).reversed();
    Comparator<Integer> byDuration =
        Comparator.<Integer>comparingLong(i -> events[i][1] - events[i][0]).reversed();
    Comparator<Integer> primary = type == Type.SPATIAL ? bySize : byDuration;
    Comparator<Integer> secondary = type == Type.SPATIAL ? byDuration : bySize;
    sorted.sort(primary.thenComparing(secondary).thenComparingInt(i -> i));

    int most = 0;
    for (int[] o : overlaps) {
      most = Math.max(most, o.length);
    }
    int[] used = new int[most];
    int[] scratch = new int[most];
    long[] packed = new long[most];
    for (int k = 0; k < sorted.size(); k++) {
      if (Lifetimes.stop(ctx.budget(), k)) {
        return null;
      }
      int i = sorted.get(k);
      Buffer b = instance.buffer(i);
      int m = 0;
      for (int c : overlaps[i]) {
        if (committed[c]) {
          used[m++] = c;
        }
      }
      Lifetimes.sortByKey(used, m, offsets, scratch, packed);
      long start = 0;
      long bestStart = -1;
      long bestLength = Long.MAX_VALUE;
      for (int j = 0; j < m; j++) {
        int c = used[j];
        long length = offsets[c] - start;
        if (length >= b.size() && length < bestLength) {
          bestLength = length;
          bestStart = start;
        }
        long end = Alignment.up(offsets[c] + instance.buffer(c).size(), b.alignment());
        start = Math.max(start, end);
      }
      if (bestStart < 0 || Long.MAX_VALUE - start < bestLength) {
        bestStart = start;
      }
      offsets[i] = bestStart;
      committed[i] = true;
    }
    return offsets;
  }
}
