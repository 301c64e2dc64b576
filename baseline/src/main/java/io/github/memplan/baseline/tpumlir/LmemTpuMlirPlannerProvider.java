package io.github.memplan.baseline.tpumlir;

import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link LmemTpuMlirPlanner} as {@code lmem-tpumlir}. */
public final class LmemTpuMlirPlannerProvider
    implements PlannerProvider<LmemInstance, LmemSolution> {
  @Override
  public String id() {
    return "lmem-tpumlir";
  }

  @Override
  public String description() {
    return "TPU-MLIR's LmemAllocator::assignLmemAddr: priority by engine conflict, area and start;"
        + " each round the lowest candidate address outside the banks of conflicting buffers.";
  }

  @Override
  public String citation() {
    return "TPU-MLIR LayerGroup/LmemAllocator.cpp assignLmemAddr (reference/tpu-mlir.md §2.10);"
        + " sizes and holds taken from the instance, an in-place slot taken only at its start";
  }

  @Override
  public Class<LmemInstance> instanceType() {
    return LmemInstance.class;
  }

  @Override
  public Planner<LmemInstance, LmemSolution> create(PlannerConfig config) {
    return new LmemTpuMlirPlanner();
  }
}
