package io.github.memplan.baseline.tpumlir;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link TpuMlirDocPlanner} as {@code tpumlir-doc}. */
public final class TpuMlirDocPlannerProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "tpumlir-doc";
  }

  @Override
  public String description() {
    return "TPU-MLIR's documented GMEM allocator (2022): rec_tbl first fit on exact old blocks.";
  }

  @Override
  public String citation() {
    return "TPU-MLIR developer manual, GMEM Allocation; AddressAssign.cpp at 58758a7ae"
        + " (reference/tpu-mlir.md §1.10)";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new TpuMlirDocPlanner();
  }
}
