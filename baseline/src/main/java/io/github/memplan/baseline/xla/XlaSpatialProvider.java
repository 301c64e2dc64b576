package io.github.memplan.baseline.xla;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/**
 * Registers {@link GlobalDecreasingSizeBestFitHeap} in {@code kSpatial} order as {@code
 * xla-spatial}.
 */
public final class XlaSpatialProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "xla-spatial";
  }

  @Override
  public String description() {
    return "XLA GlobalDecreasingSizeBestFitHeap, kSpatial order (size descending, then live duration), best-fit free range.";
  }

  @Override
  public String citation() {
    return "openxla/xla xla/service/heap_simulator/heap_simulator.cc"
        + " (GlobalDecreasingSizeBestFitHeap, kSpatial)";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new GlobalDecreasingSizeBestFitHeap(GlobalDecreasingSizeBestFitHeap.Type.SPATIAL);
  }
}
