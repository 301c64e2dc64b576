/**
 * TPU-MLIR's GMEM allocation: the documented 2022 algorithm ({@code rec_tbl}) and today's two
 * {@code GmemAllocator} methods, with the values they plan.
 */
package io.github.memplan.baseline.tpumlir.gmem;
