package io.github.memplan.experiments.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --planner all} goes on past a planner that fails, whatever it throws (an overflow, say, or
 * here test-stack's deliberate {@link IllegalStateException}).
 */
class AllPlannersTest {
  @Test
  void aPlannerThatThrowsIsItsRowAndTheOthersStillRun() {
    StringWriter out = new StringWriter();
    int code = runWithNaive(new TestStackPlanner("throw"), Duration.ofSeconds(10), out);
    assertThat(code).isEqualTo(Main.FAILED);
    assertThat(out.toString())
        .containsPattern(
            "(?m)^test-stack-throw +ERROR: internal error: java.lang.IllegalStateException:"
                + " deliberate exception +- +- +- +-$")
        .containsPattern("(?m)^naive +(OPTIMAL|FEASIBLE) +16 +16 +1\\.0000 ");
  }

  /**
   * Each planner runs under the time limit, as in a suite: one that ignores its budget is cancelled
   * a grace margin past it and is a {@code TIMEOUT} row, and the others still run.
   */
  @Test
  void aPlannerPastItsTimeLimitIsATimeoutRowAndTheOthersStillRun() {
    StringWriter out = new StringWriter();
    long t0 = System.nanoTime();
    int code = runWithNaive(new TestStackPlanner("stall"), Duration.ofMillis(50), out);
    // cancelled at 50 ms + 1.005 s, interrupted 1.005 s later
    assertThat((System.nanoTime() - t0) / 1e9).isLessThan(10);
    assertThat(code).isEqualTo(Main.FAILED);
    assertThat(out.toString())
        .containsPattern("(?m)^test-stack-stall +TIMEOUT +- +- +- +[0-9.]+$")
        .containsPattern("(?m)^naive +(OPTIMAL|FEASIBLE) +16 +16 +1\\.0000 ");
  }

  /** {@code --planner all} over {@code first} and naive, the table written to {@code out}. */
  private static int runWithNaive(
      PlannerProvider<DsaInstance, DsaSolution> first, Duration limit, StringWriter out) {
    // two buffers of 8 bytes alive together: naive stacks them, peak 16 = the max-load bound
    DsaInstance two =
        DsaInstance.of("two", List.of(Buffer.of("a", 0, 2, 8), Buffer.of("b", 0, 2, 8)));
    CommandLine cl = Main.newCommandLine();
    cl.setOut(new PrintWriter(out));
    PlanOptions opts = new PlanOptions();
    opts.planner = AllPlanners.ALL;
    opts.params = Map.of();
    opts.timeLimit = limit;
    return AllPlanners.run(
        two,
        opts,
        cl.getCommandSpec(),
        r -> {},
        List.of(first, Planners.get("naive", DsaInstance.class)));
  }
}
