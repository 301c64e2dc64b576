package io.github.memplan.baseline.tflite;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link TfliteGreedyBySizePlanner} as {@code tflite-greedy-by-size}. */
public final class TfliteGreedyBySizePlannerProvider
    extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public TfliteGreedyBySizePlannerProvider() {
    super(
        "tflite-greedy-by-size",
        DsaInstance.class,
        "TFLite GPU GREEDY_BY_SIZE, offset form: by decreasing size, each in the smallest gap"
            + " that holds it among time-overlapping tensors.",
        "tensorflow/tensorflow: tensorflow/lite/delegates/gpu/common/memory_management/"
            + "greedy_by_size_assignment.cc (GreedyBySizeAssignment); Pisarchyk & Lee,"
            + " arXiv 2001.03288",
        config -> new TfliteGreedyBySizePlanner());
  }
}
