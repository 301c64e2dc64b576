package io.github.memplan.experiments.report;

import io.github.memplan.experiments.store.ResultColumns;
import io.github.memplan.experiments.store.ResultRow;
import io.github.memplan.experiments.store.ResultsFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The single entry point of reporting: reads {@code DIR/results.csv} and writes {@code report.md},
 * {@code report.tex} and {@code report.csv} into {@code DIR}, and the figures of {@link Plots} into
 * {@code DIR/plots/}. The runner calls it at the end of {@code memplan run}; {@code memplan report
 * DIR} calls it on an existing folder.
 */
public final class Reports {
  /** The results file inside a results folder. */
  public static final String RESULTS = ResultColumns.RESULTS_FILE;

  private Reports() {}

  /** Output formats. */
  public enum Format {
    md,
    latex,
    csv,
    /** PNG and SVG figures in {@code DIR/plots/}. */
    plots
  }

  /**
   * What to report.
   *
   * @param baseline the planner label to compare against (id, then parameters if any); null for the
   *     first planner of each problem in the results
   * @param metric the metric to tabulate; null for each problem's primary metric ({@code
   *     peak-bytes}, {@code total-cycles}, else the first by name other than time and bounds)
   * @param formats the files to write
   */
  public record Options(String baseline, String metric, Set<Format> formats) {
    public Options {
      formats = formats.isEmpty() ? EnumSet.allOf(Format.class) : EnumSet.copyOf(formats);
    }

    public static Options defaults() {
      return new Options(null, null, EnumSet.allOf(Format.class));
    }
  }

  /**
   * Writes the reports of {@code dir/results.csv} ({@link ResultsFile#read}); returns the files
   * written, in a fixed order.
   */
  public static List<Path> write(Path dir, Options options) {
    Path results = dir.resolve(RESULTS);
    if (!Files.isRegularFile(results)) {
      throw new IllegalArgumentException(results + ": no such results file");
    }
    List<ResultRow> rows;
    try {
      rows = ResultsFile.read(results);
    } catch (IOException e) {
      throw new UncheckedIOException(results + ": " + e.getMessage(), e);
    }
    return write(dir, rows, options);
  }

  /**
   * Writes the reports of {@code rows}, the rows of {@code dir/results.csv}, into {@code dir};
   * returns the files written, in a fixed order.
   */
  public static List<Path> write(Path dir, List<ResultRow> rows, Options options) {
    List<ProblemReport> reports =
        ReportBuilder.build(Measurements.of(rows), options.baseline(), options.metric());
    List<Path> written = new ArrayList<>();
    for (Format f : options.formats()) {
      switch (f) {
        case md -> written.add(atomicWrite(dir.resolve("report.md"), Renderers.markdown(reports)));
        case latex -> written.add(atomicWrite(dir.resolve("report.tex"), Renderers.latex(reports)));
        case csv -> written.add(atomicWrite(dir.resolve("report.csv"), Renderers.csv(reports)));
        case plots -> written.addAll(Plots.write(dir, reports));
      }
    }
    return List.copyOf(written);
  }

  /**
   * The console's summary of {@code rows}: each problem's table of report.md (medians over
   * replicates, the status where a cell has no value, the summary rows), as aligned plain text.
   */
  public static String console(List<ResultRow> rows) {
    return Renderers.console(ReportBuilder.build(Measurements.of(rows), null, null));
  }

  static Path atomicWrite(Path file, String text) {
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      return Files.move(
          tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(file.getParent() + ": no such directory", e);
    } catch (IOException e) {
      throw new UncheckedIOException(file + ": " + e.getMessage(), e);
    }
  }
}
