package io.github.memplan.baseline.tflite;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link TflmGreedyPlanner} as {@code tflm}. */
public final class TflmGreedyPlannerProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public TflmGreedyPlannerProvider() {
    super(
        "tflm",
        DsaInstance.class,
        "TFLite Micro GreedyMemoryPlanner: fixed (offline) buffers first, then by decreasing"
            + " size, each in the first gap among time-overlapping buffers.",
        "tensorflow/tflite-micro: tensorflow/lite/micro/memory_planner/"
            + "greedy_memory_planner.cc (CalculateOffsetsIfNeeded); per-buffer alignment",
        config -> new TflmGreedyPlanner());
  }
}
