package io.github.memplan.baseline.tvm;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;
import io.github.memplan.core.solve.Parameter;
import java.util.List;

/** Registers {@link StorageRewritePlanner} as {@code tvm-storage-rewrite}. */
public final class TvmStorageRewriteProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public TvmStorageRewriteProvider() {
    super(
        "tvm-storage-rewrite",
        DsaInstance.class,
        "TVM StorageRewrite: shared storage entries from a size-keyed free list, reuse only"
            + " within 16x of the request; entries side by side.",
        "apache/tvm src/tir/transforms/storage_rewrite.cc (PlanMemory, FindAlloc, Free)",
        List.of(
            new Parameter(
                "match-range",
                "a free entry is reused only if its size is within [size/r, size*r]",
                String.valueOf(StorageRewritePlanner.MATCH_RANGE))),
        config -> new StorageRewritePlanner(config.longValue("match-range")));
  }
}
