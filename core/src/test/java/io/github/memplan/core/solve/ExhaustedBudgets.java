package io.github.memplan.core.solve;

import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/** Runs a planner under budgets that are exhausted from the start, for the contract tests. */
public final class ExhaustedBudgets {
  private ExhaustedBudgets() {}

  /** A cancelled budget, and a deadline of zero. */
  public static final List<Supplier<Budget>> KINDS =
      List.of(Budget::cancelledNow, () -> Budget.of(Duration.ZERO));

  /**
   * Solves each instance under {@code budget} and hands the outcome to {@code check}; an exception
   * from the planner fails with the instance's name.
   */
  public static <I, S> void check(
      List<I> instances,
      Supplier<Budget> budget,
      BiFunction<I, SolveContext, Outcome<S>> solve,
      BiConsumer<I, Outcome<S>> check,
      long seed) {
    for (I inst : instances) {
      Outcome<S> out;
      try {
        out = solve.apply(inst, SolveContext.of(seed, budget.get()));
      } catch (RuntimeException e) {
        throw new AssertionError("the planner threw on " + inst + " under an exhausted budget", e);
      }
      check.accept(inst, out);
    }
  }
}
