package io.github.memplan.baseline.tpumlir;

import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link LmemV0Planner} as {@code lmem-v0}. */
public final class LmemV0PlannerProvider implements PlannerProvider<LmemInstance, LmemSolution> {
  @Override
  public String id() {
    return "lmem-v0";
  }

  @Override
  public String description() {
    return "TPU-MLIR's documented 2022 LMEM packing: held weights first, then per op timestep the"
        + " longest-lived, largest buffer, first fit avoiding bank straddles.";
  }

  @Override
  public String citation() {
    return "TPU-MLIR GroupOps.cpp assign_lmem_addr/alloc at 1cf8ff8c2 (reference/tpu-mlir.md"
        + " §2.13; seed tpu-mlir-layergroup.zh.rst, LMEM分配); wrapping lives and ties by index are"
        + " memplan's";
  }

  @Override
  public Class<LmemInstance> instanceType() {
    return LmemInstance.class;
  }

  @Override
  public Planner<LmemInstance, LmemSolution> create(PlannerConfig config) {
    return new LmemV0Planner();
  }
}
