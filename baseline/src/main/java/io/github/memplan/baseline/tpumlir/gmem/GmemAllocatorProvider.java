package io.github.memplan.baseline.tpumlir.gmem;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link GmemAllocator} as {@code tpumlir}. */
public final class GmemAllocatorProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public GmemAllocatorProvider() {
    super(
        "tpumlir",
        DsaInstance.class,
        "TPU-MLIR's current GMEM allocator: FitFirstAssign and OpSizeOrderAssign, the smaller footprint kept.",
        "TPU-MLIR lib/Support/GmemAllocator.cpp, GmemAllocator::assignGaddr, at 36e3c625a (reference/tpu-mlir.md §1.6)",
        config -> new GmemAllocator());
  }
}
