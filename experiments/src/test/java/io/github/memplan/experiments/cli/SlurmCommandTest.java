package io.github.memplan.experiments.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.experiments.run.Shard;
import io.github.memplan.experiments.run.SuiteRunner;
import io.github.memplan.experiments.slurm.Jobs;
import io.github.memplan.experiments.store.ResultRow;
import io.github.memplan.experiments.store.ResultsFile;
import io.github.memplan.experiments.suite.SuiteParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * memplan slurm in-process, with fake sbatch, squeue, sinfo and scancel on a PATH of their own
 * (shell scripts of builtins only, which log their arguments), and a fake CLI jar.
 */
class SlurmCommandTest {
  @TempDir Path dir;
  Path bin;
  Path log;
  Path suite;
  Path jar;
  Path lib;
  Path out;

  /** 5 generated instances x 2 planners: 10 runs, a second or so. */
  static final String SUITE =
      """
      suite: tiny
      budget: {time-limit: 10s}
      problems:
        - problem: dsa
          instances:
            - {generate: 20, seed: 1}
            - {generate: 20, seed: 2}
            - {generate: 20, seed: 3}
            - {generate: 20, seed: 4}
            - {generate: 20, seed: 5}
          planners: [naive, tflm]
      """;

  @BeforeEach
  void setUp() throws IOException {
    bin = Files.createDirectories(dir.resolve("bin"));
    log = dir.resolve("calls.log");
    suite = dir.resolve("tiny.yaml");
    Files.writeString(suite, SUITE);
    jar = dir.resolve("memplan-experiments-cli.jar");
    Files.writeString(jar, "not really a jar");
    lib = dir.resolve("models.jar");
    Files.writeString(lib, "");
    out = dir.resolve("out");
  }

  record Run(int code, String out, String err) {}

  Run slurm(String... args) {
    SlurmCommand cmd =
        new SlurmCommand(Map.of("PATH", bin.toString()), () -> new Jobs.Launch(jar, List.of(lib)));
    CommandLine cl = new CommandLine(cmd);
    cl.setParameterExceptionHandler(new Main.UsageErrors());
    cl.setExecutionExceptionHandler(new Main.RunErrors());
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    cl.setOut(new PrintWriter(o));
    cl.setErr(new PrintWriter(e));
    int code = cl.execute(args);
    return new Run(code, o.toString(), e.toString());
  }

  /** A fake tool: logs "NAME ARGS" to calls.log, then runs {@code body} (sh builtins only). */
  void fake(String name, String body) throws IOException {
    Path f = bin.resolve(name);
    Files.writeString(f, "#!/bin/sh\necho \"" + name + " $*\" >> '" + log + "'\n" + body + "\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** A fake whose calls count from {@code first}: {@code body} sees the count as $id. */
  void fakeCounting(String name, int first, String body) throws IOException {
    Path n = dir.resolve(name + ".count");
    Files.writeString(n, first + "\n");
    fake(name, "read id < '" + n + "'\necho $((id + 1)) > '" + n + "'\n" + body);
  }

  /** sbatch that prints job ids 41, 42, ... (the first with a cluster name, as --parsable may). */
  void fakeSbatch() throws IOException {
    fakeCounting(
        "sbatch", 41, "if [ \"$id\" = 41 ]; then echo \"$id;local\"; else echo \"$id\"; fi");
  }

  List<String> calls() throws IOException {
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  String[] submitArgs(String... more) {
    List<String> a = new ArrayList<>(List.of(suite.toString(), "--out", out.toString()));
    a.addAll(List.of(more));
    return a.toArray(String[]::new);
  }

  @Test
  void dryRunWritesTheScriptsAndCopiesTheJarWithoutSlurm() throws IOException {
    Run r =
        slurm(
            submitArgs(
                "--tasks",
                "3",
                "--jobs",
                "2",
                "--partition",
                "cpu",
                "--time",
                "1:30:00",
                "--mem",
                "4G",
                "--account",
                "lab",
                "--max-running",
                "2",
                "--sbatch-arg=--qos=short",
                "--setup",
                "module load Java/17",
                "--dry-run"));
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    Path s = out.resolve("slurm");
    assertThat(r.out())
        .isEqualTo(
            String.join(
                "\n",
                "suite tiny: 10 runs in 3 shards of 3 to 4 runs",
                "jar:      " + s.resolve("memplan.jar"),
                "array:    " + s.resolve("array.sbatch"),
                "merge:    " + s.resolve("merge.sbatch"),
                "dry run: nothing submitted; to submit by hand:",
                "  sbatch --parsable " + s.resolve("array.sbatch"),
                "  sbatch --parsable --dependency=afterok:<array job> " + s.resolve("merge.sbatch"),
                ""));
    String prologue =
        String.join(
            "\n",
            "#SBATCH --partition=cpu",
            "#SBATCH --time=1:30:00",
            "#SBATCH --mem=4G",
            "#SBATCH --account=lab",
            "#SBATCH --qos=short",
            "set -euo pipefail",
            "module load Java/17",
            "if ! command -v java >/dev/null 2>&1; then",
            "  echo \"memplan slurm: java not found on $(hostname); load Java 17 with memplan slurm"
                + " --setup 'module load ...'\" >&2",
            "  exit 1",
            "fi",
            "");
    String java =
        "exec java -Xmx3072m -cp \"$(cat "
            + s.resolve("classpath.txt")
            + ")\" io.github.memplan.experiments.cli.Main \\\n";
    assertThat(Files.readString(s.resolve("array.sbatch")))
        .isEqualTo(
            "#!/bin/bash\n"
                + "# memplan slurm: suite tiny, 10 runs in 3 shards; array task i runs shard i+1"
                + " into "
                + out.resolve("shards")
                + "/<i+1>.\n"
                + "# Written by memplan slurm; rerun the unfinished shards with: memplan slurm"
                + " resubmit "
                + out
                + "\n"
                + "#SBATCH --job-name=memplan-tiny\n"
                + "#SBATCH --array=0-2%2\n"
                + "#SBATCH --ntasks=1\n"
                + "#SBATCH --cpus-per-task=2\n"
                + "#SBATCH --output="
                + s.resolve("logs/shard-%a.log")
                + "\n#SBATCH --open-mode=append\n"
                + prologue
                + "shard=$((SLURM_ARRAY_TASK_ID + 1))\n"
                + "echo \"memplan slurm: shard $shard/3 on $(hostname), job"
                + " ${SLURM_ARRAY_JOB_ID:-?}_${SLURM_ARRAY_TASK_ID}\" >&2\n"
                + java
                + "  run "
                + suite
                + " --out "
                + out.resolve("shards")
                + "/\"$shard\" --shard \"$shard/3\" --resume \\\n"
                + "  --jobs \"${SLURM_CPUS_PER_TASK:-2}\"\n");
    assertThat(Files.readString(s.resolve("merge.sbatch")))
        .isEqualTo(
            "#!/bin/bash\n"
                + "# memplan slurm: merges the 3 shards of suite tiny into "
                + out
                + " and writes the reports.\n"
                + "# Submitted with --dependency=afterok on the array; fails when a run of the suite"
                + " is missing.\n"
                + "#SBATCH --job-name=memplan-tiny-merge\n"
                + "#SBATCH --ntasks=1\n"
                + "#SBATCH --cpus-per-task=1\n"
                + "#SBATCH --output="
                + s.resolve("logs/merge.log")
                + "\n#SBATCH --open-mode=append\n"
                + prologue
                + "shards=()\n"
                + "for k in $(seq 1 3); do shards+=("
                + out.resolve("shards")
                + "/\"$k\"); done\n"
                + java
                + "  merge \"${shards[@]}\" --out "
                + out
                + " --require-complete\n");
    assertThat(Files.readString(s.resolve("memplan.jar"))).isEqualTo("not really a jar");
    assertThat(Files.readString(s.resolve("classpath.txt")))
        .isEqualTo(s.resolve("memplan.jar") + ":" + lib + "\n");
    assertThat(Files.readString(s.resolve("job.json")))
        .contains("\"runs\" : 10", "\"tasks\" : 3", "\"shardRuns\" : [ 4, 3, 3 ]")
        .contains("\"submissions\" : [ ]");
    assertThat(s.resolve("logs")).isDirectory();
    // a dry run leaves the directory free for the real submission
    fakeSbatch();
    assertThat(slurm(submitArgs("--tasks", "3")).code()).isZero();
  }

  @Test
  void submitsTheArrayThenTheMergeAfterItAndRecordsBoth() throws IOException {
    fakeSbatch();
    Run r = slurm(submitArgs("--tasks", "4", "--max-running", "2"));
    assertThat(r.code()).as(r.err()).isZero();
    Path s = out.resolve("slurm");
    assertThat(calls())
        .containsExactly(
            "sbatch --parsable " + s.resolve("array.sbatch"),
            "sbatch --parsable --dependency=afterok:41 " + s.resolve("merge.sbatch"));
    assertThat(r.out())
        .contains("array job 41: 4 tasks, at most 2 at once\n")
        .contains("merge job 42: after array job 41\n")
        .contains("status:   memplan slurm status " + out);
    assertThat(Files.readString(s.resolve("job.json")))
        .contains("\"array\" : \"41\"", "\"shards\" : [ 1, 2, 3, 4 ]", "\"merge\" : \"42\"");
    // once submitted, the directory is taken
    Run again = slurm(submitArgs("--tasks", "4"));
    assertThat(again.code()).isEqualTo(1);
    assertThat(again.err()).startsWith("memplan: " + out + ": already submitted (array job 41)");
  }

  @Test
  void aMergeJobThatCannotBeSubmittedCancelsTheArray() throws IOException {
    fakeCounting(
        "sbatch",
        0,
        "if [ \"$id\" = 0 ]; then echo 7; else echo 'sbatch: error: no' >&2; exit 1; fi");
    fake("scancel", "");
    Run r = slurm(submitArgs("--tasks", "2"));
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip())
        .isEqualTo(
            "memplan: the merge job was not submitted (sbatch failed: sbatch: error: no);"
                + " cancelled array job 7");
    assertThat(calls()).last().isEqualTo("scancel 7");
  }

  /** One line on stderr, exit 1, no sbatch called. */
  void badInput(Run r, String message) throws IOException {
    assertThat(r.code()).as(r.err()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("memplan: " + message + "\n");
    assertThat(r.out()).isEmpty();
    assertThat(calls()).noneMatch(c -> c.startsWith("sbatch"));
  }

  @Test
  void badInputIsOneLineAndSubmitsNothing() throws IOException {
    // no sbatch on the PATH
    badInput(
        slurm(submitArgs("--tasks", "2")),
        "sbatch not found on the PATH: memplan slurm submits with Slurm's sbatch (--dry-run writes"
            + " the scripts only)");
    assertThat(out).doesNotExist();
    fakeSbatch();
    fake("sinfo", "echo debug\necho gpu");
    badInput(
        slurm(submitArgs("--tasks", "2", "--partition", "nope")),
        "unknown partition 'nope' (sinfo lists: debug, gpu)");
    assertThat(out).doesNotExist();
    badInput(slurm(submitArgs("--tasks", "0")), "--tasks must be >= 1, not 0");
    badInput(
        slurm(submitArgs("--tasks", "11")), "--tasks 11 is more than the 10 runs of the suite");
    badInput(slurm(submitArgs("--tasks", "2", "--jobs", "0")), "--jobs must be >= 1, not 0");
    badInput(
        slurm(submitArgs("--tasks", "2", "--time", "soon")),
        "--time must be minutes, [D-]HH:MM:SS or the like (e.g. 90, 2:00:00, 1-12), not 'soon'");
    badInput(
        slurm(submitArgs("--tasks", "2", "--mem", "lots")),
        "--mem must be a size with an optional K, M, G or T (e.g. 8G), not 'lots'");
    badInput(
        slurm(submitArgs("--tasks", "2", "--sbatch-arg", "qos=short")),
        "--sbatch-arg must be one sbatch option (e.g. --qos=short), not 'qos=short'");
    badInput(
        slurm(submitArgs("--tasks", "2", "--max-running", "0")),
        "--max-running must be >= 1, not 0");
    assertThat(out).doesNotExist();
    // a known partition goes through
    assertThat(slurm(submitArgs("--tasks", "2", "--partition", "gpu")).code()).isZero();
    // missing options are bad usage (exit 2)
    Run usage = slurm(suite.toString(), "--tasks", "2");
    assertThat(usage.code()).isEqualTo(2);
    assertThat(usage.err()).startsWith("memplan: memplan slurm SUITE.yaml needs --out DIR");
  }

  /** Runs (or completes) shard k of 3 into out/shards/k, as its array task would. */
  void runShard(int k) throws Exception {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    Path shard = out.resolve("shards/" + k);
    new SuiteRunner(
            SuiteParser.parse(suite),
            new SuiteRunner.Options(shard, true, new Shard(k, 3), 1, quiet, false))
        .run();
  }

  /** Submits 3 shards (jobs 41 and 42), then runs shard 1 in full and 1 run of shard 2. */
  void threeShardsOneDoneOneHalf() throws Exception {
    fakeSbatch();
    assertThat(slurm(submitArgs("--tasks", "3")).code()).isZero();
    runShard(1);
    runShard(2);
    Path half = out.resolve("shards/2/results.csv");
    List<ResultRow> rows = ResultsFile.read(half);
    int first = rows.get(0).run();
    ResultsFile.write(half, rows.stream().filter(r -> r.run() == first).toList());
    Files.delete(log);
  }

  @Test
  void statusShowsRunsDoneAndSlurmStatesAndTheFailedShards() throws Exception {
    threeShardsOneDoneOneHalf();
    fake(
        "squeue",
        "echo '41_0|COMPLETED|None'\necho '41_1|CANCELLED|None'\necho '41_2|PENDING|Priority'\n"
            + "echo '42|PENDING|Dependency'\necho '9_1|RUNNING|None'");
    Run r = slurm("status", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .isEqualTo(
            String.join(
                "\n",
                "suite tiny: 10 runs in 3 shards, " + out + " (Slurm states: squeue)",
                "shard  runs  status  job   slurm",
                "1      4/4   done    41_0  COMPLETED",
                "2      1/3   failed  41_1  CANCELLED",
                "3      0/3   queued  41_2  PENDING (Priority)",
                "merge  0/10  queued  42    PENDING (Dependency)",
                "failed shards: 2 (rerun them with: memplan slurm resubmit " + out + ")",
                ""));
    assertThat(calls()).containsExactly("squeue -h -r -t all --me -o %i|%T|%r");
  }

  @Test
  void statusWithoutSqueueTakesSacctOrTellsItCannotKnow() throws Exception {
    threeShardsOneDoneOneHalf();
    Run none = slurm("status", out.toString());
    assertThat(none.code()).as(none.err()).isZero();
    assertThat(none.out())
        .contains("(Slurm states: none: squeue not found on the PATH)")
        .contains("2      1/3   unknown  41_1  -")
        .contains("failed shards: none\nshards of unknown state: 2, 3\n");
    Run resub = slurm("resubmit", out.toString());
    assertThat(resub.code()).isEqualTo(1);
    assertThat(resub.err())
        .isEqualTo("memplan: cannot tell which shards still run (squeue not found on the PATH)\n");
    // sacct alone will do; "CANCELLED by 0" is CANCELLED
    fake("sacct", "echo '41_1|CANCELLED by 0'\necho '41_[2]|PENDING'\necho '42|PENDING'");
    Run r = slurm("status", out.toString());
    assertThat(r.out())
        .contains("(Slurm states: sacct)")
        .contains("2      1/3   failed  41_1  CANCELLED")
        .contains("3      0/3   queued  41_2  PENDING");
    assertThat(calls()).contains("sacct -n -P -X -o JobID,State -j 41,42");
  }

  @Test
  void resubmitRerunsOnlyTheFailedShardsThenMergesAfterThemAndTheRunningOnes() throws Exception {
    threeShardsOneDoneOneHalf();
    fake(
        "squeue",
        "echo '41_1|TIMEOUT|None'\necho '41_2|RUNNING|None'\n"
            + "echo '42|PENDING|DependencyNeverSatisfied'");
    fake("scancel", "");
    Run bad = slurm("resubmit", out.toString(), "--time", "later");
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err()).startsWith("memplan: --time must be minutes");
    Run r = slurm("resubmit", out.toString(), "--time", "2:00:00");
    assertThat(r.code()).as(r.err()).isZero();
    Path s = out.resolve("slurm");
    assertThat(calls())
        .containsExactly(
            "squeue -h -r -t all --me -o %i|%T|%r",
            "sbatch --parsable --time=2:00:00 --array=1 " + s.resolve("array.sbatch"),
            "sbatch --parsable --time=2:00:00 --dependency=afterok:43:41_2 "
                + s.resolve("merge.sbatch"),
            "scancel 42");
    assertThat(r.out())
        .isEqualTo(
            String.join(
                "\n",
                "resubmitted shard 2: array job 43 (tasks 1)",
                "merge job 44: after array job 43 and task 41_2",
                "cancelled the old merge job 42",
                "status:   memplan slurm status " + out,
                ""));
    assertThat(Files.readString(s.resolve("job.json")))
        .contains("\"array\" : \"43\"", "\"shards\" : [ 2 ]", "\"merge\" : \"44\"");
    // shard 2 is now task 43_1
    fake("squeue", "echo '43_1|RUNNING|None'\necho '41_2|RUNNING|None'\necho '44|PENDING|None'");
    Run st = slurm("status", out.toString());
    assertThat(st.out()).contains("2      1/3   running  43_1  RUNNING");
    Run again = slurm("resubmit", out.toString());
    assertThat(again.out()).isEqualTo("nothing to resubmit: shards 2, 3 are queued or running\n");
  }

  @Test
  void withEveryShardDoneResubmitReplacesAStuckMergeJob() throws Exception {
    threeShardsOneDoneOneHalf();
    runShard(2);
    runShard(3);
    fake("squeue", "echo '42|PENDING|DependencyNeverSatisfied'");
    fake("scancel", "");
    Run r = slurm("resubmit", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(calls())
        .containsExactly(
            "squeue -h -r -t all --me -o %i|%T|%r",
            "sbatch --parsable " + out.resolve("slurm/merge.sbatch"), "scancel 42");
    assertThat(r.out()).startsWith("merge job 43\ncancelled the old merge job 42\n");
  }

  @Test
  void statusOfADirectoryThatIsNoneIsOneLine() {
    Run r = slurm("status", dir.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo("memplan: " + dir + ": not a memplan slurm directory (no slurm/job.json)\n");
  }
}
