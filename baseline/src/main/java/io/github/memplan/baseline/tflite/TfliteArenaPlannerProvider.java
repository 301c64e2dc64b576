package io.github.memplan.baseline.tflite;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link TfliteArenaPlanner} as {@code tflite-arena}. */
public final class TfliteArenaPlannerProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "tflite-arena";
  }

  @Override
  public String description() {
    return "TFLite CPU arena: whole-run tensors first, then by decreasing size, each in the"
        + " best-fitting gap among time-overlapping allocations.";
  }

  @Override
  public String citation() {
    return "tensorflow/tensorflow: tensorflow/lite/arena_planner.cc"
        + " (CreateTensorAllocationVector), tensorflow/lite/simple_memory_arena.cc (Allocate);"
        + " per-buffer alignment";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new TfliteArenaPlanner();
  }
}
