package io.github.memplan.baseline.tpumlir;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link GmemAllocOpSizeOrder} as {@code tpumlir-opsize}. */
public final class GmemAllocOpSizeOrderProvider
    implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "tpumlir-opsize";
  }

  @Override
  public String description() {
    return "TPU-MLIR's OpSizeOrderAssign: largest first, smallest fitting gap among live-overlapping buffers.";
  }

  @Override
  public String citation() {
    return "TPU-MLIR lib/Support/GmemAllocatorMethod.cpp, GmemAllocOpSizeOrder, at 36e3c625a (reference/tpu-mlir.md §1.6)";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new GmemAllocOpSizeOrder();
  }
}
