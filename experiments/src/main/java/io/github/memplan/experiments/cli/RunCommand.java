package io.github.memplan.experiments.cli;

import io.github.memplan.experiments.run.ReportHook;
import io.github.memplan.experiments.run.Runner;
import io.github.memplan.experiments.run.Shard;
import io.github.memplan.experiments.store.ResultColumns;
import io.github.memplan.experiments.store.ResultRow;
import io.github.memplan.experiments.suite.Suite;
import io.github.memplan.experiments.suite.SuiteParser;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    Runner.Summary s =
        new Runner(suite, new Runner.Options(dir, resume, sh, j, err, System.console() != null))
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
    ReportHook.DEFAULT.write(suite.name(), dir, pw);
    pw.println();
    headline(s.rows(), pw);
    pw.flush();
    return Main.OK;
  }

  /**
   * Per problem, a table instance x planner of the problem's first metric (the mean over
   * replicates, or the status when no replicate has a value).
   */
  static void headline(List<ResultRow> rows, PrintWriter pw) {
    Map<String, List<ResultRow>> byProblem = new LinkedHashMap<>();
    for (ResultRow r : rows) {
      byProblem.computeIfAbsent(r.problem(), k -> new ArrayList<>()).add(r);
    }
    for (Map.Entry<String, List<ResultRow>> e : byProblem.entrySet()) {
      String metric = e.getValue().get(0).metric();
      List<String> instances = new ArrayList<>();
      List<String> planners = new ArrayList<>();
      Map<String, List<ResultRow>> cells = new LinkedHashMap<>();
      for (ResultRow r : e.getValue()) {
        if (!r.metric().equals(metric)) {
          continue;
        }
        if (!instances.contains(r.instance())) {
          instances.add(r.instance());
        }
        if (!planners.contains(r.planner())) {
          planners.add(r.planner());
        }
        cells.computeIfAbsent(r.instance() + "\0" + r.planner(), k -> new ArrayList<>()).add(r);
      }
      List<List<String>> table = new ArrayList<>();
      List<String> head = new ArrayList<>();
      head.add(e.getKey() + ": " + metric);
      head.addAll(planners);
      table.add(head);
      for (String in : instances) {
        List<String> line = new ArrayList<>();
        line.add(in);
        for (String p : planners) {
          line.add(cell(cells.getOrDefault(in + "\0" + p, List.of())));
        }
        table.add(line);
      }
      print(table, pw);
      pw.println();
    }
  }

  private static String cell(List<ResultRow> reps) {
    double sum = 0;
    int n = 0;
    for (ResultRow r : reps) {
      if (!r.value().isEmpty()) {
        sum += Double.parseDouble(r.value());
        n++;
      }
    }
    if (n == 0) {
      return reps.isEmpty() ? "" : reps.get(0).status();
    }
    return ResultRow.format(java.util.OptionalDouble.of(Math.round(sum / n * 10000) / 10000.0));
  }

  private static void print(List<List<String>> table, PrintWriter pw) {
    int cols = table.get(0).size();
    int[] w = new int[cols];
    for (List<String> row : table) {
      for (int i = 0; i < cols; i++) {
        w[i] = Math.max(w[i], row.get(i).length());
      }
    }
    for (List<String> row : table) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < cols; i++) {
        String c = row.get(i);
        sb.append(
            i == 0 ? c + " ".repeat(w[i] - c.length()) : "  " + " ".repeat(w[i] - c.length()) + c);
      }
      pw.println(sb.toString().stripTrailing());
    }
  }
}
