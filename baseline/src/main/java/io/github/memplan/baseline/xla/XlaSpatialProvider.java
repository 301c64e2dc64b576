package io.github.memplan.baseline.xla;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/**
 * Registers {@link GlobalDecreasingSizeBestFitHeap} in {@code kSpatial} order as {@code
 * xla-spatial}.
 */
public final class XlaSpatialProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public XlaSpatialProvider() {
    super(
        "xla-spatial",
        DsaInstance.class,
        "XLA GlobalDecreasingSizeBestFitHeap, kSpatial order (size descending, then live duration), best-fit free range.",
        "openxla/xla xla/service/heap_simulator/heap_simulator.cc"
            + " (GlobalDecreasingSizeBestFitHeap, kSpatial)",
        config ->
            new GlobalDecreasingSizeBestFitHeap(GlobalDecreasingSizeBestFitHeap.Type.SPATIAL));
  }
}
