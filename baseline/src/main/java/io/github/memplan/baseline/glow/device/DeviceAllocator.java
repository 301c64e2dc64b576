package io.github.memplan.baseline.glow.device;

import io.github.memplan.core.device.BufferKind;
import io.github.memplan.core.device.DeviceLayout;
import io.github.memplan.core.device.Region;
import java.util.OptionalLong;

/**
 * One device memory allocator (the seed's "1 memory allocator per device", {@code
 * glow-esperanto-memory-management.rst}, "Memory Allocators"), made by {@link DeviceAllocators}.
 * Stateful, for one replay; not thread-safe. The logging carve-out is reserved at boot by the
 * layout and never asked for.
 */
public interface DeviceAllocator {
  /** A buffer asked for: its kind, its network, its placeholder slot (0 for code and constants). */
  record Request(BufferKind kind, String network, int slot, long size) {}

  String id();

  DeviceLayout layout();

  /** True when code lives in the code region only. */
  boolean separateCode();

  /** The region a request of {@code kind} is served from. */
  Region regionFor(BufferKind kind);

  /** The offset of the new buffer, or empty when the allocator cannot place it. */
  OptionalLong allocate(Request request);

  /** Frees the buffer placed at {@code offset} for {@code request}. */
  void free(Request request, long offset);

  /** The network was unloaded (after its code and constants were freed). */
  void unload(String network);

  /** Bytes the allocator holds: live buffers plus idle pool entries and rounding. */
  long heldBytes();
}
