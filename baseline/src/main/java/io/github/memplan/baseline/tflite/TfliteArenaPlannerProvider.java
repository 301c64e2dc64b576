package io.github.memplan.baseline.tflite;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link TfliteArenaPlanner} as {@code tflite-arena}. */
public final class TfliteArenaPlannerProvider
    extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public TfliteArenaPlannerProvider() {
    super(
        "tflite-arena",
        DsaInstance.class,
        "TFLite CPU arena: whole-run tensors first, then by decreasing size, each in the"
            + " best-fitting gap among time-overlapping allocations.",
        "tensorflow/tensorflow: tensorflow/lite/arena_planner.cc"
            + " (CreateTensorAllocationVector), tensorflow/lite/simple_memory_arena.cc (Allocate);"
            + " per-buffer alignment",
        config -> new TfliteArenaPlanner());
  }
}
