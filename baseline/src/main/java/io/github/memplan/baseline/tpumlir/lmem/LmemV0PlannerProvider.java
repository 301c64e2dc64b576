package io.github.memplan.baseline.tpumlir.lmem;

import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link LmemV0Planner} as {@code lmem-v0}. */
public final class LmemV0PlannerProvider extends BasePlannerProvider<LmemInstance, LmemSolution> {
  public LmemV0PlannerProvider() {
    super(
        "lmem-v0",
        LmemInstance.class,
        "TPU-MLIR's documented 2022 LMEM packing: held weights first, then per op timestep the"
            + " longest-lived, largest buffer, first fit avoiding bank straddles.",
        "TPU-MLIR GroupOps.cpp assign_lmem_addr/alloc at 1cf8ff8c2 (reference/tpu-mlir.md"
            + " §2.13; seed tpu-mlir-layergroup.zh.rst, LMEM分配); wrapping lives and ties by index are"
            + " memplan's",
        config -> new LmemV0Planner());
  }
}
