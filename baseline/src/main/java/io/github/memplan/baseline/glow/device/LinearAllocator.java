package io.github.memplan.baseline.glow.device;

import io.github.memplan.core.device.Region;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The seed's Linear Memory Allocator ({@code glow-esperanto-memory-management.rst}, "Memory
 * Allocators" and {@code LinearAllocator}): "a greedy search trying to find the first free memory
 * region, big enough to hold the requested memory". The blocks are kept in address order and a
 * request takes the first gap from the region's start that holds it; a freed block's bytes are free
 * again at once (gaps are recomputed from the neighbours, so free space is always coalesced).
 *
 * <p>With {@link Fit#BEST} it is the best-fit allocator we add for comparison (not in the seed):
 * the smallest gap that holds the request, the lowest such on a tie.
 */
final class LinearAllocator implements RegionAllocator {
  enum Fit {
    FIRST,
    BEST
  }

  private final Region region;
  private final Fit fit;
  private final TreeMap<Long, Long> blocks = new TreeMap<>();
  private long held;

  LinearAllocator(Region region, Fit fit) {
    this.region = region;
    this.fit = fit;
  }

  @Override
  public OptionalLong allocate(long size) {
    long best = -1;
    long bestGap = Long.MAX_VALUE;
    long cursor = region.start();
    for (Map.Entry<Long, Long> b : blocks.entrySet()) {
      long gap = b.getKey() - cursor;
      if (gap >= size) {
        if (fit == Fit.FIRST) {
          return take(cursor, size);
        }
        if (gap < bestGap) {
          best = cursor;
          bestGap = gap;
        }
      }
      cursor = b.getKey() + b.getValue();
    }
    long gap = region.end() - cursor;
    if (gap >= size && gap < bestGap) {
      best = cursor;
    }
    return best < 0 ? OptionalLong.empty() : take(best, size);
  }

  private OptionalLong take(long offset, long size) {
    blocks.put(offset, size);
    held += size;
    return OptionalLong.of(offset);
  }

  @Override
  public void free(long offset) {
    Long size = blocks.remove(offset);
    if (size == null) {
      throw new IllegalStateException("no block at " + offset + " in region " + region.name());
    }
    held -= size;
  }

  @Override
  public long heldBytes() {
    return held;
  }
}
