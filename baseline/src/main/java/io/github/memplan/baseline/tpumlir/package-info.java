/**
 * TPU-MLIR's allocators: GMEM (the documented 2022 algorithm and today's two methods) and LMEM (the
 * documented 2022 v0 packing and today's {@code LmemAllocator::assignLmemAddr}).
 */
package io.github.memplan.baseline.tpumlir;
