package io.github.memplan.core.solve;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A run's budget: a wall-clock deadline, a cap on search steps (nodes, moves, iterations: each
 * planner says what it counts) and a cancellation flag that another thread may raise. The deadline
 * is fixed when the budget is created, so create it when the run starts.
 *
 * <p>Thread-safe. Planners poll {@link #exhausted(long)} at a granularity that keeps overruns small
 * (a few milliseconds).
 */
public final class Budget {
  private static final long NO_DEADLINE = Long.MAX_VALUE;

  private final long deadlineNanos;
  private final Duration limit;
  private final long stepCap;
  private final AtomicBoolean cancelled;

  private Budget(long deadlineNanos, Duration limit, long stepCap, AtomicBoolean cancelled) {
    this.deadlineNanos = deadlineNanos;
    this.limit = limit;
    this.stepCap = stepCap;
    this.cancelled = cancelled;
  }

  private Budget(Duration limit, long stepCap) {
    if (limit != null && limit.isNegative()) {
      throw new IllegalArgumentException("budget time limit must not be negative: " + limit);
    }
    if (stepCap < 0) {
      throw new IllegalArgumentException("budget step cap must not be negative: " + stepCap);
    }
    this.limit = limit;
    this.stepCap = stepCap;
    this.cancelled = new AtomicBoolean();
    this.deadlineNanos = limit == null ? NO_DEADLINE : saturatedAdd(System.nanoTime(), limit);
  }

  private static long saturatedAdd(long now, Duration limit) {
    long nanos;
    try {
      nanos = limit.toNanos();
    } catch (ArithmeticException e) {
      return NO_DEADLINE;
    }
    long sum = now + nanos;
    return ((now ^ sum) & (nanos ^ sum)) < 0 ? NO_DEADLINE : sum;
  }

  /** No deadline, no step cap. */
  public static Budget unlimited() {
    return new Budget(null, Long.MAX_VALUE);
  }

  /** An unlimited budget already cancelled: for tests of how planners stop. */
  public static Budget cancelledNow() {
    Budget b = unlimited();
    b.cancel();
    return b;
  }

  /** A deadline {@code limit} from now, no step cap. */
  public static Budget of(Duration limit) {
    return new Budget(limit, Long.MAX_VALUE);
  }

  /** A deadline {@code limit} from now (or none if {@code null}) and a step cap. */
  public static Budget of(Duration limit, long stepCap) {
    return new Budget(limit, stepCap);
  }

  /** Whether the run must stop now, having done {@code stepsDone} steps. */
  public boolean exhausted(long stepsDone) {
    return stepsDone >= stepCap || cancelled.get() || timeUp();
  }

  /** Whether the deadline has passed or the run was cancelled (steps not considered). */
  public boolean exhausted() {
    return cancelled.get() || timeUp();
  }

  private boolean timeUp() {
    return deadlineNanos != NO_DEADLINE && System.nanoTime() - deadlineNanos >= 0;
  }

  /** Time left before the deadline (zero when past it; a very long duration when unlimited). */
  public Duration remaining() {
    if (deadlineNanos == NO_DEADLINE) {
      return Duration.ofDays(365);
    }
    return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
  }

  /**
   * The time a planner keeps back from its search on {@code buffers} buffers to read back, check
   * and return its answer before the deadline: 10 µs per buffer (a validation and a copy of the
   * placement), at most a fifth of the time left now; zero without a deadline.
   */
  public Duration wrapUp(int buffers) {
    if (deadlineNanos == NO_DEADLINE) {
      return Duration.ZERO;
    }
    long perBuffers = 10_000L * Math.max(0, buffers);
    return Duration.ofNanos(Math.min(perBuffers, remaining().toNanos() / 5));
  }

  /**
   * A view of this budget for a phase that must leave {@code reserve} for the work after it (for
   * example a greedy start whose answer is then validated): it runs out {@code reserve} before this
   * budget's deadline, and shares its cancellation (either cancels both) and step cap. This budget
   * itself when it has no deadline.
   */
  public Budget keepingBack(Duration reserve) {
    if (deadlineNanos == NO_DEADLINE || reserve.isZero() || reserve.isNegative()) {
      return this;
    }
    // never earlier than now: a reserve longer than what is left leaves a budget run out at once
    long back =
        Math.min(
            reserve.compareTo(remaining()) < 0 ? reserve.toNanos() : Long.MAX_VALUE,
            Math.max(0, deadlineNanos - System.nanoTime()));
    return new Budget(deadlineNanos - back, limit, stepCap, cancelled);
  }

  /** Whether the run must stop now, keeping back {@code reserve} before the deadline. */
  public boolean exhausted(Duration reserve) {
    return exhausted() || remaining().compareTo(reserve) <= 0;
  }

  /** The time limit this budget was created with, if any. */
  public java.util.Optional<Duration> limit() {
    return java.util.Optional.ofNullable(limit);
  }

  public long stepCap() {
    return stepCap;
  }

  public void cancel() {
    cancelled.set(true);
  }

  public boolean isCancelled() {
    return cancelled.get();
  }

  @Override
  public String toString() {
    return "Budget[limit="
        + (limit == null ? "none" : limit)
        + ", steps="
        + (stepCap == Long.MAX_VALUE ? "none" : stepCap)
        + (isCancelled() ? ", cancelled" : "")
        + "]";
  }
}
