package io.github.memplan.baseline.tpumlir.gmem;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link TpuMlirDocPlanner} as {@code tpumlir-doc}. */
public final class TpuMlirDocPlannerProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public TpuMlirDocPlannerProvider() {
    super(
        "tpumlir-doc",
        DsaInstance.class,
        "TPU-MLIR's documented GMEM allocator (2022): rec_tbl first fit on exact old blocks.",
        "TPU-MLIR developer manual, GMEM Allocation; AddressAssign.cpp at 58758a7ae"
            + " (reference/tpu-mlir.md §1.10)",
        config -> new TpuMlirDocPlanner());
  }
}
