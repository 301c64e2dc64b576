package io.github.memplan.solvers.timefold;

import ai.timefold.solver.core.api.solver.Solver;
import io.github.memplan.core.solve.Budget;

/**
 * A daemon thread that stops a Timefold solver when the budget's deadline passes or the run is
 * cancelled: Timefold's own time terminations cannot see memplan's cancellation flag. It polls
 * every {@value #WATCH_MILLIS} ms (overruns stay within a few ms) until {@link #close}.
 */
public final class BudgetWatcher implements AutoCloseable {
  private static final long WATCH_MILLIS = 2;

  private final Object done = new Object();
  private boolean finished;

  private BudgetWatcher() {}

  /** Starts watching {@code budget} for {@code solver} on a thread named {@code name}. */
  public static BudgetWatcher start(Budget budget, Solver<?> solver, String name) {
    return start(budget, java.time.Duration.ZERO, solver, name);
  }

  /**
   * Starts watching {@code budget} for {@code solver}, stopping it {@code reserve} before the
   * deadline (see {@link Budget#wrapUp}).
   */
  public static BudgetWatcher start(
      Budget budget, java.time.Duration reserve, Solver<?> solver, String name) {
    BudgetWatcher w = new BudgetWatcher();
    Thread t =
        new Thread(
            () -> {
              synchronized (w.done) {
                while (!w.finished) {
                  if (budget.exhausted(reserve)) {
                    solver.terminateEarly();
                  }
                  try {
                    w.done.wait(WATCH_MILLIS);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              }
            },
            name);
    t.setDaemon(true);
    t.start();
    return w;
  }

  /** Stops the thread. */
  @Override
  public void close() {
    synchronized (done) {
      finished = true;
      done.notifyAll();
    }
  }
}
