package io.github.memplan.core.solve;

import java.util.Objects;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * What a planner receives beside its instance: a random generator derived from the run's seed, a
 * budget and a progress listener. There is no global random generator anywhere in memplan: a
 * planner that needs randomness takes it from here, so the same seed gives the same bytes.
 *
 * @param seed the run's seed
 * @param random the generator to use, seeded from {@code seed}; one per run, never shared
 * @param budget the run's budget
 * @param progress the progress listener
 */
public record SolveContext(
    long seed, RandomGenerator random, Budget budget, ProgressListener progress) {

  public SolveContext {
    Objects.requireNonNull(random, "random");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(progress, "progress");
  }

  /** A context with a generator seeded from {@code seed}, the budget and no progress listener. */
  public static SolveContext of(long seed, Budget budget) {
    return new SolveContext(seed, new SplittableRandom(seed), budget, ProgressListener.NONE);
  }

  /** Seed 0, no limits: for tests and one-off calls. */
  public static SolveContext unlimited() {
    return of(0L, Budget.unlimited());
  }

  /** The same seed and listener with a fresh generator and another budget. */
  public SolveContext withBudget(Budget other) {
    return new SolveContext(seed, new SplittableRandom(seed), other, progress);
  }

  /** The same context reporting to another listener. */
  public SolveContext withProgress(ProgressListener listener) {
    return new SolveContext(seed, random, budget, listener);
  }
}
