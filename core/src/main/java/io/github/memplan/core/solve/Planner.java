package io.github.memplan.core.solve;

/**
 * An algorithm for one problem. Implementations are immutable and thread-safe: parameters come in
 * the constructor, the instance in {@link #solve}, and all scratch state is local to the call.
 *
 * @param <I> the instance type
 * @param <S> the solution type
 */
@FunctionalInterface
public interface Planner<I, S> {
  /**
   * Solves {@code instance} within {@code ctx}'s budget. Never throws for a valid instance: a
   * planner that cannot go on returns {@link Outcome#error} or {@link Outcome#noSolution}. Throws
   * {@link IllegalArgumentException} when the instance is outside what the planner handles (the
   * message names why).
   */
  Outcome<S> solve(I instance, SolveContext ctx);
}
