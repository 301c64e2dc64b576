package io.github.memplan.experiments.report;

import io.github.memplan.core.solve.Direction;
import io.github.memplan.experiments.store.ResultColumns;
import io.github.memplan.experiments.store.ResultsTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/** The {@link Measurement}s of a results.csv, read through {@link ResultsTable}. */
final class Measurements {
  private Measurements() {}

  static List<Measurement> read(Path file) {
    Table t;
    try {
      t = ResultsTable.read(file);
    } catch (IOException e) {
      throw new UncheckedIOException(file + ": " + e.getMessage(), e);
    }
    List<Measurement> out = new ArrayList<>();
    for (Row r : t) {
      // the planner column holds the suite's label, unique within a problem; the resolved
      // parameters stay in results.csv instead of crowding every header
      String label = r.getString(ResultColumns.PLANNER);
      String dir = r.getString(ResultColumns.DIRECTION);
      Direction direction =
          switch (dir) {
            case "lower" -> Direction.LOWER_IS_BETTER;
            case "higher" -> Direction.HIGHER_IS_BETTER;
            default ->
                throw new IllegalArgumentException(
                    file
                        + ": run "
                        + r.getInt(ResultColumns.RUN)
                        + " ("
                        + r.getString(ResultColumns.INSTANCE)
                        + ", "
                        + label
                        + "): direction '"
                        + dir
                        + "' of metric '"
                        + r.getString(ResultColumns.METRIC)
                        + "' is neither lower nor higher");
          };
      out.add(
          new Measurement(
              r.getString(ResultColumns.PROBLEM),
              r.getString(ResultColumns.INSTANCE),
              label,
              Integer.toString(r.getInt(ResultColumns.REPLICATE)),
              r.getString(ResultColumns.STATUS),
              r.getString(ResultColumns.METRIC),
              r.isMissing(ResultColumns.VALUE) ? Double.NaN : r.getDouble(ResultColumns.VALUE),
              r.getString(ResultColumns.UNIT),
              direction));
    }
    return out;
  }
}
