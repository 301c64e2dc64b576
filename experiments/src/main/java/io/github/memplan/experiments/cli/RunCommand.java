package io.github.memplan.experiments.cli;

import io.github.memplan.experiments.run.ReportHook;
import io.github.memplan.experiments.run.Shard;
import io.github.memplan.experiments.run.SuiteRunner;
import io.github.memplan.experiments.store.ResultColumns;
import io.github.memplan.experiments.suite.Suite;
import io.github.memplan.experiments.suite.SuiteParser;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code memplan run}: an experiment suite into results.csv, anytime.csv and manifest.json. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Run an experiment suite (YAML: problems x instances x planners x seeds, with budgets) and"
          + " write results.csv (one row per run and metric), anytime.csv and manifest.json.",
      "Every solution is checked by its validator before it is recorded; a failing run is"
          + " recorded ERROR or TIMEOUT and the suite goes on."
    },
    footer = {
      "",
      "Examples:",
      "  memplan run experiments/suites/quick.yaml --out results/quick",
      "  memplan run paper.yaml --out r/1 --shard 1/4      # then: memplan merge r/* --out r/all",
      "  memplan run paper.yaml --out r/all --resume       # after an interruption"
    })
final class RunCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "SUITE.yaml", description = "The suite file.")
  Path suiteFile;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output directory (default: results/<suite name>).")
  Path out;

  @Option(names = "--resume", description = "Complete an interrupted run in --out.")
  boolean resume;

  @Option(
      names = "--shard",
      paramLabel = "k/n",
      description = "Do only the runs whose index mod n is k-1.")
  String shard;

  @Option(
      names = "--jobs",
      paramLabel = "N",
      description = "Runs in parallel (default: the number of processors).")
  Integer jobs;

  @Option(names = "--seed", paramLabel = "S", description = "Base seed (default: the suite's).")
  Long seed;

  @Override
  public Integer call() throws IOException {
    Suite suite = SuiteParser.parse(suiteFile);
    if (seed != null) {
      suite = suite.withSeed(seed);
    }
    Shard sh = Shard.ALL;
    if (shard != null) {
      try {
        sh = Shard.parse(shard);
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
      }
    }
    int j = jobs == null ? Runtime.getRuntime().availableProcessors() : jobs;
    if (j < 1) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--jobs must be >= 1");
    }
    Path dir = out != null ? out : Path.of("results", suite.name());
    PrintStream err = System.err;
    SuiteRunner.Summary s =
        new SuiteRunner(
                suite, new SuiteRunner.Options(dir, resume, sh, j, err, System.console() != null))
            .run();
    PrintWriter pw = spec.commandLine().getOut();
    pw.println(
        "suite "
            + suite.name()
            + ": "
            + s.runs()
            + " runs"
            + (sh.n() > 1 ? " (shard " + sh + ")" : "")
            + (s.resumed() > 0 ? ", " + s.resumed() + " resumed" : ""));
    pw.println("results:  " + s.results());
    pw.println("anytime:  " + dir.resolve(ResultColumns.ANYTIME_FILE));
    pw.println("manifest: " + dir.resolve(ResultColumns.MANIFEST_FILE));
    // Reports (tables, plots) derived from results.csv are written here, once.
    ReportHook.DEFAULT.write(suite.name(), dir, s.rows(), pw);
    pw.flush();
    return Main.OK;
  }
}
