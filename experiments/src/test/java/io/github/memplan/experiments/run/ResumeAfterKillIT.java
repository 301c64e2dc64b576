package io.github.memplan.experiments.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.experiments.cli.Main;
import io.github.memplan.experiments.measure.RunStatus;
import io.github.memplan.experiments.store.ResultRow;
import io.github.memplan.experiments.store.ResultsFile;
import io.github.memplan.experiments.suite.Suite;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real kill: {@code memplan run} in a child JVM is killed ({@code destroyForcibly}) once some
 * runs are in results.csv, then restarted with {@code --resume}; the result equals an uninterrupted
 * run's, timing aside, with every run exactly once.
 */
class ResumeAfterKillIT {
  private static final int RUNS = 16;

  @TempDir Path dir;

  private Process start(Path suite, Path out, boolean resume) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd =
        new java.util.ArrayList<>(
            List.of(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "run",
                suite.toString(),
                "--out",
                out.toString(),
                "--jobs",
                "1"));
    if (resume) {
      cmd.add("--resume");
    }
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve(resume ? "resume.log" : "first.log").toFile())
        .start();
  }

  private static long completeRuns(Path results) throws Exception {
    if (!Files.exists(results)) {
      return 0;
    }
    return ResultsFile.read(results).stream().filter(ResultRow::isTiming).count();
  }

  /** Half the runs are test-stack in {@code mode}, each pausing 100 ms; half are naive. */
  private Suite slowSuite(String file, String mode) throws Exception {
    return SuiteRuns.suite(
        dir,
        file,
        SuiteRuns.dsaSuite(
            RUNS / 2,
            "10s",
            "{planner: test-stack, label: slow, params: {mode: " + mode + "}}",
            "naive"));
  }

  /** Starts the suite in a child JVM and returns once three runs are in results.csv. */
  private Process startAndWaitForThreeRuns(Suite s, Path out) throws Exception {
    Path results = out.resolve("results.csv");
    Process p = start(s.file(), out, false);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (completeRuns(results) < 3 && p.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(p.isAlive()).as("the child was still running when stopped").isTrue();
    return p;
  }

  /**
   * A signal, as Slurm's {@code scancel} sends: the JVM shuts down while a run is going, and the
   * run fails because of the shutdown. That failure must not be recorded (a resumed run would keep
   * it as done); the resumed run then equals an uninterrupted one.
   */
  @Test
  void aRunCaughtByASignalIsNotRecordedAndIsRedoneOnResume() throws Exception {
    Suite s = slowSuite("term.yaml", "shutdown");
    Path out = dir.resolve("out");
    Path results = out.resolve("results.csv");
    Process p = startAndWaitForThreeRuns(s, out);
    p.destroy(); // SIGTERM
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    List<ResultRow> stopped = ResultsFile.read(results);
    assertThat(stopped).noneMatch(r -> r.status() == RunStatus.ERROR);
    long before = completeRuns(results);
    assertThat(before).isBetween(3L, (long) RUNS - 1);

    Process r = start(s.file(), out, true);
    assertThat(r.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(r.exitValue()).as(Files.readString(dir.resolve("resume.log"))).isZero();
    Path clean = dir.resolve("clean");
    SuiteRuns.run(s, clean, false, Shard.ALL, 1);
    assertThat(SuiteRuns.textWithoutTiming(out)).isEqualTo(SuiteRuns.textWithoutTiming(clean));
  }

  @Test
  void aKilledRunResumesToTheUninterruptedResult() throws Exception {
    // each run pauses 100 ms, so the kill lands half-way
    Suite s = slowSuite("kill.yaml", "slow");
    Path out = dir.resolve("out");
    Path results = out.resolve("results.csv");
    Process p = startAndWaitForThreeRuns(s, out);
    p.destroyForcibly().waitFor();
    long before = completeRuns(results);
    assertThat(before).isBetween(3L, (long) RUNS - 1);

    Process r = start(s.file(), out, true);
    assertThat(r.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(r.exitValue()).as(Files.readString(dir.resolve("resume.log"))).isZero();
    assertThat(Files.readString(dir.resolve("resume.log")))
        .contains("resuming, " + before + " of " + RUNS + " runs done");

    Path clean = dir.resolve("clean");
    SuiteRuns.run(s, clean, false, Shard.ALL, 1);
    List<ResultRow> rows = ResultsFile.read(results);
    assertThat(rows.stream().filter(ResultRow::isTiming).map(ResultRow::run).distinct().count())
        .isEqualTo(RUNS);
    assertThat(rows).hasSize(RUNS * 4);
    assertThat(SuiteRuns.textWithoutTiming(out)).isEqualTo(SuiteRuns.textWithoutTiming(clean));
    assertThat(new File(out.toFile(), "manifest.json")).exists();
  }
}
