package io.github.memplan.core.solve;

import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

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

  /**
   * The check of an outcome under an exhausted budget: a solution, which {@code assertSolved}
   * checks, or {@code NO_SOLUTION_IN_BUDGET}.
   */
  public static <I, S> BiConsumer<I, Outcome<S>> solvedOrNoSolution(
      BiConsumer<I, Outcome<S>> assertSolved, Function<I, String> name) {
    return (inst, out) -> {
      if (out.status().hasSolution()) {
        assertSolved.accept(inst, out);
      } else if (out.status() != Status.NO_SOLUTION_IN_BUDGET) {
        throw new AssertionError(
            "status on "
                + name.apply(inst)
                + " under an exhausted budget: "
                + out.status()
                + " ("
                + out.message()
                + "), expected a solution or NO_SOLUTION_IN_BUDGET");
      }
    };
  }

  /** Two dynamic tests, {@code cancelled} and {@code zero deadline}, each running {@code check}. */
  public static Stream<DynamicTest> dynamicTests(Consumer<Supplier<Budget>> check) {
    return Stream.of(
        DynamicTest.dynamicTest("cancelled", () -> check.accept(KINDS.get(0))),
        DynamicTest.dynamicTest("zero deadline", () -> check.accept(KINDS.get(1))));
  }
}
