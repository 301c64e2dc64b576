package io.github.memplan.experiments.measure;

import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Metric;
import io.github.memplan.core.solve.MetricProvider;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Validator;
import io.github.memplan.core.solve.Violation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one way a planner runs, in the CLI ({@code memplan dsa|gmem|lmem}, {@code --planner all}) and
 * in a suite ({@code memplan run}): solve, validate, measure, on a fresh daemon thread under a time
 * limit.
 *
 * <p>A run still going at its time limit plus a grace margin ({@link #grace}: 1 s + 10% of the
 * limit) is cancelled through its {@link Budget}; if it has not returned one grace margin later its
 * thread is interrupted, and it is {@link RunStatus#TIMEOUT} either way (a thread that ignores both
 * is abandoned; it is a daemon and does not keep the JVM alive). Anything thrown, {@link
 * OutOfMemoryError} and {@link StackOverflowError} included, is {@link RunStatus#ERROR} with a
 * one-line message. A solution the validator rejects is {@link RunStatus#ERROR} naming the first
 * violation, and is not measured.
 */
public final class GuardedSolve {
  private GuardedSolve() {}

  /** The grace margin past a time limit before a run is cancelled. */
  public static Duration grace(Duration limit) {
    return Duration.ofSeconds(1).plus(limit.dividedBy(10));
  }

  /**
   * The metrics of instance type {@code type}: those of its {@link MetricProvider}s, providers in
   * class-name order, each provider's metrics in its order.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static <I, S> List<Metric<I, S>> metrics(Class<I> type) {
    List<MetricProvider> providers = new ArrayList<>();
    ServiceLoader.load(MetricProvider.class).forEach(providers::add);
    providers.sort(Comparator.comparing(p -> p.getClass().getName()));
    List<Metric<I, S>> out = new ArrayList<>();
    for (MetricProvider p : providers) {
      if (p.instanceType().equals(type)) {
        out.addAll(p.metrics());
      }
    }
    return out;
  }

  /**
   * Validates {@code outcome}'s solution, if any, and measures the metrics: an invalid solution is
   * {@code ERROR} naming the first violation, unmeasured.
   */
  public static <I, S> Measured<S> measure(
      I instance, Outcome<S> outcome, Validator<I, S> validator, List<Metric<I, S>> metrics) {
    if (outcome.status().hasSolution()) {
      List<Violation> v = validator.validate(instance, outcome.solution());
      if (!v.isEmpty()) {
        return new Measured<>(
            RunStatus.ERROR,
            Optional.of(outcome),
            Map.of(),
            v,
            Optional.empty(),
            "invalid solution: " + Measured.firstViolation(v),
            0);
      }
    }
    Map<String, OptionalDouble> values = new LinkedHashMap<>();
    for (Metric<I, S> m : metrics) {
      values.put(m.id(), m.value(instance, outcome));
    }
    return new Measured<>(
        RunStatus.of(outcome.status()),
        Optional.of(outcome),
        values,
        List.of(),
        Optional.empty(),
        outcome.message(),
        0);
  }

  /**
   * Runs {@code work} on a fresh daemon thread, cancelling {@code budget} and then interrupting the
   * thread when it overruns {@code timeLimit} ({@code null}: wait without limit); the result's
   * {@code millis} is the thread's wall-clock time.
   */
  public static <S> Measured<S> guard(
      Callable<Measured<S>> work, Budget budget, Duration timeLimit, String threadName) {
    AtomicReference<Object> result = new AtomicReference<>();
    long t0 = System.nanoTime();
    Thread t =
        new Thread(
            () -> {
              try {
                result.set(work.call());
              } catch (Throwable e) {
                result.set(e);
              }
            },
            threadName);
    t.setDaemon(true);
    t.start();
    boolean timedOut = false;
    try {
      if (timeLimit == null) {
        t.join();
      } else {
        Duration g = grace(timeLimit);
        t.join(timeLimit.plus(g).toMillis());
        if (t.isAlive()) {
          timedOut = true;
          budget.cancel();
          t.join(g.toMillis());
          if (t.isAlive()) {
            t.interrupt();
            t.join(g.toMillis());
          }
        }
      }
    } catch (InterruptedException e) {
      budget.cancel();
      t.interrupt();
      Thread.currentThread().interrupt();
      timedOut = true;
    }
    double millis = (System.nanoTime() - t0) / 1e6;
    Object res = result.get();
    if (timedOut) {
      String message =
          timeLimit == null
              ? "interrupted; cancelled"
              : "still running "
                  + grace(timeLimit).toMillis()
                  + " ms past its time limit of "
                  + timeLimit.toMillis()
                  + " ms; cancelled";
      return failure(RunStatus.TIMEOUT, Optional.empty(), message, millis);
    }
    if (res instanceof Measured<?> m) {
      @SuppressWarnings("unchecked")
      Measured<S> done = (Measured<S>) m;
      return new Measured<>(
          done.status(),
          done.outcome(),
          done.values(),
          done.violations(),
          done.thrown(),
          done.message(),
          millis);
    }
    Throwable e = (Throwable) res;
    return failure(RunStatus.ERROR, Optional.of(e), describe(e), millis);
  }

  private static <S> Measured<S> failure(
      RunStatus status, Optional<Throwable> thrown, String message, double millis) {
    return new Measured<>(status, Optional.empty(), Map.of(), List.of(), thrown, message, millis);
  }

  /** One line for what a planner threw. */
  public static String describe(Throwable e) {
    if (e instanceof OutOfMemoryError) {
      return "ran out of memory (OutOfMemoryError"
          + (e.getMessage() == null ? "" : ": " + e.getMessage())
          + ")";
    }
    if (e instanceof StackOverflowError) {
      return "ran out of stack (StackOverflowError)";
    }
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }
}
