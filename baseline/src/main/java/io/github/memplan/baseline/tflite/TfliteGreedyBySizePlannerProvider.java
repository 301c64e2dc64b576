package io.github.memplan.baseline.tflite;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link TfliteGreedyBySizePlanner} as {@code tflite-greedy-by-size}. */
public final class TfliteGreedyBySizePlannerProvider
    implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "tflite-greedy-by-size";
  }

  @Override
  public String description() {
    return "TFLite GPU GREEDY_BY_SIZE, offset form: by decreasing size, each in the smallest gap"
        + " that holds it among time-overlapping tensors.";
  }

  @Override
  public String citation() {
    return "tensorflow/tensorflow: tensorflow/lite/delegates/gpu/common/memory_management/"
        + "greedy_by_size_assignment.cc (GreedyBySizeAssignment); Pisarchyk & Lee,"
        + " arXiv 2001.03288";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new TfliteGreedyBySizePlanner();
  }
}
