package io.github.memplan.baseline.glow.device;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The seed's Pool Memory Allocator ({@code glow-esperanto-memory-management.rst}, "Memory
 * Allocators"): "a list of memory regions that can be re-used to allocate place-holder buffers of
 * each network. The Pool allocator will create a separate pool of buffers per network we load on
 * the device and will try to re-use the same memory regions per network inference as possible."
 *
 * <p>Each network has a list of entries (offset, size, slot) taken from a backing allocator. A
 * placeholder request of a network takes, in order: an idle entry of the same slot that holds it;
 * else the smallest idle entry of the network that holds it (lowest offset on a tie); else a new
 * entry from the backing allocator. A freed placeholder goes back to its network's pool, idle. The
 * pool is given back to the backing allocator when the network is unloaded.
 *
 * <p>Departure: the seed does not say what happens when the backing allocator is full while other
 * networks' pools hold idle entries; we keep them (nothing in the seed gives them back before an
 * unload), which is what makes pools hoard memory under a changing mix.
 */
final class PoolAllocator {
  private static final class Entry {
    final long offset;
    final long size;
    final int slot;
    boolean busy;

    Entry(long offset, long size, int slot) {
      this.offset = offset;
      this.size = size;
      this.slot = slot;
    }
  }

  private final RegionAllocator backing;
  private final Map<String, List<Entry>> pools = new TreeMap<>();
  private long newEntries;

  PoolAllocator(RegionAllocator backing) {
    this.backing = backing;
  }

  OptionalLong allocate(String network, int slot, long size) {
    List<Entry> pool = pools.computeIfAbsent(network, n -> new ArrayList<>());
    Entry pick = null;
    for (Entry e : pool) {
      if (!e.busy && e.slot == slot && e.size >= size) {
        pick = e;
        break;
      }
    }
    if (pick == null) {
      for (Entry e : pool) {
        if (!e.busy
            && e.size >= size
            && (pick == null
                || e.size < pick.size
                || (e.size == pick.size && e.offset < pick.offset))) {
          pick = e;
        }
      }
    }
    if (pick == null) {
      OptionalLong at = backing.allocate(size);
      if (at.isEmpty()) {
        return at;
      }
      pick = new Entry(at.getAsLong(), size, slot);
      pool.add(pick);
      newEntries++;
    }
    pick.busy = true;
    return OptionalLong.of(pick.offset);
  }

  void free(String network, long offset) {
    for (Entry e : pools.getOrDefault(network, List.of())) {
      if (e.offset == offset && e.busy) {
        e.busy = false;
        return;
      }
    }
    throw new IllegalStateException("network " + network + " has no busy pool entry at " + offset);
  }

  /** Gives the network's entries back to the backing allocator. */
  void unload(String network) {
    List<Entry> pool = pools.remove(network);
    if (pool == null) {
      return;
    }
    for (Entry e : pool) {
      if (e.busy) {
        throw new IllegalStateException("network " + network + " unloaded with a busy buffer");
      }
      backing.free(e.offset);
    }
  }

  /** Entries ever taken from the backing allocator. */
  long newEntries() {
    return newEntries;
  }
}
