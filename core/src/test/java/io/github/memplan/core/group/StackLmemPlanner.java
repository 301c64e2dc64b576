package io.github.memplan.core.group;

import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.SolveContext;
import java.util.OptionalLong;

/**
 * Test double {@code test-lmem-stack}: every buffer at its own EU-aligned address, one after
 * another, never reusing space; infeasible when the sum does not fit. Hand-computable, so grouping
 * tests do not depend on a real allocator.
 */
public final class StackLmemPlanner implements Planner<LmemInstance, LmemSolution> {
  @Override
  public Outcome<LmemSolution> solve(LmemInstance inst, SolveContext ctx) {
    long[] a = new long[inst.buffers().size()];
    long next = 0;
    for (int i = 0; i < a.length; i++) {
      LmemBuffer b = inst.buffers().get(i);
      a[i] = next;
      next = (next + b.bytes() + inst.euBytes() - 1) / inst.euBytes() * inst.euBytes();
    }
    if (next > inst.capacity()) {
      return Outcome.infeasible("stack of " + next + " bytes > " + inst.capacity());
    }
    return Outcome.feasible(new LmemSolution(a), OptionalLong.empty());
  }

  /** Registers it as {@code test-lmem-stack}. */
  public static final class Provider implements PlannerProvider<LmemInstance, LmemSolution> {
    @Override
    public String id() {
      return "test-lmem-stack";
    }

    @Override
    public String description() {
      return "test double: buffers stacked without reuse";
    }

    @Override
    public String citation() {
      return "none (test double)";
    }

    @Override
    public Class<LmemInstance> instanceType() {
      return LmemInstance.class;
    }

    @Override
    public Planner<LmemInstance, LmemSolution> create(PlannerConfig config) {
      return new StackLmemPlanner();
    }
  }
}
