package io.github.memplan.experiments.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvReadOptions;

/**
 * results.csv as a Tablesaw {@link Table} with typed columns: {@code seed} LONG, {@code replicate}
 * and {@code run} INT, {@code value} DOUBLE (missing where the run has no value), every other
 * column STRING. Only complete runs are read (see {@link ResultsFile#read}).
 */
public final class ResultsTable {
  private ResultsTable() {}

  /** The column types, in {@link ResultColumns#RESULTS} order. */
  public static ColumnType[] types() {
    List<String> names = ResultColumns.RESULTS;
    ColumnType[] types = new ColumnType[names.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] =
          switch (names.get(i)) {
            case ResultColumns.SEED -> ColumnType.LONG;
            case ResultColumns.REPLICATE, ResultColumns.RUN -> ColumnType.INTEGER;
            case ResultColumns.VALUE -> ColumnType.DOUBLE;
            default -> ColumnType.STRING;
          };
    }
    return types;
  }

  /** Reads {@code file} (a results.csv) into a table named after the file. */
  public static Table read(Path file) throws IOException {
    List<ResultRow> rows = ResultsFile.read(file);
    StringBuilder sb = new StringBuilder(String.join(",", ResultColumns.RESULTS)).append('\n');
    for (ResultRow r : rows) {
      sb.append(r.toCsv()).append('\n');
    }
    return Table.read()
        .usingOptions(
            CsvReadOptions.builderFromString(sb.toString())
                .tableName(file.getFileName().toString())
                .columnTypes(types())
                .missingValueIndicator("")
                .build());
  }
}
