package io.github.memplan.experiments.cli;

import io.github.memplan.experiments.measure.Measured;

/** How the CLI reports what a guarded run caught (the suites record it as an {@code ERROR} row). */
final class Failures {
  private Failures() {}

  /**
   * Throws what the planner of {@code m} threw, as the CLI reports it: an {@link OutOfMemoryError}
   * or {@link StackOverflowError} as one line naming the planner and {@code what} it ran on,
   * anything else as it was (bad input is one line, exit 1; a fault a stack trace with {@code
   * --verbose}).
   */
  static void rethrow(Measured<?> m, String plannerId, String what) {
    if (m.thrown().isEmpty()) {
      return;
    }
    Throwable e = m.thrown().get();
    if (e instanceof VirtualMachineError vm
        && (e instanceof OutOfMemoryError || e instanceof StackOverflowError)) {
      throw new Main.Failure("planner '" + plannerId + "' " + Main.outOf(vm) + " on " + what);
    }
    if (e instanceof RuntimeException re) {
      throw re;
    }
    if (e instanceof Error err) {
      throw err;
    }
    throw new IllegalStateException(e);
  }

  /**
   * {@link #rethrow} for a run on instance {@code name} of {@code buffers} buffers, then a {@link
   * Main.Failure} for a solution the validator rejected, naming the first violation ({@code noun}:
   * what the solution is called, {@code solution} or {@code placement}).
   */
  static void check(Measured<?> m, String plannerId, String name, int buffers, String noun) {
    rethrow(m, plannerId, "'" + name + "' (" + buffers + " buffers)");
    if (!m.violations().isEmpty()) {
      throw new Main.Failure(
          "planner '"
              + plannerId
              + "' returned an invalid "
              + noun
              + " for '"
              + name
              + "': "
              + Measured.firstViolation(m.violations()));
    }
  }
}
