package io.github.memplan.baseline.tpumlir.gmem;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link GmemAllocOpSizeOrder} as {@code tpumlir-opsize}. */
public final class GmemAllocOpSizeOrderProvider
    extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public GmemAllocOpSizeOrderProvider() {
    super(
        "tpumlir-opsize",
        DsaInstance.class,
        "TPU-MLIR's OpSizeOrderAssign: largest first, smallest fitting gap among live-overlapping buffers.",
        "TPU-MLIR lib/Support/GmemAllocatorMethod.cpp, GmemAllocOpSizeOrder, at 36e3c625a (reference/tpu-mlir.md §1.6)",
        config -> new GmemAllocOpSizeOrder());
  }
}
