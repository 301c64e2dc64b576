package io.github.memplan.baseline.naive;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link NaivePlanner} as {@code naive}. */
public final class NaivePlannerProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "naive";
  }

  @Override
  public String description() {
    return "No reuse: every buffer stacked on the previous one (the no-reuse upper bound).";
  }

  @Override
  public String citation() {
    return "TPU-MLIR GmemAllocator with reuse_addr=false (reference/tpu-mlir.md §1.6)";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new NaivePlanner();
  }
}
