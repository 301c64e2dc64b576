package io.github.memplan.baseline.glow.device;

import io.github.memplan.core.device.Region;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The seed's Bidirectional Memory Allocator ({@code glow-esperanto-memory-management.rst}, "Memory
 * Allocators", Data-Region: "The data-region will use both a linear and a pool memory allocator.
 * The memory available to each allocator will grow over time until they collide"; class {@code
 * BidirectionalAllocator}). Two sides share one region: the low side grows up from the region's
 * start, the high side grows down from its end. Each side is a first-fit allocator over its own
 * blocks (the low side scans gaps upward from the start, the high side downward from the end and
 * places a block at the top of the gap); a request that fits no gap of its side extends the side's
 * front, and fails exactly when the extended front would cross the other side's front. A side's
 * front is the far edge of its outermost live block, so it retreats when that block is freed.
 *
 * <p>Departure: the seed does not say whether a front retreats; we let it (the outermost block's
 * edge), the most favourable reading.
 */
final class BidirectionalAllocator {
  private final Region region;
  private final TreeMap<Long, Long> low = new TreeMap<>();
  private final TreeMap<Long, Long> high = new TreeMap<>();
  private long held;

  BidirectionalAllocator(Region region) {
    this.region = region;
  }

  /** End of the low side's outermost block (the region start when empty). */
  long lowFront() {
    return low.isEmpty() ? region.start() : low.lastKey() + low.lastEntry().getValue();
  }

  /** Start of the high side's outermost block (the region end when empty). */
  long highFront() {
    return high.isEmpty() ? region.end() : high.firstKey();
  }

  RegionAllocator low() {
    return new Side(true);
  }

  RegionAllocator high() {
    return new Side(false);
  }

  long heldBytes() {
    return held;
  }

  private final class Side implements RegionAllocator {
    private final boolean isLow;

    Side(boolean isLow) {
      this.isLow = isLow;
    }

    @Override
    public OptionalLong allocate(long size) {
      long at = isLow ? lowFit(size) : highFit(size);
      if (at < 0) {
        return OptionalLong.empty();
      }
      (isLow ? low : high).put(at, size);
      held += size;
      return OptionalLong.of(at);
    }

    private long lowFit(long size) {
      long cursor = region.start();
      for (Map.Entry<Long, Long> b : low.entrySet()) {
        if (b.getKey() - cursor >= size) {
          return cursor;
        }
        cursor = b.getKey() + b.getValue();
      }
      return highFront() - cursor >= size ? cursor : -1;
    }

    private long highFit(long size) {
      long cursor = region.end();
      for (Map.Entry<Long, Long> b : high.descendingMap().entrySet()) {
        long top = b.getKey() + b.getValue();
        if (cursor - top >= size) {
          return cursor - size;
        }
        cursor = b.getKey();
      }
      return cursor - lowFront() >= size ? cursor - size : -1;
    }

    @Override
    public void free(long offset) {
      Long size = (isLow ? low : high).remove(offset);
      if (size == null) {
        throw new IllegalStateException("no block at " + offset);
      }
      held -= size;
    }

    @Override
    public long heldBytes() {
      return held;
    }
  }
}
