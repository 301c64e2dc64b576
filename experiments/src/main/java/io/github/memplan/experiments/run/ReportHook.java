package io.github.memplan.experiments.run;

import io.github.memplan.experiments.suite.Suite;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * What runs after a suite's results are complete: reports (tables, plots) derived from results.csv.
 * {@code memplan run} and {@code memplan merge} call {@link #DEFAULT} once, after results.csv,
 * anytime.csv and manifest.json are final.
 */
@FunctionalInterface
public interface ReportHook {
  /** Writes no report. */
  ReportHook NONE = (suiteName, dir, out) -> {};

  /** The hook the CLI calls; reports are wired here. */
  ReportHook DEFAULT = NONE;

  /**
   * Writes the reports of the results in {@code dir}.
   *
   * @param suiteName the suite's name ({@link Suite#name})
   * @param dir the directory holding results.csv, anytime.csv and manifest.json
   * @param out where to say which files were written
   */
  void write(String suiteName, Path dir, PrintWriter out) throws IOException;
}
