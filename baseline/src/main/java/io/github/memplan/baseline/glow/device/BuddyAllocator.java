package io.github.memplan.baseline.glow.device;

import io.github.memplan.core.device.Region;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A binary buddy allocator (Knuth, TAOCP vol. 1, §2.5, "buddy system"), added for comparison; not
 * in the seed. It manages the largest power-of-two span at the start of the region (the rest is
 * never used); a request is rounded up to a power of two of at least {@link #MIN_BLOCK} bytes and
 * takes the lowest free block of that order, splitting a larger one if needed; a freed block merges
 * with its buddy while the buddy is free.
 */
final class BuddyAllocator implements RegionAllocator {
  static final long MIN_BLOCK = 4096;

  private final long base;
  private final int maxOrder;
  private final List<TreeSet<Long>> free = new ArrayList<>();
  private final TreeMap<Long, Integer> used = new TreeMap<>();
  private long held;

  BuddyAllocator(Region region) {
    this.base = region.start();
    int order = 0;
    while ((MIN_BLOCK << (order + 1)) <= region.size() && order < 50) {
      order++;
    }
    this.maxOrder = region.size() >= MIN_BLOCK ? order : -1;
    for (int i = 0; i <= Math.max(maxOrder, 0); i++) {
      free.add(new TreeSet<>());
    }
    if (maxOrder >= 0) {
      free.get(maxOrder).add(0L);
    }
  }

  private static long blockSize(int order) {
    return MIN_BLOCK << order;
  }

  @Override
  public OptionalLong allocate(long size) {
    int want = 0;
    while (blockSize(want) < size) {
      want++;
      if (want > maxOrder) {
        return OptionalLong.empty();
      }
    }
    int k = want;
    while (k <= maxOrder && free.get(k).isEmpty()) {
      k++;
    }
    if (k > maxOrder) {
      return OptionalLong.empty();
    }
    long at = free.get(k).pollFirst();
    while (k > want) {
      k--;
      free.get(k).add(at + blockSize(k));
    }
    used.put(at, want);
    held += blockSize(want);
    return OptionalLong.of(base + at);
  }

  @Override
  public void free(long offset) {
    long at = offset - base;
    Integer order = used.remove(at);
    if (order == null) {
      throw new IllegalStateException("no buddy block at " + offset);
    }
    held -= blockSize(order);
    int k = order;
    while (k < maxOrder) {
      long buddy = at ^ blockSize(k);
      if (!free.get(k).remove(buddy)) {
        break;
      }
      at = Math.min(at, buddy);
      k++;
    }
    free.get(k).add(at);
  }

  @Override
  public long heldBytes() {
    return held;
  }
}
