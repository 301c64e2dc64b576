/**
 * TPU-MLIR's LayerGroup: the documented 2022 v0 grouping and the pinned version's ({@code
 * GroupMethod.cpp}), with the shape-secs search both share.
 */
package io.github.memplan.baseline.tpumlir.group;
