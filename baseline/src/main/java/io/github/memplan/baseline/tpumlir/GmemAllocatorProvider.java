package io.github.memplan.baseline.tpumlir;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link GmemAllocator} as {@code tpumlir}. */
public final class GmemAllocatorProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "tpumlir";
  }

  @Override
  public String description() {
    return "TPU-MLIR's current GMEM allocator: FitFirstAssign and OpSizeOrderAssign, the smaller footprint kept.";
  }

  @Override
  public String citation() {
    return "TPU-MLIR lib/Support/GmemAllocator.cpp, GmemAllocator::assignGaddr, at 36e3c625a (reference/tpu-mlir.md §1.6)";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new GmemAllocator();
  }
}
