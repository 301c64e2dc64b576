/** TPU-MLIR's GMEM allocators: the documented 2022 algorithm and today's two methods. */
package io.github.memplan.baseline.tpumlir;
