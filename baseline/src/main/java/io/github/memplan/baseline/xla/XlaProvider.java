package io.github.memplan.baseline.xla;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link ChooseBestHeapPlanner} as {@code xla}. */
public final class XlaProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public XlaProvider() {
    super(
        "xla",
        DsaInstance.class,
        "XLA buffer assignment: best-fit heap in spatial and temporal order, the smaller kept.",
        "openxla/xla xla/service/buffer_assignment.cc (ChooseBestHeapAlgorithm over kSpatial,"
            + " kTemporal), heap_simulator.cc",
        config -> new ChooseBestHeapPlanner());
  }
}
