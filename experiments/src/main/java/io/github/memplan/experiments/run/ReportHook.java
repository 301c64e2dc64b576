package io.github.memplan.experiments.run;

import io.github.memplan.experiments.report.Reports;
import io.github.memplan.experiments.store.ResultRow;
import io.github.memplan.experiments.suite.Suite;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * What runs after a suite's results are complete: reports (tables, plots) derived from results.csv.
 * {@code memplan run} and {@code memplan merge} call {@link #DEFAULT} once, after results.csv,
 * anytime.csv and manifest.json are final.
 */
@FunctionalInterface
public interface ReportHook {
  /** Writes no report. */
  ReportHook NONE = (suiteName, dir, rows, out) -> {};

  /**
   * The hook the CLI calls: {@link Reports#write} with its defaults (report.md, report.tex,
   * report.csv and plots), each file written named on {@code out}, then the console's summary
   * ({@link Reports#console}) after a blank line.
   */
  ReportHook DEFAULT =
      (suiteName, dir, rows, out) -> {
        for (Path p : Reports.write(dir, rows, Reports.Options.defaults())) {
          out.println("report:   " + p);
        }
        out.println();
        out.print(Reports.console(rows));
      };

  /**
   * Writes the reports of the results in {@code dir}.
   *
   * @param suiteName the suite's name ({@link Suite#name})
   * @param dir the directory holding results.csv, anytime.csv and manifest.json
   * @param rows the rows of results.csv, in run order
   * @param out where to say which files were written
   */
  void write(String suiteName, Path dir, List<ResultRow> rows, PrintWriter out) throws IOException;
}
