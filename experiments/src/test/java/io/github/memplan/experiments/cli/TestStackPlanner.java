package io.github.memplan.experiments.cli;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.List;
import java.util.OptionalLong;

/**
 * A test-only planner, {@code test-stack}: stacks the buffers without reuse, ignoring fixed offsets
 * (valid for instances without them), or, by its {@code mode} parameter, misbehaves on purpose so
 * that the CLI's handling of bad planners can be tested: {@code overlap} puts every buffer at 0,
 * {@code error} and {@code infeasible} return those statuses, {@code throw} throws, {@code oom} and
 * {@code deep} throw an {@code OutOfMemoryError} and a {@code StackOverflowError}, {@code stall}
 * ignores its budget and waits until its thread is interrupted, {@code slow} stacks after a pause
 * of 100 ms (within its budget) so that a suite of them can be killed half-way, {@code shutdown}
 * does as {@code slow} and then, like a native library loader, registers a clean-up hook with the
 * JVM, which throws once the JVM shuts down; its first run also adds a hook that holds the shutdown
 * for a second, so that a run caught by a signal ends while the JVM is still there.
 */
public final class TestStackPlanner implements PlannerProvider<DsaInstance, DsaSolution> {
  private final String defaultMode;

  /** The registered planner: mode {@code stack} unless a parameter says otherwise. */
  public TestStackPlanner() {
    this("stack");
  }

  /**
   * A planner whose mode defaults to {@code defaultMode}, for runs that take no parameters ({@code
   * --planner all}); its id is {@code test-stack-MODE}.
   */
  TestStackPlanner(String defaultMode) {
    this.defaultMode = defaultMode;
  }

  @Override
  public String id() {
    return defaultMode.equals("stack") ? "test-stack" : "test-stack-" + defaultMode;
  }

  @Override
  public String description() {
    return "Test only: stacks buffers without reuse, or misbehaves by mode.";
  }

  @Override
  public String citation() {
    return "none (test fixture)";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public List<Parameter> parameters() {
    return List.of(
        new Parameter(
            "mode",
            "stack, overlap, error, infeasible, throw, oom, deep, stall, slow or shutdown",
            defaultMode));
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    String mode = config.string("mode");
    return (instance, ctx) ->
        switch (mode) {
          case "stack", "slow", "shutdown" -> {
            if (mode.equals("shutdown")) {
              holdShutdown();
            }
            if (!mode.equals("stack")) {
              pause(100);
            }
            if (mode.equals("shutdown")) {
              // throws IllegalStateException("Shutdown in progress") once the JVM shuts down
              Runtime.getRuntime().addShutdownHook(new Thread(() -> {}));
            }
            long[] offsets = new long[instance.size()];
            long top = 0;
            for (int i = 0; i < instance.size(); i++) {
              Buffer b = instance.buffer(i);
              top = (top + b.alignment() - 1) / b.alignment() * b.alignment();
              offsets[i] = top;
              top += b.size();
            }
            yield top > instance.capacity()
                ? Outcome.noSolution(OptionalLong.empty(), "stack exceeds the capacity")
                : Outcome.feasible(new DsaSolution(offsets), OptionalLong.empty());
          }
          case "overlap" ->
              Outcome.feasible(new DsaSolution(new long[instance.size()]), OptionalLong.empty());
          case "error" -> Outcome.error("deliberate failure");
          case "infeasible" -> Outcome.infeasible("deliberately infeasible");
          case "throw" -> throw new IllegalStateException("deliberate exception");
          case "oom" -> throw new OutOfMemoryError("Java heap space");
          case "deep" -> throw new StackOverflowError();
          case "stall" -> {
            while (!pause(10)) {
              // the budget is ignored on purpose
            }
            yield Outcome.error("interrupted");
          }
          default -> throw new IllegalArgumentException("test-stack: unknown mode '" + mode + "'");
        };
  }

  private static boolean holding;

  /** Adds, once, a shutdown hook that keeps the JVM up for a second after a signal. */
  private static synchronized void holdShutdown() {
    if (!holding) {
      holding = true;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> pause(1000)));
    }
  }

  /** Sleeps; true if interrupted. */
  private static boolean pause(long millis) {
    try {
      Thread.sleep(millis);
      return false;
    } catch (InterruptedException e) {
      return true;
    }
  }
}
