package io.github.memplan.baseline.tpumlir.lmem;

import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link LmemTpuMlirPlanner} as {@code lmem-tpumlir}. */
public final class LmemTpuMlirPlannerProvider
    extends BasePlannerProvider<LmemInstance, LmemSolution> {
  public LmemTpuMlirPlannerProvider() {
    super(
        "lmem-tpumlir",
        LmemInstance.class,
        "TPU-MLIR's LmemAllocator::assignLmemAddr: priority by engine conflict, area and start;"
            + " each round the lowest candidate address outside the banks of conflicting buffers.",
        "TPU-MLIR LayerGroup/LmemAllocator.cpp assignLmemAddr (reference/tpu-mlir.md §2.10);"
            + " sizes and holds taken from the instance, an in-place slot taken only at its start",
        config -> new LmemTpuMlirPlanner());
  }
}
