package io.github.memplan.baseline.glow.device;

import io.github.memplan.core.device.BufferKind;
import io.github.memplan.core.device.DeviceLayout;
import io.github.memplan.core.device.Region;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * The device allocators by id, after the seed {@code glow-esperanto-memory-management.rst} ("Memory
 * Allocators" and "Memory Allocator Implementations"):
 *
 * <ul>
 *   <li>{@code linear}: one {@link LinearAllocator} (first fit) over code and data together;
 *   <li>{@code pool}: one linear allocator over code and data; placeholders through per-network
 *       pools ({@link PoolAllocator}) taken from it;
 *   <li>{@code bidirectional}: one {@link BidirectionalAllocator} over code and data: code and
 *       constants grow up from the bottom, placeholders down from the top;
 *   <li>{@code combined}: the seed's {@code MemoryManagerInternals}: the code region (fixed at
 *       boot) with its own linear allocator; the data region bidirectional, constants on the linear
 *       (low) side and placeholders through per-network pools on the high side, "grow[ing] over
 *       time until they collide";
 *   <li>{@code best-fit} and {@code buddy}: not in the seed, for comparison, over code and data.
 * </ul>
 *
 * Every allocator leaves the logging carve-out alone.
 */
public final class DeviceAllocators {
  private DeviceAllocators() {}

  /**
   * The allocator ids, in the seed's order and then the two for comparison; each is registered as a
   * planner by {@link DeviceAllocatorProvider}.
   */
  public static final List<String> IDS =
      List.of("linear", "pool", "bidirectional", "combined", "best-fit", "buddy");

  /** A fresh allocator {@code id} over {@code layout}. */
  public static DeviceAllocator create(String id, DeviceLayout layout) {
    Region shared = layout.shared();
    return switch (id) {
      case "linear", "best-fit" -> {
        LinearAllocator a =
            new LinearAllocator(
                shared, id.equals("linear") ? LinearAllocator.Fit.FIRST : LinearAllocator.Fit.BEST);
        yield new Composed(id, layout, false, a, a, a, null, a::heldBytes);
      }
      case "buddy" -> {
        BuddyAllocator a = new BuddyAllocator(shared);
        yield new Composed(id, layout, false, a, a, a, null, a::heldBytes);
      }
      case "pool" -> {
        LinearAllocator a = new LinearAllocator(shared, LinearAllocator.Fit.FIRST);
        yield new Composed(id, layout, false, a, a, null, new PoolAllocator(a), a::heldBytes);
      }
      case "bidirectional" -> {
        BidirectionalAllocator b = new BidirectionalAllocator(shared);
        RegionAllocator low = b.low();
        yield new Composed(id, layout, false, low, low, b.high(), null, b::heldBytes);
      }
      case "combined" -> {
        LinearAllocator code = new LinearAllocator(layout.code(), LinearAllocator.Fit.FIRST);
        BidirectionalAllocator data = new BidirectionalAllocator(layout.data());
        yield new Composed(
            id,
            layout,
            true,
            code,
            data.low(),
            null,
            new PoolAllocator(data.high()),
            () -> code.heldBytes() + data.heldBytes());
      }
      default ->
          throw new IllegalArgumentException(
              "unknown allocator '" + id + "' (known: " + String.join(", ", IDS) + ")");
    };
  }

  /** Code, constants and placeholders each served by a region allocator or a pool. */
  private record Composed(
      String id,
      DeviceLayout layout,
      boolean separateCode,
      RegionAllocator code,
      RegionAllocator constants,
      RegionAllocator placeholders,
      PoolAllocator pool,
      LongSupplier held)
      implements DeviceAllocator {
    @Override
    public Region regionFor(BufferKind kind) {
      return switch (kind) {
        case LOGGING -> layout.logging();
        case CODE -> separateCode ? layout.code() : layout.shared();
        default -> separateCode ? layout.data() : layout.shared();
      };
    }

    @Override
    public OptionalLong allocate(Request r) {
      return switch (r.kind()) {
        case CODE -> code.allocate(r.size());
        case CONSTANT -> constants.allocate(r.size());
        case LOGGING -> throw new IllegalArgumentException("logging is reserved at boot");
        default ->
            pool != null
                ? pool.allocate(r.network(), r.slot(), r.size())
                : placeholders.allocate(r.size());
      };
    }

    @Override
    public void free(Request r, long offset) {
      switch (r.kind()) {
        case CODE -> code.free(offset);
        case CONSTANT -> constants.free(offset);
        case LOGGING -> throw new IllegalArgumentException("logging is never freed");
        default -> {
          if (pool != null) {
            pool.free(r.network(), offset);
          } else {
            placeholders.free(offset);
          }
        }
      }
    }

    @Override
    public void unload(String network) {
      if (pool != null) {
        pool.unload(network);
      }
    }

    @Override
    public long heldBytes() {
      return held.getAsLong();
    }
  }
}
