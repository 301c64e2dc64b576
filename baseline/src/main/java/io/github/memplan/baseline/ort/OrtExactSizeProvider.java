package io.github.memplan.baseline.ort;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link ExactSizeReusePlanner} as {@code ort-exact-size}. */
public final class OrtExactSizeProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "ort-exact-size";
  }

  @Override
  public String description() {
    return "ONNX Runtime allocation planner: reuse the most recently freed buffer of exactly the"
        + " same size, else allocate; allocations side by side.";
  }

  @Override
  public String citation() {
    return "microsoft/onnxruntime onnxruntime/core/framework/allocation_planner.cc"
        + " (ComputeReusePlan, FindReusableTensor)";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new ExactSizeReusePlanner();
  }
}
