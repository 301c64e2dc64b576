package io.github.memplan.baseline.glow.dsa;

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
import java.util.PriorityQueue;

/**
 * Glow's linear memory allocator, replayed online over the buffers' lifetimes: "a simple allocator
 * that does a greedy search trying to find the first free memory region, big enough to hold the
 * requested memory" (seed {@code glow-esperanto-memory-management.rst}, Linear Memory Allocator,
 * one per memory region). Its implementation in Glow is {@code MemoryAllocator::allocate(uint64_t,
 * Handle)} and {@code deallocate} ({@code pytorch/glow: lib/CodeGen/MemoryAllocator.cpp}): the
 * allocated segments are kept in address order; a request takes the first hole between consecutive
 * segments (from address 0) that holds it, else goes after the last segment, and fails ({@code
 * npos}) if that would pass the pool size.
 *
 * <p>As a DSA planner: the buffers are allocated at their {@code lower} and freed at their {@code
 * upper}, in time order; at one timestep the frees come first (lifetimes are half-open), then the
 * allocations in instance order. Unlike every offline planner here it never looks ahead, so an
 * early small buffer can split the space a later large one needs.
 *
 * <p>Failure: the pool is the instance's capacity (unbounded: never fails). The first request that
 * does not fit ends the run, as a runtime out-of-memory would: the outcome is {@code
 * FAILED_TO_PLACE} (nothing is proved) with the max-load bound, a message naming the timestep, the
 * buffer and the largest free hole, and the statistic {@code failed-at-timestep}.
 *
 * <p>Departures: Glow rounds every size up to one allocator alignment, so every hole starts
 * aligned; here each hole's start is rounded up to the requesting buffer's own alignment (the same
 * offsets when all alignments are equal). Zero-size buffers take offset 0 and no segment. Fixed
 * offsets are refused (the allocator has no reserved addresses); gaps are ignored.
 */
public final class GlowLinearPlanner implements Planner<DsaInstance, DsaSolution> {

  /** An allocated segment {@code [begin, end)} holding buffer {@code index}. */
  private record Segment(long begin, long end, int index) {}

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    int n = instance.size();
    List<Integer> byBirth = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Buffer b = instance.buffer(i);
      if (b.fixedOffset().isPresent()) {
        throw new IllegalArgumentException(
            "glow-linear does not support fixed offsets (buffer '" + b.id() + "')");
      }
      byBirth.add(i);
    }
    byBirth.sort(
        Comparator.comparingInt((Integer i) -> instance.buffer(i).lower())
            .thenComparingInt(i -> i));
    long capacity = instance.capacity();
    long[] offsets = new long[n];
    List<Segment> segments = new ArrayList<>(); // by address
    PriorityQueue<Integer> live =
        new PriorityQueue<>(
            Comparator.comparingInt((Integer i) -> instance.buffer(i).upper())
                .thenComparingInt(i -> i));
    for (int k = 0; k < byBirth.size(); k++) {
      if (ctx.budget().exhausted(k)) {
        return Outcome.noSolution(
            OptionalLong.of(LowerBounds.maxLoad(instance)),
            "budget exhausted after allocating " + k + " of " + n + " buffers");
      }
      int i = byBirth.get(k);
      Buffer b = instance.buffer(i);
      while (!live.isEmpty() && instance.buffer(live.peek()).upper() <= b.lower()) {
        int dead = live.poll();
        segments.removeIf(s -> s.index() == dead);
      }
      if (b.size() == 0) {
        offsets[i] = 0;
        continue;
      }
      int at = 0;
      long prev = 0;
      long found = -1;
      for (; at < segments.size(); at++) {
        Segment s = segments.get(at);
        long start = Alignment.up(prev, b.alignment());
        if (s.begin() >= start && s.begin() - start >= b.size()) {
          found = start;
          break;
        }
        prev = s.end();
      }
      if (found == -1) {
        long start = Alignment.up(prev, b.alignment());
        if (start > capacity - b.size()) {
          return Outcome.<DsaSolution>failedToPlace(
                  OptionalLong.of(LowerBounds.maxLoad(instance)),
                  "out of memory at timestep "
                      + b.lower()
                      + ": buffer '"
                      + b.id()
                      + "' ("
                      + b.size()
                      + " B) fits in no free region below the capacity "
                      + capacity
                      + " (largest free region "
                      + largestHole(segments, capacity)
                      + " B)")
              .withStats(Map.of("failed-at-timestep", b.lower(), "allocated", k));
        }
        found = start;
      }
      segments.add(at, new Segment(found, found + b.size(), i));
      offsets[i] = found;
      live.add(i);
    }
    return DsaOutcomes.fromOffsets(instance, offsets, Map.of());
  }

  private static long largestHole(List<Segment> segments, long capacity) {
    long prev = 0;
    long best = 0;
    for (Segment s : segments) {
      best = Math.max(best, s.begin() - prev);
      prev = s.end();
    }
    return Math.max(best, capacity - prev);
  }
}
