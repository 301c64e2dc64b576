/** TPU-MLIR's GMEM allocators: the documented 2022 algorithm and today's code. */
package io.github.memplan.baseline.tpumlir;
