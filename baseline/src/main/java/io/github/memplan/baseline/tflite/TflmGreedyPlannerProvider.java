package io.github.memplan.baseline.tflite;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link TflmGreedyPlanner} as {@code tflm}. */
public final class TflmGreedyPlannerProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "tflm";
  }

  @Override
  public String description() {
    return "TFLite Micro GreedyMemoryPlanner: fixed (offline) buffers first, then by decreasing"
        + " size, each in the first gap among time-overlapping buffers.";
  }

  @Override
  public String citation() {
    return "tensorflow/tflite-micro: tensorflow/lite/micro/memory_planner/"
        + "greedy_memory_planner.cc (CalculateOffsetsIfNeeded); per-buffer alignment";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new TflmGreedyPlanner();
  }
}
