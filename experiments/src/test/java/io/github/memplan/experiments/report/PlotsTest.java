package io.github.memplan.experiments.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.memplan.experiments.store.ResultsFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plots of the fixture of {@link ReportsTest}. */
class PlotsTest {
  @TempDir Path dir;

  void fixture() throws IOException {
    for (String f : List.of("results.csv", "anytime.csv")) {
      try (InputStream in =
          Objects.requireNonNull(getClass().getResourceAsStream("/report/small/" + f))) {
        Files.copy(in, dir.resolve(f));
      }
    }
  }

  ProblemReport report() throws IOException {
    fixture();
    return ReportBuilder.build(
            Measurements.of(ResultsFile.read(dir.resolve("results.csv"))), "naive", null)
        .get(0);
  }

  /**
   * Ratios to the best median of each instance (lower is better): naive 2, 100/52, 1.6, 2; tpumlir
   * 1.2, 60/52, 1, 2; exact 1, 1, infinity (ERROR on c), 1. So exact's profile is 3/4 from tau = 1
   * on and never reaches 1; tpumlir's climbs 1/4, 2/4, 3/4 at tau = 1, 60/52, 1.2 and 1 at tau = 2.
   */
  @Test
  void performanceProfileIsDolanMore() throws IOException {
    ProblemReport r = report();
    double[][] ratio = Plots.ratios(r);
    assertThat(ratio[0]).containsExactly(new double[] {2, 1.2, 1}, within(1e-12));
    assertThat(ratio[2][2]).isInfinite();
    double[][] exact = Plots.profileSteps(ratio, 2, 1.05);
    assertThat(exact[0]).containsExactly(0, 0, 1.05);
    assertThat(exact[1]).containsExactly(0, 0.75, 0.75);
    double[][] tpu = Plots.profileSteps(ratio, 1, 1.05);
    double log2 = Math.log(2);
    assertThat(tpu[0])
        .containsExactly(
            new double[] {0, 0, Math.log(60 / 52.0) / log2, Math.log(1.2) / log2, 1, 1.05},
            within(1e-12));
    assertThat(tpu[1]).containsExactly(0, 0.25, 0.5, 0.75, 1.0, 1.0);
  }

  @Test
  void writesPngAndSvgWithStableNamesAndBytes() throws IOException {
    fixture();
    List<Path> files =
        Reports.write(dir, new Reports.Options("naive", null, EnumSet.of(Reports.Format.plots)));
    Path plots = dir.resolve("plots");
    assertThat(files)
        .containsExactly(
            plots.resolve("gmem-profile.png"),
            plots.resolve("gmem-profile.svg"),
            plots.resolve("gmem-a-box.png"),
            plots.resolve("gmem-a-box.svg"),
            plots.resolve("gmem-b-box.png"),
            plots.resolve("gmem-b-box.svg"),
            plots.resolve("gmem-b-anytime.png"),
            plots.resolve("gmem-b-anytime.svg"));
    byte[] png = Files.readAllBytes(plots.resolve("gmem-profile.png"));
    assertThat(new String(png, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
    String svg = Files.readString(plots.resolve("gmem-b-anytime.svg"));
    assertThat(svg).contains("<svg").contains("<path").contains("clip1");
    assertThat(Plots.stableClipIds("a clip77 b clip5 c clip77"))
        .isEqualTo("a clip1 b clip2 c clip1");
    List<byte[]> first = files.stream().map(PlotsTest::bytes).toList();
    Reports.write(dir, new Reports.Options("naive", null, EnumSet.of(Reports.Format.plots)));
    for (int i = 0; i < files.size(); i++) {
      assertThat(bytes(files.get(i))).as(files.get(i).toString()).isEqualTo(first.get(i));
    }
  }

  @Test
  void fileNamesAreSafe() {
    assertThat(Plots.safe("resnet18/a b:c.csv")).isEqualTo("resnet18_a_b_c.csv");
  }

  static byte[] bytes(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
