package io.github.memplan.experiments.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.solve.Direction;
import io.github.memplan.experiments.measure.RunStatus;
import io.github.memplan.experiments.store.ResultRow;
import io.github.memplan.experiments.store.ResultsFile;
import io.github.memplan.experiments.suite.Suite;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuiteRunnerTest {
  @TempDir Path dir;

  @Test
  void aTinySuiteGivesOneRowPerMetricThenTimingInSuiteOrder() throws Exception {
    Suite s =
        SuiteRuns.suite(
            dir,
            "tiny.yaml",
            SuiteRuns.dsaSuite(2, "10s", "naive", "{planner: test-stack, label: stack}")
                + "    metrics: [peak-bytes, lower-bound-bytes]\nreplicates: 2\n");
    SuiteRunner.Summary sum = SuiteRuns.run(s, dir.resolve("out"), false, Shard.ALL, 2);
    assertThat(sum.runs()).isEqualTo(8);
    List<ResultRow> rows = sum.rows();
    assertThat(rows).hasSize(8 * 3);
    assertThat(rows).extracting(ResultRow::run).isSorted();
    ResultRow first = rows.get(0);
    assertThat(first.instance()).isEqualTo("gen-20-s1");
    assertThat(first.planner()).isEqualTo("naive");
    assertThat(first.metric()).isEqualTo("peak-bytes");
    assertThat(first.direction()).isEqualTo(Direction.LOWER_IS_BETTER);
    assertThat(first.value()).matches("\\d+");
    assertThat(rows.get(1).metric()).isEqualTo("lower-bound-bytes");
    assertThat(rows.get(1).direction()).isEqualTo(Direction.HIGHER_IS_BETTER);
    assertThat(rows.get(2).isTiming()).isTrue();
    // replicates: seed = base + replicate
    assertThat(rows.get(3).seed()).isEqualTo(1);
    assertThat(rows.get(3).replicate()).isEqualTo(1);
    assertThat(rows.get(6).planner()).isEqualTo("stack");
    assertThat(rows.get(6).params()).isEqualTo("mode=stack");
    assertThat(Files.readString(dir.resolve("out/manifest.json")))
        .contains("\"suite\" : \"t\"", "\"cores\"", "\"runs\" : 8", "gen-20-s2");
  }

  @Test
  void aThrowingPlannerAndAnInvalidSolutionAreErrorsAndTheSuiteGoesOn() throws Exception {
    Suite s =
        SuiteRuns.suite(
            dir,
            "err.yaml",
            SuiteRuns.dsaSuite(
                1,
                "10s",
                "{planner: test-stack, label: thrower, params: {mode: throw}}",
                "{planner: test-stack, label: overlapper, params: {mode: overlap}}",
                "{planner: test-stack, label: oom, params: {mode: oom}}",
                "naive"));
    List<ResultRow> rows = SuiteRuns.run(s, dir.resolve("out"), false, Shard.ALL, 1).rows();
    assertThat(rows)
        .filteredOn(r -> r.planner().equals("thrower"))
        .allSatisfy(
            r -> {
              assertThat(r.status()).isEqualTo(RunStatus.ERROR);
              assertThat(r.message()).isEqualTo("IllegalStateException: deliberate exception");
            })
        .filteredOn(r -> !r.isTiming())
        .allSatisfy(r -> assertThat(r.value()).isEmpty());
    assertThat(rows)
        .filteredOn(r -> r.planner().equals("oom"))
        .allSatisfy(
            r -> {
              assertThat(r.status()).isEqualTo(RunStatus.ERROR);
              assertThat(r.message())
                  .isEqualTo("ran out of memory (OutOfMemoryError: Java heap space)");
            });
    assertThat(rows)
        .filteredOn(r -> r.planner().equals("overlapper"))
        .allSatisfy(
            r -> {
              assertThat(r.status()).isEqualTo(RunStatus.ERROR);
              assertThat(r.message()).startsWith("invalid solution: ");
            });
    assertThat(rows)
        .filteredOn(r -> r.planner().equals("naive"))
        .allSatisfy(r -> assertThat(r.status()).isIn(RunStatus.FEASIBLE, RunStatus.OPTIMAL));
  }

  @Test
  void aPlannerIgnoringItsBudgetIsCancelledAndRecordedTimeout() throws Exception {
    Suite s =
        SuiteRuns.suite(
            dir,
            "stall.yaml",
            SuiteRuns.dsaSuite(
                1,
                "100ms",
                "{planner: test-stack, label: staller, params: {mode: stall}}",
                "naive"));
    List<ResultRow> rows = SuiteRuns.run(s, dir.resolve("out"), false, Shard.ALL, 1).rows();
    assertThat(rows)
        .filteredOn(r -> r.planner().equals("staller"))
        .allSatisfy(
            r -> {
              assertThat(r.status()).isEqualTo(RunStatus.TIMEOUT);
              assertThat(r.message()).contains("past its time limit of 100 ms");
            });
    assertThat(rows)
        .filteredOn(r -> r.planner().equals("naive"))
        .allSatisfy(r -> assertThat(r.status()).isIn(RunStatus.FEASIBLE, RunStatus.OPTIMAL));
  }

  @Test
  void twoRunsWithTheSameSeedsGiveTheSameBytesTimingAside() throws Exception {
    // no time limit: the search planners stop on their own, so the result cannot depend on speed
    String yaml =
        SuiteRuns.dsaSuite(3, "none", "naive", "tvm-hill-climb", "timefold")
            + "seed: 5\nreplicates: 2\n";
    Suite s = SuiteRuns.suite(dir, "det.yaml", yaml);
    SuiteRuns.run(s, dir.resolve("a"), false, Shard.ALL, 3);
    SuiteRuns.run(s, dir.resolve("b"), false, Shard.ALL, 1);
    assertThat(SuiteRuns.textWithoutTiming(dir.resolve("a")))
        .isEqualTo(SuiteRuns.textWithoutTiming(dir.resolve("b")))
        .contains("tvm-hill-climb");
  }

  @Test
  void shardsMergedEqualTheUnshardedRun() throws Exception {
    Suite s = SuiteRuns.suite(dir, "sh.yaml", SuiteRuns.dsaSuite(3, "10s", "naive", "tflm"));
    SuiteRuns.run(s, dir.resolve("all"), false, Shard.ALL, 2);
    SuiteRuns.run(s, dir.resolve("s1"), false, new Shard(1, 2), 2);
    SuiteRuns.run(s, dir.resolve("s2"), false, new Shard(2, 2), 2);
    assertThat(SuiteRuns.rowsWithoutTiming(dir.resolve("s1"))).hasSize(3 * 3);
    // a shard given twice is deduplicated
    Merge.merge(List.of(dir.resolve("s2"), dir.resolve("s1"), dir.resolve("s2")), dir.resolve("m"));
    assertThat(SuiteRuns.textWithoutTiming(dir.resolve("m")))
        .isEqualTo(SuiteRuns.textWithoutTiming(dir.resolve("all")));
    assertThat(Files.readString(dir.resolve("m/manifest.json"))).contains("mergedFrom");
  }

  @Test
  void mergeNamesTheRunsMissingFromTheExpansionAndCanRequireThem() throws Exception {
    Suite s = SuiteRuns.suite(dir, "m.yaml", SuiteRuns.dsaSuite(3, "10s", "naive", "tflm"));
    SuiteRuns.run(s, dir.resolve("s1"), false, new Shard(1, 3), 1);
    SuiteRuns.run(s, dir.resolve("s3"), false, new Shard(3, 3), 1);
    List<Path> two = List.of(dir.resolve("s1"), dir.resolve("s3"));
    Merge.Result r = Merge.merge(two, dir.resolve("m"), false);
    assertThat(r.expected()).isEqualTo(6);
    // shard 2/3 holds runs 1 and 4: (instance 1, tflm) and (instance 3, naive)
    assertThat(r.missing())
        .containsExactly("run 1 (dsa gen-20-s1 tflm seed 0)", "run 4 (dsa gen-20-s3 naive seed 0)");
    assertThat(r.describeMissing()).startsWith("2 of 6 runs missing: run 1 (");
    assertThat(SuiteRuns.rowsWithoutTiming(dir.resolve("m"))).hasSize(4 * 3);
    assertThatThrownBy(() -> Merge.merge(two, dir.resolve("m2"), true))
        .hasMessage(
            "incomplete: 2 of 6 runs missing: run 1 (dsa gen-20-s1 tflm seed 0),"
                + " run 4 (dsa gen-20-s3 naive seed 0)");
    assertThat(dir.resolve("m2")).doesNotExist();
    SuiteRuns.run(s, dir.resolve("s2"), false, new Shard(2, 3), 1);
    Merge.Result all =
        Merge.merge(
            List.of(dir.resolve("s1"), dir.resolve("s2"), dir.resolve("s3")),
            dir.resolve("m3"),
            true);
    assertThat(all.missing()).isEmpty();
  }

  @Test
  void mergingConflictingRowsFails() throws Exception {
    Suite s = SuiteRuns.suite(dir, "c.yaml", SuiteRuns.dsaSuite(1, "10s", "naive"));
    SuiteRuns.run(s, dir.resolve("a"), false, Shard.ALL, 1);
    SuiteRuns.run(s, dir.resolve("b"), false, Shard.ALL, 1);
    Path f = dir.resolve("b/results.csv");
    List<ResultRow> rows = new ArrayList<>(ResultsFile.read(f));
    ResultRow r = rows.get(0);
    rows.set(
        0,
        new ResultRow(
            r.suite(),
            r.problem(),
            r.instance(),
            r.planner(),
            r.params(),
            r.seed(),
            r.replicate(),
            r.status(),
            r.metric(),
            "1",
            r.unit(),
            r.direction(),
            r.run(),
            r.message()));
    ResultsFile.write(f, rows);
    assertThatThrownBy(() -> Merge.merge(List.of(dir.resolve("a"), dir.resolve("b")), dir))
        .hasMessageContaining("run 0")
        .hasMessageContaining("differs between");
  }

  @Test
  void resumeRedoesOnlyMissingRunsAndDropsATornLine() throws Exception {
    Suite s = SuiteRuns.suite(dir, "r.yaml", SuiteRuns.dsaSuite(3, "10s", "naive", "tflm"));
    Path full = dir.resolve("full");
    SuiteRuns.run(s, full, false, Shard.ALL, 1);
    Path part = dir.resolve("part");
    Files.createDirectories(part);
    List<String> lines = Files.readAllLines(full.resolve("results.csv"));
    // the header and the first two runs (4 rows each), then half a line of the third
    String kept = String.join("\n", lines.subList(0, 1 + 8)) + "\n" + lines.get(9).substring(0, 10);
    Files.writeString(part.resolve("results.csv"), kept, StandardCharsets.UTF_8);
    assertThatThrownBy(() -> SuiteRuns.run(s, part, false, Shard.ALL, 1))
        .hasMessageContaining("already exists");
    SuiteRunner.Summary sum = SuiteRuns.run(s, part, true, Shard.ALL, 2);
    assertThat(sum.resumed()).isEqualTo(2);
    assertThat(SuiteRuns.textWithoutTiming(part)).isEqualTo(SuiteRuns.textWithoutTiming(full));
  }
}
