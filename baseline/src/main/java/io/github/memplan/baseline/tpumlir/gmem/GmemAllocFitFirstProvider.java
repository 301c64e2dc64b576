package io.github.memplan.baseline.tpumlir.gmem;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link GmemAllocFitFirst} as {@code tpumlir-fitfirst}. */
public final class GmemAllocFitFirstProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public GmemAllocFitFirstProvider() {
    super(
        "tpumlir-fitfirst",
        DsaInstance.class,
        "TPU-MLIR's FitFirstAssign: largest free hole in live-start order, addresses back-propagated through snapshots.",
        "TPU-MLIR lib/Support/GmemAllocatorMethod.cpp, GmemAllocFitFirst, at 36e3c625a (reference/tpu-mlir.md §1.6); overlapping plans are reported as errors",
        config -> new GmemAllocFitFirst());
  }
}
