package io.github.memplan.experiments.cli;

import io.github.memplan.experiments.run.SuiteRun;
import io.github.memplan.experiments.slurm.Jobs;
import io.github.memplan.experiments.slurm.Layout;
import io.github.memplan.experiments.slurm.Scripts;
import io.github.memplan.experiments.slurm.Status;
import io.github.memplan.experiments.slurm.Tools;
import io.github.memplan.experiments.suite.Suite;
import io.github.memplan.experiments.suite.SuiteParser;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code memplan slurm}: a suite as a Slurm job array over its shards, then a merge job. */
@Command(
    name = "slurm",
    mixinStandardHelpOptions = true,
    description = {
      "Run a suite on a Slurm cluster: write DIR/slurm/array.sbatch (a job array, task i runs shard"
          + " i+1 of N into DIR/shards/<i+1> with --resume) and DIR/slurm/merge.sbatch (merges the"
          + " shards into DIR and writes the reports, after the array), copy the CLI jar into"
          + " DIR/slurm/ so that no rebuild can change it under the jobs, submit both with sbatch"
          + " and print the job ids.",
      "Then: 'memplan slurm status DIR' shows each shard's runs done and Slurm state, and"
          + " 'memplan slurm resubmit DIR' reruns the shards that failed (see docs/cluster.md)."
    },
    footer = {
      "",
      "Examples:",
      "  memplan slurm paper.yaml --out /scratch/r/paper --tasks 32 --jobs 4 \\",
      "      --partition cpu --time 4:00:00 --mem 8G --setup 'module load Java/17'",
      "  memplan slurm status /scratch/r/paper",
      "  memplan slurm resubmit /scratch/r/paper"
    })
final class SlurmCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "SUITE.yaml",
      description = "The suite file.")
  Path suiteFile;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output directory, on a file system the nodes share.")
  Path out;

  @Option(names = "--tasks", paramLabel = "N", description = "Array tasks, one shard each.")
  Integer tasks;

  @Option(
      names = "--jobs",
      paramLabel = "J",
      defaultValue = "1",
      description = "CPUs per task, and the runs each task does in parallel (default: 1).")
  int jobs;

  @Option(names = "--partition", paramLabel = "P", description = "Slurm partition.")
  String partition;

  @Option(
      names = "--time",
      paramLabel = "T",
      description = "Time limit of each task and of the merge job: minutes, or [D-]HH:MM:SS.")
  String time;

  @Option(
      names = "--mem",
      paramLabel = "M",
      description = "Memory of each task (e.g. 8G); the JVM's heap is 3/4 of it.")
  String mem;

  @Option(names = "--account", paramLabel = "A", description = "Slurm account.")
  String account;

  @Option(
      names = "--max-running",
      paramLabel = "K",
      description = "At most K tasks at once (the array's %%K).")
  Integer maxRunning;

  @Option(
      names = "--sbatch-arg",
      paramLabel = "ARG",
      description = "A further #SBATCH line for both jobs (e.g. --sbatch-arg=--qos=short).")
  List<String> sbatchArgs = new ArrayList<>();

  @Option(
      names = "--setup",
      paramLabel = "LINE",
      description =
          "A shell line the jobs run before java (e.g. --setup 'module load Java/17'); repeatable.")
  List<String> setup = new ArrayList<>();

  @Option(names = "--dry-run", description = "Write the scripts and copy the jar; submit nothing.")
  boolean dryRun;

  private final Map<String, String> env;
  private final Supplier<Jobs.Launch> launch;

  SlurmCommand() {
    this(System.getenv(), Jobs.Launch::current);
  }

  /** With Slurm's commands looked up on the PATH of {@code env}, and the given jars. */
  SlurmCommand(Map<String, String> env, Supplier<Jobs.Launch> launch) {
    this.env = env;
    this.launch = launch;
  }

  @Override
  public Integer call() throws IOException {
    if (suiteFile == null) {
      throw new ParameterException(
          spec.commandLine(),
          "no suite given (memplan slurm SUITE.yaml --out DIR --tasks N,"
              + " memplan slurm status DIR or memplan slurm resubmit DIR)");
    }
    if (out == null || tasks == null) {
      throw new ParameterException(
          spec.commandLine(), "memplan slurm SUITE.yaml needs --out DIR and --tasks N");
    }
    Suite suite = SuiteParser.parse(suiteFile);
    int runs = SuiteRun.expand(suite).size();
    Scripts.Settings s =
        new Scripts.Settings(
            suiteFile.toAbsolutePath().normalize(),
            suite.name(),
            runs,
            tasks,
            jobs,
            partition,
            time,
            mem,
            account,
            maxRunning,
            sbatchArgs,
            setup);
    PrintWriter pw = spec.commandLine().getOut();
    new Jobs(new Tools(env), pw).submit(s, new Layout(out), launch.get(), dryRun);
    pw.flush();
    return Main.OK;
  }

  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description = {
        "Per shard of a memplan slurm directory: the runs done of the runs expected, the Slurm"
            + " state of its task (squeue, and sacct where accounting works), and the failed"
            + " shards."
      })
  int status(@Parameters(paramLabel = "DIR", description = "The --out of memplan slurm.") Path dir)
      throws IOException {
    Layout l = new Layout(dir);
    Status.Report r = Status.of(l, new Tools(env));
    PrintWriter pw = spec.commandLine().getOut();
    Status.render(r, l).forEach(pw::println);
    pw.flush();
    return Main.OK;
  }

  @Command(
      name = "resubmit",
      mixinStandardHelpOptions = true,
      description = {
        "Resubmit the shards of a memplan slurm directory that are not done and no longer queued"
            + " or running (failed, cancelled, timed out), as one array with --resume, and a merge"
            + " job after them; the old merge job is cancelled.",
        "--time, --partition and --sbatch-arg override the scripts' #SBATCH lines for the new"
            + " jobs (e.g. a longer --time after a TIMEOUT)."
      })
  int resubmit(
      @Parameters(paramLabel = "DIR", description = "The --out of memplan slurm.") Path dir,
      @Option(names = "--time", paramLabel = "T", description = "Time limit of the new jobs.")
          String newTime,
      @Option(names = "--partition", paramLabel = "P", description = "Partition of the new jobs.")
          String newPartition,
      @Option(
              names = "--sbatch-arg",
              paramLabel = "ARG",
              description = "A further sbatch option for the new jobs.")
          List<String> newArgs)
      throws IOException {
    List<String> extra = new ArrayList<>();
    List<String> args = newArgs == null ? List.of() : newArgs;
    Scripts.validate(newPartition, newTime, args);
    if (newTime != null) {
      extra.add("--time=" + newTime);
    }
    if (newPartition != null) {
      extra.add("--partition=" + newPartition);
    }
    extra.addAll(args);
    PrintWriter pw = spec.commandLine().getOut();
    new Jobs(new Tools(env), pw).resubmit(new Layout(dir), extra);
    pw.flush();
    return Main.OK;
  }
}
