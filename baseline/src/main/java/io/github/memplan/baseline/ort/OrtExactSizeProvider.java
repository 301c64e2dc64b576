package io.github.memplan.baseline.ort;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link ExactSizeReusePlanner} as {@code ort-exact-size}. */
public final class OrtExactSizeProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public OrtExactSizeProvider() {
    super(
        "ort-exact-size",
        DsaInstance.class,
        "ONNX Runtime allocation planner: reuse the most recently freed buffer of exactly the"
            + " same size, else allocate; allocations side by side.",
        "microsoft/onnxruntime onnxruntime/core/framework/allocation_planner.cc"
            + " (ComputeReusePlan, FindReusableTensor)",
        config -> new ExactSizeReusePlanner());
  }
}
