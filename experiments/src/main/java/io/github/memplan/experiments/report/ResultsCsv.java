package io.github.memplan.experiments.report;

import io.github.memplan.core.solve.Direction;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvReadOptions;

/**
 * Reads DESIGN.md's long-format results CSV ({@code suite, problem, instance, planner, params,
 * seed, replicate, status, metric, value, unit, direction}) into a Tablesaw table and then into
 * {@link ResultRow}s. Every column is read as text except {@code value}.
 */
final class ResultsCsv {
  static final List<String> COLUMNS =
      List.of(
          "suite",
          "problem",
          "instance",
          "planner",
          "params",
          "seed",
          "replicate",
          "status",
          "metric",
          "value",
          "unit",
          "direction");

  private ResultsCsv() {}

  static Table read(Path file) {
    try {
      CsvReadOptions options =
          CsvReadOptions.builder(file.toFile())
              .columnTypes(name -> name.equals("value") ? ColumnType.DOUBLE : ColumnType.STRING)
              .missingValueIndicator("")
              .build();
      Table t = Table.read().usingOptions(options);
      for (String c : COLUMNS) {
        if (!t.columnNames().contains(c)) {
          throw new IllegalArgumentException(file + ": missing column '" + c + "'");
        }
      }
      return t;
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (UncheckedIOException e) {
      throw new UncheckedIOException(file + ": " + e.getMessage(), e.getCause());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  static List<ResultRow> rows(Table t, Path file) {
    List<ResultRow> out = new ArrayList<>();
    int line = 1;
    for (Row r : t) {
      line++;
      String params = r.getString("params");
      String planner = r.getString("planner");
      String label = params == null || params.isBlank() ? planner : planner + " " + params;
      String dir = r.getString("direction").trim().toLowerCase(Locale.ROOT);
      Direction direction =
          switch (dir) {
            case "lower" -> Direction.LOWER_IS_BETTER;
            case "higher" -> Direction.HIGHER_IS_BETTER;
            default ->
                throw new IllegalArgumentException(
                    file
                        + ":"
                        + line
                        + ": direction '"
                        + dir
                        + "' of metric '"
                        + r.getString("metric")
                        + "' is neither lower nor higher");
          };
      double v = r.isMissing("value") ? Double.NaN : r.getDouble("value");
      out.add(
          new ResultRow(
              r.getString("problem"),
              r.getString("instance"),
              label,
              r.getString("replicate"),
              r.getString("status"),
              r.getString("metric"),
              v,
              r.getString("unit"),
              direction));
    }
    return out;
  }
}
