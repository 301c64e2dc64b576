package io.github.memplan.baseline.glow.dsa;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/** Registers {@link GlowLinearPlanner} as {@code glow-linear}. */
public final class GlowLinearPlannerProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public GlowLinearPlannerProvider() {
    super(
        "glow-linear",
        DsaInstance.class,
        "Glow linear allocator replayed online: allocate at birth into the first free region"
            + " that fits (address order), free at death; fails when the capacity is exceeded.",
        "seed glow-esperanto-memory-management.rst (Linear Memory Allocator);"
            + " pytorch/glow: lib/CodeGen/MemoryAllocator.cpp (MemoryAllocator::allocate)",
        config -> new GlowLinearPlanner());
  }
}
