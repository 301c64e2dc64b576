package io.github.memplan.baseline.tvm;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.List;

/** Registers {@link StorageRewritePlanner} as {@code tvm-storage-rewrite}. */
public final class TvmStorageRewriteProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  static final String MATCH_RANGE = "match-range";

  @Override
  public String id() {
    return "tvm-storage-rewrite";
  }

  @Override
  public String description() {
    return "TVM StorageRewrite: shared storage entries from a size-keyed free list, reuse only"
        + " within 16x of the request; entries side by side.";
  }

  @Override
  public String citation() {
    return "apache/tvm src/tir/transforms/storage_rewrite.cc (PlanMemory, FindAlloc, Free)";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public List<Parameter> parameters() {
    return List.of(
        new Parameter(
            MATCH_RANGE,
            "a free entry is reused only if its size is within [size/r, size*r]",
            String.valueOf(StorageRewritePlanner.MATCH_RANGE)));
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new StorageRewritePlanner(config.longValue(MATCH_RANGE));
  }
}
