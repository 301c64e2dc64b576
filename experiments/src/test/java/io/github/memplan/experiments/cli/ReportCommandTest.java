package io.github.memplan.experiments.cli;

import static io.github.memplan.experiments.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.experiments.cli.MainTest.Run;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportCommandTest {
  @TempDir Path dir;

  @Test
  void writesTheRequestedFormats() throws IOException {
    try (InputStream in =
        Objects.requireNonNull(getClass().getResourceAsStream("/report/small/results.csv"))) {
      Files.copy(in, dir.resolve("results.csv"));
    }
    Run r = run("report", dir.toString(), "--baseline", "tpumlir", "--format", "md,csv");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out().lines())
        .containsExactly(dir.resolve("report.md").toString(), dir.resolve("report.csv").toString());
    assertThat(dir.resolve("report.tex")).doesNotExist();
    assertThat(Files.readString(dir.resolve("report.md")))
        .contains("| wins/ties/losses vs tpumlir |  | 0/1/3 | - | 3/0/0 |");
  }

  @Test
  void missingResultsIsOneLineError() {
    Run r = run("report", dir.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip()).doesNotContain("\n").contains("results.csv").contains("memplan:");
    assertThat(run("report", dir.toString(), "--format", "pdf").code()).isEqualTo(2);
  }
}
