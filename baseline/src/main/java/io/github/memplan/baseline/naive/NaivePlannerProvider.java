package io.github.memplan.baseline.naive;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link NaivePlanner} as {@code naive}. */
public final class NaivePlannerProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public NaivePlannerProvider() {
    super(
        "naive",
        DsaInstance.class,
        "No reuse: every buffer stacked on the previous one (the no-reuse upper bound).",
        "TPU-MLIR GmemAllocator with reuse_addr=false (reference/tpu-mlir.md §1.6)",
        config -> new NaivePlanner());
  }
}
