package io.github.memplan.baseline.glow.device;

import java.util.OptionalLong;

/**
 * An allocator of one byte range: the seed's per-region allocators ({@code BaseMemoryAllocator} in
 * {@code glow-esperanto-memory-management.rst}, "Abstract Memory Allocator"). Not thread-safe.
 */
interface RegionAllocator {
  /** The offset of a new block of {@code size} bytes, or empty if it does not fit. */
  OptionalLong allocate(long size);

  /** Frees the block that starts at {@code offset}. */
  void free(long offset);

  /** Bytes held by live blocks (with any rounding). */
  long heldBytes();
}
