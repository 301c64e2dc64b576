package io.github.memplan.experiments.cli;

import io.github.memplan.experiments.run.Merge;
import io.github.memplan.experiments.run.ReportHook;
import io.github.memplan.experiments.store.ResultColumns;
import io.github.memplan.experiments.store.ResultRow;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code memplan merge}: the union of result directories (e.g. the shards of a suite). */
@Command(
    name = "merge",
    mixinStandardHelpOptions = true,
    description = {
      "Merge result directories (the shards of one suite) into one, in run order. A run found"
          + " twice is kept once if its rows agree (timing aside); conflicting rows fail.",
      "Runs of the suite's expansion that no directory holds (an unfinished shard) are named in"
          + " a warning on stderr; with --require-complete they fail the merge."
    },
    footer = {"", "Example:", "  memplan merge r/1 r/2 r/3 r/4 --out r/all --require-complete"})
final class MergeCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "DIR", description = "Result directories.")
  List<Path> dirs;

  @Option(names = "--out", paramLabel = "DIR", required = true, description = "Output directory.")
  Path out;

  @Option(
      names = "--require-complete",
      description =
          "Fail, writing nothing, when a run of the suite is missing from the directories.")
  boolean requireComplete;

  @Override
  public Integer call() throws IOException {
    Merge.Result merged = Merge.merge(dirs, out, requireComplete);
    List<ResultRow> rows = merged.rows();
    PrintWriter err = spec.commandLine().getErr();
    if (merged.expected() < 0) {
      err.println("memplan merge: warning: no manifest.json: cannot tell whether runs are missing");
    } else if (!merged.missing().isEmpty()) {
      err.println("memplan merge: warning: " + merged.describeMissing());
    }
    err.flush();
    PrintWriter pw = spec.commandLine().getOut();
    long runs = rows.stream().filter(ResultRow::isTiming).count();
    pw.println("merged " + runs + " runs from " + dirs.size() + " directories");
    pw.println("results:  " + out.resolve(ResultColumns.RESULTS_FILE));
    String suite = rows.isEmpty() ? "" : rows.get(0).suite();
    // Reports (tables, plots) derived from results.csv are written here, once.
    ReportHook.DEFAULT.write(suite, out, rows, pw);
    pw.flush();
    return Main.OK;
  }
}
