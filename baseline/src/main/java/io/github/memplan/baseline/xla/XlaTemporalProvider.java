package io.github.memplan.baseline.xla;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/**
 * Registers {@link GlobalDecreasingSizeBestFitHeap} in {@code kTemporal} order as {@code
 * xla-temporal}.
 */
public final class XlaTemporalProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public XlaTemporalProvider() {
    super(
        "xla-temporal",
        DsaInstance.class,
        "XLA GlobalDecreasingSizeBestFitHeap, kTemporal order (live duration descending, then size), best-fit free range.",
        "openxla/xla xla/service/heap_simulator/heap_simulator.cc"
            + " (GlobalDecreasingSizeBestFitHeap, kTemporal)",
        config ->
            new GlobalDecreasingSizeBestFitHeap(GlobalDecreasingSizeBestFitHeap.Type.TEMPORAL));
  }
}
