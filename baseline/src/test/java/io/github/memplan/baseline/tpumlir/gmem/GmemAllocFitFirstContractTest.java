package io.github.memplan.baseline.tpumlir.gmem;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;

/**
 * The DSA planner contract for {@code tpumlir-fitfirst} (fixed offsets unsupported, as documented).
 */
class GmemAllocFitFirstContractTest extends DsaPlannerContract {
  @Override
  protected Planner<DsaInstance, DsaSolution> planner() {
    return new GmemAllocFitFirst();
  }

  @Override
  protected boolean supportsFixedOffsets() {
    return false;
  }
}
