package io.github.memplan.baseline.glow;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;

/** Registers {@link GlowLinearPlanner} as {@code glow-linear}. */
public final class GlowLinearPlannerProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  @Override
  public String id() {
    return "glow-linear";
  }

  @Override
  public String description() {
    return "Glow linear allocator replayed online: allocate at birth into the first free region"
        + " that fits (address order), free at death; fails when the capacity is exceeded.";
  }

  @Override
  public String citation() {
    return "seed glow-esperanto-memory-management.rst (Linear Memory Allocator);"
        + " pytorch/glow: lib/CodeGen/MemoryAllocator.cpp (MemoryAllocator::allocate)";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    return new GlowLinearPlanner();
  }
}
