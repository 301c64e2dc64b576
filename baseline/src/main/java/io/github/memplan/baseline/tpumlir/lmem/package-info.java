/**
 * TPU-MLIR's LMEM allocation inside one layer group: the documented 2022 v0 packing and {@code
 * LmemAllocator::assignLmemAddr} of the pinned version.
 */
package io.github.memplan.baseline.tpumlir.lmem;
