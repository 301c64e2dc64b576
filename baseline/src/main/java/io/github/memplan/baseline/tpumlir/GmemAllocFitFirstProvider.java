package io.github.memplan.baseline.tpumlir;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link GmemAllocFitFirst} as {@code tpumlir-fitfirst}. */
public final class GmemAllocFitFirstProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "tpumlir-fitfirst";
  }

  @Override
  public String description() {
    return "TPU-MLIR's FitFirstAssign: largest free hole in live-start order, addresses back-propagated through snapshots.";
  }

  @Override
  public String citation() {
    return "TPU-MLIR lib/Support/GmemAllocatorMethod.cpp, GmemAllocFitFirst, at 36e3c625a (reference/tpu-mlir.md §1.6); overlapping plans are reported as errors";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new GmemAllocFitFirst();
  }
}
