package io.github.memplan.experiments.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.experiments.measure.RunStatus;
import io.github.memplan.experiments.store.ResultRow;
import io.github.memplan.experiments.store.ResultsFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memplan dsa --json} and a one-run suite of the same planner and instance report the same
 * status, peak, bound and ratio: one definition of each metric ({@code core.dsa.DsaMetrics}), the
 * bound being {@code lower-bound-bytes}, the larger of max load and the planner's proven bound, and
 * no ratio over a zero bound in either.
 */
class DsaCliMatchesSuiteIT {
  @TempDir Path dir;

  /** The exact search (cut short by a node limit, so its answer does not depend on the clock). */
  @Test
  void exactOnMiniMallocD() throws Exception {
    assertSame("minimalloc:D", "exact", Map.of("node-limit", "20000"), RunStatus.FEASIBLE);
  }

  @Test
  void aHeuristicOnMiniMallocD() throws Exception {
    assertSame("minimalloc:D", "tflm", Map.of(), RunStatus.FEASIBLE);
  }

  /** Buffers of size zero: bound 0, peak 0, and no ratio in either. */
  @Test
  void aZeroBoundGivesNoRatioInEither() throws Exception {
    Path zero = dir.resolve("zero.csv");
    Files.writeString(zero, "id,lower,upper,size\na,0,2,0\nb,1,3,0\n");
    for (String planner : List.of("exact", "tflm")) {
      JsonNode cli = assertSame(zero.toString(), planner, Map.of(), RunStatus.OPTIMAL);
      assertThat(cli.get("lowerBound").asLong()).isZero();
      assertThat(cli.get("ratio").isNull()).as(planner).isTrue();
    }
  }

  /** Runs both ways and compares; returns the CLI's JSON. */
  private JsonNode assertSame(
      String instance, String planner, Map<String, String> params, RunStatus expected)
      throws Exception {
    StringBuilder args = new StringBuilder();
    params.forEach((k, v) -> args.append(" --param ").append(k).append('=').append(v));
    MainTest.Run cli =
        MainTest.run(
            ("dsa --instance " + instance + " --planner " + planner + args + " --json")
                .strip()
                .split(" "));
    assertThat(cli.code()).as(cli.err()).isZero();
    JsonNode j = cli.json();

    Path suite = dir.resolve(planner + "-suite.yaml");
    String paramsYaml =
        params.entrySet().stream()
            .map(e -> e.getKey() + ": \"" + e.getValue() + "\"")
            .collect(Collectors.joining(", "));
    Files.writeString(
        suite,
        "suite: same\nbudget: {time-limit: 60s}\nproblems:\n  - problem: dsa\n    instances: ["
            + instance
            + "]\n    planners:\n      - {planner: "
            + planner
            + ", params: {"
            + paramsYaml
            + "}}\n");
    Path out = dir.resolve(planner + "-" + Math.abs(instance.hashCode()));
    MainTest.Run run =
        MainTest.run("run", suite.toString(), "--out", out.toString(), "--jobs", "1");
    assertThat(run.code()).as(run.err()).isZero();
    Map<String, ResultRow> rows =
        ResultsFile.read(out.resolve("results.csv")).stream()
            .collect(Collectors.toMap(ResultRow::metric, r -> r));

    assertThat(rows.get("peak-bytes").status()).isEqualTo(expected);
    assertThat(j.get("status").asText()).isEqualTo(expected.name());
    assertThat(j.get("peakBytes").asLong())
        .isEqualTo(Long.parseLong(rows.get("peak-bytes").value()));
    assertThat(j.get("lowerBound").asLong())
        .isEqualTo(Long.parseLong(rows.get("lower-bound-bytes").value()));
    String ratio = rows.get("peak-over-lower-bound").value();
    if (ratio.isEmpty()) {
      assertThat(j.get("ratio").isNull()).isTrue();
    } else {
      assertThat(j.get("ratio").asDouble()).isEqualTo(Double.parseDouble(ratio));
    }
    return j;
  }
}
