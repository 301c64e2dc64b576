package io.github.memplan.core.dsa;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * The budget contract of every DSA planner at scale (shipped in {@code core}'s test-jar, run by a
 * module that has every planner on its class path): each registered {@code DsaInstance} planner,
 * with its default parameters, on a {@value #BUFFERS}-buffer {@link #largeInstance schedule-like
 * instance}, returns a valid placement or {@code NO_SOLUTION_IN_BUDGET}, never an exception, an
 * error or an out-of-memory,
 *
 * <ul>
 *   <li>with a time limit of {@link #LIMIT}: within the limit plus {@code max(1 s, 5%)} (the
 *       contract) plus {@link #SLACK} (generous: CI machines are shared and this is not a timing
 *       benchmark; the benchmark scripts measure);
 *   <li>with an unlimited budget cancelled after {@link #CANCEL_AFTER}: within that plus {@code 1
 *       s} plus {@link #SLACK}.
 * </ul>
 */
public final class DsaBudgetContract {
  /** Buffers of the instance. */
  public static final int BUFFERS = 50_000;

  public static final Duration LIMIT = Duration.ofSeconds(1);

  public static final Duration CANCEL_AFTER = Duration.ofMillis(300);

  public static final Duration SLACK = Duration.ofSeconds(10);

  private DsaBudgetContract() {}

  /**
   * A schedule-like instance of {@code n} buffers in 64-byte units: chain outputs, residuals, a few
   * long skips, and 50 buffers alive throughout (weights, state): dense enough that quadratic work
   * shows.
   */
  public static DsaInstance largeInstance(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Buffer> bufs = new ArrayList<>(n);
    int always = Math.min(50, n);
    int end = n - always + 64;
    for (int i = 0; i < always; i++) {
      bufs.add(Buffer.of("w" + i, 0, end, 64L * (1 + r.nextInt(4096))));
    }
    for (int i = 0; bufs.size() < n; i++) {
      double k = r.nextDouble();
      int span = k < 0.7 ? 2 : k < 0.95 ? 3 + r.nextInt(6) : 10 + r.nextInt(400);
      bufs.add(Buffer.of("b" + i, i, Math.min(end, i + span), 64L * (1 + r.nextInt(16384))));
    }
    return DsaInstance.of("budget-contract-" + n, bufs);
  }

  /** The DSA planners on the class path whose ids {@code include} accepts. */
  public static List<PlannerProvider<DsaInstance, DsaSolution>> planners(
      Predicate<String> include) {
    return Planners.<DsaInstance, DsaSolution>forInstance(DsaInstance.class).stream()
        .filter(p -> include.test(p.id()))
        .toList();
  }

  /** One test per planner: the time limit {@link #LIMIT}. */
  public static Stream<DynamicTest> timeLimit(Predicate<String> include) {
    DsaInstance in = largeInstance(BUFFERS, 1);
    Duration allowed = LIMIT.plus(grace(LIMIT)).plus(SLACK);
    return planners(include).stream()
        .map(
            p ->
                DynamicTest.dynamicTest(
                    p.id(), () -> check(p, in, Budget.of(LIMIT), null, allowed)));
  }

  /** One test per planner: an unlimited budget cancelled after {@link #CANCEL_AFTER}. */
  public static Stream<DynamicTest> cancelled(Predicate<String> include) {
    DsaInstance in = largeInstance(BUFFERS, 2);
    Duration allowed = CANCEL_AFTER.plus(Duration.ofSeconds(1)).plus(SLACK);
    return planners(include).stream()
        .map(
            p ->
                DynamicTest.dynamicTest(
                    p.id(),
                    () -> {
                      Budget b = Budget.unlimited();
                      check(p, in, b, b, allowed);
                    }));
  }

  /** {@code max(1 s, 5%)} of {@code limit}. */
  public static Duration grace(Duration limit) {
    Duration five = limit.dividedBy(20);
    return five.compareTo(Duration.ofSeconds(1)) > 0 ? five : Duration.ofSeconds(1);
  }

  private static void check(
      PlannerProvider<DsaInstance, DsaSolution> p,
      DsaInstance in,
      Budget budget,
      Budget cancel,
      Duration allowed) {
    Planner<DsaInstance, DsaSolution> planner =
        p.create(PlannerConfig.resolve(p.id(), p.parameters(), Map.of()));
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    try {
      if (cancel != null) {
        timer.schedule(cancel::cancel, CANCEL_AFTER.toMillis(), TimeUnit.MILLISECONDS);
      }
      long t0 = System.nanoTime();
      Outcome<DsaSolution> out = planner.solve(in, SolveContext.of(1, budget));
      Duration took = Duration.ofNanos(System.nanoTime() - t0);
      assertThat(took)
          .as("planner '%s' on %d buffers (%s)", p.id(), in.size(), budget)
          .isLessThanOrEqualTo(allowed);
      DsaPlannerContract.assertBudgetRespected(in, out);
    } finally {
      timer.shutdownNow();
    }
  }
}
