package io.github.memplan.experiments.slurm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two job scripts of {@code memplan slurm}: {@code array.sbatch}, a job array whose task {@code
 * i} runs shard {@code i+1} of the suite into its own folder with {@code --resume}, and {@code
 * merge.sbatch}, which merges the shards (and so writes the reports) once the array is done. Both
 * call {@code java} on the copied CLI jar, never the launcher, which rebuilds the jar when a source
 * is newer. The text depends only on the settings and the paths: no dates, no host names.
 */
public final class Scripts {
  private Scripts() {}

  /** The CLI's main class. */
  public static final String MAIN = "io.github.memplan.experiments.cli.Main";

  /**
   * What the jobs ask Slurm for and run.
   *
   * @param suite the suite file, absolute
   * @param name the suite's name
   * @param runs the runs of the suite's expansion
   * @param tasks the array tasks, one shard each
   * @param jobs the CPUs of each task, and the runs it does in parallel
   * @param partition {@code --partition}, or null
   * @param time {@code --time} of each task and of the merge job, or null
   * @param mem {@code --mem} of each task and of the merge job, or null; the JVM's heap is 3/4 of
   *     it
   * @param account {@code --account}, or null
   * @param maxRunning the array's {@code %K}: at most this many tasks at once, or null
   * @param sbatchArgs further {@code #SBATCH} lines (e.g. {@code --qos=short})
   * @param setup shell lines the jobs run before {@code java} (e.g. {@code module load Java/17})
   */
  public record Settings(
      Path suite,
      String name,
      int runs,
      int tasks,
      int jobs,
      String partition,
      String time,
      String mem,
      String account,
      Integer maxRunning,
      List<String> sbatchArgs,
      List<String> setup) {
    public Settings {
      sbatchArgs = List.copyOf(sbatchArgs);
      setup = List.copyOf(setup);
    }

    /**
     * Checks the settings that need no Slurm to check.
     *
     * @throws IllegalArgumentException naming the first bad one
     */
    public void validate() {
      if (tasks < 1) {
        throw new IllegalArgumentException("--tasks must be >= 1, not " + tasks);
      }
      if (tasks > runs) {
        throw new IllegalArgumentException(
            "--tasks " + tasks + " is more than the " + runs + " runs of the suite");
      }
      if (jobs < 1) {
        throw new IllegalArgumentException("--jobs must be >= 1, not " + jobs);
      }
      if (maxRunning != null && maxRunning < 1) {
        throw new IllegalArgumentException("--max-running must be >= 1, not " + maxRunning);
      }
      if (account != null && !NAME.matcher(account).matches()) {
        throw new IllegalArgumentException("--account: not an account name: '" + account + "'");
      }
      if (mem != null && !MEM.matcher(mem).matches()) {
        throw new IllegalArgumentException(
            "--mem must be a size with an optional K, M, G or T (e.g. 8G), not '" + mem + "'");
      }
      Scripts.validate(partition, time, sbatchArgs);
    }
  }

  private static final Pattern TIME =
      Pattern.compile("(?i)(\\d+(-\\d+)?(:\\d+){0,2}|unlimited|infinite)");
  private static final Pattern MEM = Pattern.compile("(?i)(\\d+)([kmgt]?)");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.+-]+");

  /**
   * Checks the options that {@code memplan slurm resubmit} takes too.
   *
   * @throws IllegalArgumentException naming the first bad one
   */
  public static void validate(String partition, String time, List<String> sbatchArgs) {
    if (partition != null && !partition.matches(NAME + "(," + NAME + ")*")) {
      throw new IllegalArgumentException("--partition: not a partition name: '" + partition + "'");
    }
    if (time != null && !TIME.matcher(time).matches()) {
      throw new IllegalArgumentException(
          "--time must be minutes, [D-]HH:MM:SS or the like (e.g. 90, 2:00:00, 1-12), not '"
              + time
              + "'");
    }
    for (String a : sbatchArgs) {
      if (!a.startsWith("-") || a.contains("\n")) {
        throw new IllegalArgumentException(
            "--sbatch-arg must be one sbatch option (e.g. --qos=short), not '" + a + "'");
      }
    }
  }

  /** The JVM's maximum heap for {@code --mem}: 3/4 of it in MiB, at least 64 MiB. */
  static String heap(String mem) {
    Matcher m = MEM.matcher(mem);
    if (!m.matches()) {
      throw new IllegalArgumentException("--mem: " + mem);
    }
    long n = Long.parseLong(m.group(1));
    long mib =
        switch (m.group(2).toUpperCase(Locale.ROOT)) {
          case "K" -> n / 1024;
          case "G" -> n * 1024;
          case "T" -> n * 1024 * 1024;
          default -> n;
        };
    return "-Xmx" + Math.max(64, mib * 3 / 4) + "m";
  }

  /** The job array: task {@code i} runs shard {@code i+1} into {@code DIR/shards/<i+1>}. */
  public static String array(Settings s, Layout l) {
    List<String> lines = new ArrayList<>();
    lines.add("#!/bin/bash");
    lines.add(
        "# memplan slurm: suite "
            + s.name()
            + ", "
            + s.runs()
            + " runs in "
            + s.tasks()
            + " shards; array task i runs shard i+1 into "
            + l.shards()
            + "/<i+1>.");
    lines.add(
        "# Written by memplan slurm; rerun the unfinished shards with: memplan slurm resubmit "
            + l.out());
    lines.add("#SBATCH --job-name=memplan-" + s.name());
    lines.add(
        "#SBATCH --array=0-"
            + (s.tasks() - 1)
            + (s.maxRunning() == null ? "" : "%" + s.maxRunning()));
    lines.add("#SBATCH --ntasks=1");
    lines.add("#SBATCH --cpus-per-task=" + s.jobs());
    lines.add("#SBATCH --output=" + l.logs().resolve("shard-%a.log"));
    lines.add("#SBATCH --open-mode=append");
    resources(s, lines);
    lines.add("set -euo pipefail");
    prologue(s, lines);
    lines.add("shard=$((SLURM_ARRAY_TASK_ID + 1))");
    lines.add(
        "echo \"memplan slurm: shard $shard/"
            + s.tasks()
            + " on $(hostname), job ${SLURM_ARRAY_JOB_ID:-?}_${SLURM_ARRAY_TASK_ID}\" >&2");
    lines.add(java(s, l) + " \\");
    lines.add(
        "  run "
            + quote(s.suite().toString())
            + " --out "
            + quote(l.shards() + "/")
            + "\"$shard\" --shard \"$shard/"
            + s.tasks()
            + "\" --resume \\");
    lines.add("  --jobs \"${SLURM_CPUS_PER_TASK:-" + s.jobs() + "}\"");
    return String.join("\n", lines) + "\n";
  }

  /** The merge job: every shard into {@code DIR}, then the reports; run after the array. */
  public static String merge(Settings s, Layout l) {
    List<String> lines = new ArrayList<>();
    lines.add("#!/bin/bash");
    lines.add(
        "# memplan slurm: merges the "
            + s.tasks()
            + " shards of suite "
            + s.name()
            + " into "
            + l.out()
            + " and writes the reports.");
    lines.add(
        "# Submitted with --dependency=afterok on the array; fails when a run of the suite is"
            + " missing.");
    lines.add("#SBATCH --job-name=memplan-" + s.name() + "-merge");
    lines.add("#SBATCH --ntasks=1");
    lines.add("#SBATCH --cpus-per-task=1");
    lines.add("#SBATCH --output=" + l.logs().resolve("merge.log"));
    lines.add("#SBATCH --open-mode=append");
    resources(s, lines);
    lines.add("set -euo pipefail");
    prologue(s, lines);
    lines.add("shards=()");
    lines.add(
        "for k in $(seq 1 "
            + s.tasks()
            + "); do shards+=("
            + quote(l.shards() + "/")
            + "\"$k\"); done");
    lines.add(java(s, l) + " \\");
    lines.add(
        "  merge \"${shards[@]}\" --out " + quote(l.out().toString()) + " --require-complete");
    return String.join("\n", lines) + "\n";
  }

  private static void resources(Settings s, List<String> lines) {
    if (s.partition() != null) {
      lines.add("#SBATCH --partition=" + s.partition());
    }
    if (s.time() != null) {
      lines.add("#SBATCH --time=" + s.time());
    }
    if (s.mem() != null) {
      lines.add("#SBATCH --mem=" + s.mem());
    }
    if (s.account() != null) {
      lines.add("#SBATCH --account=" + s.account());
    }
    for (String a : s.sbatchArgs()) {
      lines.add("#SBATCH " + a);
    }
  }

  private static void prologue(Settings s, List<String> lines) {
    lines.addAll(s.setup());
    lines.add("if ! command -v java >/dev/null 2>&1; then");
    lines.add(
        "  echo \"memplan slurm: java not found on $(hostname); load Java 17 with"
            + " memplan slurm --setup 'module load ...'\" >&2");
    lines.add("  exit 1");
    lines.add("fi");
  }

  private static String java(Settings s, Layout l) {
    return "exec java"
        + (s.mem() == null ? "" : " " + heap(s.mem()))
        + " -cp \"$(cat "
        + quote(l.classpath().toString())
        + ")\" "
        + MAIN;
  }

  /** {@code text} as one single-quoted shell word. */
  static String quote(String text) {
    if (text.matches("[A-Za-z0-9_./=:,+@%-]+")) {
      return text;
    }
    return "'" + text.replace("'", "'\\''") + "'";
  }
}
