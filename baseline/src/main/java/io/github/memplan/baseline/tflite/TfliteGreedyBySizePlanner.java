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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The offset form of TFLite GPU's GREEDY_BY_SIZE: {@code GreedyBySizeAssignment} of {@code
 * tensorflow/lite/delegates/gpu/common/memory_management/greedy_by_size_assignment.cc}, which
 * {@code AssignOffsetsToTensors} calls for that strategy (Pisarchyk and Lee, "Efficient Memory
 * Management for Deep Neural Net Inference", arXiv 2001.03288, greedy by size for offset
 * calculation).
 *
 * <p>Tensors in non-increasing order of size. Each one scans the already placed tensors in order of
 * offset, skipping those whose usage interval misses its own; the gap left of each remaining one
 * (from the highest end seen so far) is a candidate, and the tensor takes the smallest candidate
 * gap that holds it (best fit), else the place above the highest of them.
 *
 * <p>Departures: {@code std::sort} ties (equal sizes) are broken by instance order; the source
 * rounds every placed tensor's end up to one base alignment, here each gap's start is rounded up to
 * the placed buffer's own alignment (the same offsets when all alignments are equal); buffers with
 * a fixed offset are placed first, where they must be (the source has none); gaps are ignored.
 */
public final class TfliteGreedyBySizePlanner implements Planner<DsaInstance, DsaSolution> {

  /** A placed tensor. */
  private record Placed(long offset, long size, int first, int last) {}

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    int n = instance.size();
    long[] offsets = new long[n];
    List<Placed> ordered = new ArrayList<>(); // ordered_allocs: by offset
    List<UsageRecord> toPlace = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Buffer b = instance.buffer(i);
      if (b.fixedOffset().isPresent()) {
        offsets[i] = b.fixedOffset().getAsLong();
        insert(ordered, new Placed(offsets[i], b.size(), b.lower(), b.upper() - 1));
      } else {
        toPlace.add(UsageRecord.of(i, b));
      }
    }
    toPlace.sort(
        Comparator.comparingLong(UsageRecord::size)
            .reversed()
            .thenComparingInt(UsageRecord::index));
    for (int k = 0; k < toPlace.size(); k++) {
      if (ctx.budget().exhausted(k)) {
        return Outcome.noSolution(
            OptionalLong.of(LowerBounds.maxLoad(instance)),
            "budget exhausted after placing " + k + " of " + toPlace.size() + " buffers");
      }
      UsageRecord rec = toPlace.get(k);
      long bestDiff = Long.MAX_VALUE;
      long bestOffset = -1;
      long prevEnd = 0;
      for (Placed p : ordered) {
        if (p.last() < rec.first() || p.first() > rec.last()) {
          continue;
        }
        long candidate = Alignment.up(prevEnd, rec.alignment());
        if (p.offset() >= candidate) {
          long diff = p.offset() - candidate;
          if (diff >= rec.size() && diff < bestDiff) {
            bestDiff = diff;
            bestOffset = candidate;
          }
        }
        prevEnd = Math.max(prevEnd, p.offset() + p.size());
      }
      if (bestOffset == -1) {
        bestOffset = Alignment.up(prevEnd, rec.alignment());
      }
      offsets[rec.index()] = bestOffset;
      insert(ordered, new Placed(bestOffset, rec.size(), rec.first(), rec.last()));
    }
    return DsaOutcomes.fromOffsets(instance, offsets, Map.of());
  }

  /** Inserts after every entry whose offset is at most the new one's, as the source does. */
  private static void insert(List<Placed> ordered, Placed p) {
    int lo = 0;
    int hi = ordered.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ordered.get(mid).offset() <= p.offset()) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    ordered.add(lo, p);
  }
}
