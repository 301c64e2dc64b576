package io.github.memplan.experiments.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
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
    // two buffers of 8 bytes alive together: naive stacks them, peak 16 = the max-load bound
    DsaInstance two =
        DsaInstance.of("two", List.of(Buffer.of("a", 0, 2, 8), Buffer.of("b", 0, 2, 8)));
    CommandLine cl = Main.newCommandLine();
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out));
    PlanOptions opts = new PlanOptions();
    opts.planner = AllPlanners.ALL;
    opts.params = Map.of();
    opts.timeLimit = Duration.ofSeconds(10);
    int code =
        AllPlanners.run(
            two,
            opts,
            cl.getCommandSpec(),
            r -> {},
            List.of(new TestStackPlanner("throw"), Planners.get("naive", DsaInstance.class)));
    assertThat(code).isEqualTo(Main.FAILED);
    assertThat(out.toString())
        .containsPattern(
            "(?m)^test-stack-throw +ERROR: internal error: java.lang.IllegalStateException:"
                + " deliberate exception +- +- +- +-$")
        .containsPattern("(?m)^naive +(OPTIMAL|FEASIBLE) +16 +16 +1\\.0000 ");
  }
}
