package io.github.memplan.experiments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.solve.Direction;
import io.github.memplan.experiments.measure.RunStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.Table;

class ResultsStoreTest {
  @TempDir Path dir;

  private static ResultRow row(int run, String metric, String value, String message) {
    return new ResultRow(
        "s",
        "dsa",
        "A, \"quoted\"",
        "exact",
        "mode=decide;x=1",
        7,
        0,
        RunStatus.FEASIBLE,
        metric,
        value,
        "bytes",
        Direction.LOWER_IS_BETTER,
        run,
        message);
  }

  @Test
  void quotingRoundTripsAndValuesAreFormattedPlainly() {
    ResultRow r = row(3, "peak-bytes", "12", "boom, \"bad\"");
    assertThat(r.toCsv()).contains("\"A, \"\"quoted\"\"\"");
    assertThat(ResultRow.parse(r.toCsv())).isEqualTo(r);
    assertThat(ResultRow.format(OptionalDouble.of(1e12))).isEqualTo("1000000000000");
    assertThat(ResultRow.format(OptionalDouble.of(1.25))).isEqualTo("1.25");
    assertThat(ResultRow.format(OptionalDouble.of(1e-7))).isEqualTo("0.0000001");
    assertThat(ResultRow.format(OptionalDouble.empty())).isEmpty();
  }

  @Test
  void aTornLineAndAnIncompleteRunAreDroppedOnRead() throws Exception {
    Path f = dir.resolve("results.csv");
    try (ResultsFile out = ResultsFile.create(f, List.of())) {
      out.append(List.of(row(0, "peak-bytes", "10", ""), row(0, "time-ms", "5", "")));
      out.append(List.of(row(1, "peak-bytes", "11", ""))); // no timing row: incomplete
    }
    Files.writeString(f, "s,dsa,B,exa", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    List<ResultRow> rows = ResultsFile.read(f);
    assertThat(rows).extracting(ResultRow::run).containsExactly(0, 0);
  }

  @Test
  void aMalformedLineFailsNamingFileAndLine() throws Exception {
    Path f = dir.resolve("results.csv");
    ResultsFile.write(f, List.of(row(0, "time-ms", "1", "")));
    Files.writeString(f, "a,b\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    assertThatThrownBy(() -> ResultsFile.read(f))
        .hasMessageStartingWith(f + ":3: expected 14 fields");
  }

  @Test
  void tablesawGetsTypedColumnsWithMissingValues() throws Exception {
    Path f = dir.resolve("results.csv");
    ResultsFile.write(
        f,
        List.of(
            row(0, "peak-bytes", "", "x"), row(0, "ratio", "1.5", ""), row(0, "time-ms", "3", "")));
    Table t = ResultsTable.read(f);
    assertThat(t.rowCount()).isEqualTo(3);
    assertThat(t.column(ResultColumns.VALUE).type()).isEqualTo(ColumnType.DOUBLE);
    assertThat(t.column(ResultColumns.SEED).type()).isEqualTo(ColumnType.LONG);
    assertThat(t.doubleColumn(ResultColumns.VALUE).isMissing(0)).isTrue();
    assertThat(t.doubleColumn(ResultColumns.VALUE).get(1)).isEqualTo(1.5);
    assertThat(t.stringColumn(ResultColumns.INSTANCE).get(0)).isEqualTo("A, \"quoted\"");
  }
}
