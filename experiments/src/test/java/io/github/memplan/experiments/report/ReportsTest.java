package io.github.memplan.experiments.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture {@code report/small/results.csv}, worked by hand (peak-bytes, lower is better):
 *
 * <pre>
 *   instance  bound  naive  tpumlir  exact (2 replicates)
 *   a         100    200    120      100, 100
 *   b          50    100     60       50,  54         median 52, IQR 2 (HF7: 51..53)
 *   c          80    160    100      ERROR, ERROR
 *   d          10     20     20       10,  TIMEOUT    median of the one value
 * </pre>
 *
 * Baseline naive: tpumlir's ratios 0.6, 0.6, 0.625, 1 (geometric mean 0.225^(1/4) = 0.6887), 3/1/0;
 * to the bounds 1.2, 1.2, 1.25, 2 (3.6^(1/4) = 1.377). Exact over a, b, d: 0.5, 0.52, 0.5, 3/0/0,
 * Wilcoxon exact p = 2/2^3 = 0.25. Friedman over a, b, d (c lacks exact): ranks (3,2,1), (3,2,1),
 * (2.5,2.5,1), mean ranks 2.833, 2.167, 1.000, chi2 = 3 * (13.722 - 12) = 5.167. Exact to bound: 1,
 * 1.04, 1, geometric mean 1.04^(1/3) = 1.0132.
 */
class ReportsTest {
  @TempDir Path dir;

  Path fixture() throws IOException {
    try (var in =
        Objects.requireNonNull(getClass().getResourceAsStream("/report/small/results.csv"))) {
      Files.copy(in, dir.resolve(Reports.RESULTS));
    }
    return dir;
  }

  String read(String name) throws IOException {
    return Files.readString(dir.resolve(name), StandardCharsets.UTF_8);
  }

  @Test
  void markdownTableIsWorkedExample() throws IOException {
    List<Path> files =
        Reports.write(fixture(), new Reports.Options("naive", null, EnumSet.of(Reports.Format.md)));
    assertThat(files).containsExactly(dir.resolve("report.md"));
    String md = read("report.md");
    assertThat(md)
        .contains("## gmem: peak-bytes")
        .contains("| instance | lower bound | naive | tpumlir | exact |")
        .contains("| a | 100 | 200 | 120 | **100 (0)** |")
        .contains("| b | 50 | 100 | 60 | **52 (2)** |")
        .contains("| c | 80 | 160 | **100** | ERROR |")
        .contains("| d | 10 | 20 | 20 | **10 \\*** |")
        .contains("| geo-mean ratio to naive |  | 1.000 | 0.689 | 0.507 |")
        .contains("| geo-mean ratio to lower bound |  | 2.000 | 1.377 | 1.013 |")
        .contains("| wins/ties/losses vs naive |  | - | 3/1/0 | 3/0/0 |")
        .contains("| mean rank |  | 2.83 | 2.17 | 1.00 |")
        .contains("| Wilcoxon p vs naive |  | - | 0.137 | 0.250 |")
        .contains("Friedman chi2 = 5.167 (df 2)")
        .contains("3 of 4 instances solved by every planner");
  }

  @Test
  void csvHasFullPrecisionSummaries() throws IOException {
    Reports.write(fixture(), new Reports.Options("naive", null, EnumSet.of(Reports.Format.csv)));
    List<String> lines = read("report.csv").lines().toList();
    assertThat(lines.get(0))
        .isEqualTo(
            "problem,metric,kind,instance,planner,status,replicates,failed,value,q1,q3,best");
    assertThat(lines)
        .contains("gmem,peak-bytes,cell,b,exact,,2,0,52,51,53,true")
        .contains("gmem,peak-bytes,cell,c,exact,ERROR,2,2,,,,false")
        .contains("gmem,peak-bytes,cell,d,exact,,2,1,10,10,10,true")
        .contains("gmem,peak-bytes,lower-bound,a,,,,,100,,,")
        .contains("gmem,peak-bytes,wins,,tpumlir,,,,3,,,");
    double gm =
        lines.stream()
            .filter(l -> l.startsWith("gmem,peak-bytes,ratio-to-baseline,,tpumlir,"))
            .mapToDouble(l -> Double.parseDouble(l.split(",")[8]))
            .findFirst()
            .orElseThrow();
    assertThat(gm).isCloseTo(Math.pow(0.225, 0.25), org.assertj.core.api.Assertions.within(1e-12));
  }

  @Test
  void outputIsDeterministic() throws IOException {
    Reports.write(fixture(), Reports.Options.defaults());
    String md = read("report.md");
    String tex = read("report.tex");
    String csv = read("report.csv");
    Reports.write(dir, Reports.Options.defaults());
    assertThat(read("report.md")).isEqualTo(md);
    assertThat(read("report.tex")).isEqualTo(tex);
    assertThat(read("report.csv")).isEqualTo(csv);
    // without --baseline the first planner of the results is the baseline
    assertThat(md).contains("geo-mean ratio to naive");
  }

  @Test
  void latexIsBooktabsAndCompiles() throws Exception {
    Reports.write(fixture(), new Reports.Options("naive", null, EnumSet.of(Reports.Format.latex)));
    String tex = read("report.tex");
    assertThat(tex)
        .contains("\\begin{tabular}{lrrrr}")
        .contains("\\toprule")
        .contains("\\midrule")
        .contains("\\bottomrule")
        .contains("\\textbf{52 (2)}")
        .contains("geo-mean ratio to lower bound")
        .contains("% peak-bytes (bytes, lower is better)")
        .contains("\\multicolumn{5}{l}{Friedman p = 0.076, Iman-Davenport p = 0.019 (N = 3)}")
        .doesNotContain("**");
    assertThat(tex.indexOf("\\toprule")).isLessThan(tex.indexOf("\\bottomrule"));
    assertThat(Renderers.tex("a_b 5% {x} & $ # ~ ^ \\"))
        .isEqualTo(
            "a\\_b 5\\% \\{x\\} \\& \\$ \\# \\textasciitilde{} \\textasciicircum{} \\textbackslash{}");
    if (onPath("pdflatex")) {
      Path doc = dir.resolve("doc.tex");
      Files.writeString(
          doc,
          "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n"
              + "\\input{report.tex}\n\\end{document}\n");
      Process p =
          new ProcessBuilder("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex")
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("pdflatex.out").toFile())
              .start();
      // a bound on a hung process, not a timing assertion
      assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
      assertThat(p.exitValue()).as(read("pdflatex.out")).isZero();
      // a wide table may overflow the text width (the paper scales it); errors and warnings may not
      assertThat(read("pdflatex.out")).doesNotContain("Warning").doesNotContain("Undefined");
      assertThat(dir.resolve("doc.pdf")).isNotEmptyFile();
    }
  }

  @Test
  void badInputNamesFileLineAndKey() throws IOException {
    assertThatThrownBy(() -> Reports.write(dir, Reports.Options.defaults()))
        .hasMessageContaining("results.csv")
        .hasMessageContaining("no such results file");
    fixture();
    assertThatThrownBy(
            () ->
                Reports.write(
                    dir, new Reports.Options("nope", null, EnumSet.noneOf(Reports.Format.class))))
        .hasMessageContaining("baseline 'nope'")
        .hasMessageContaining("gmem");
    assertThatThrownBy(
            () ->
                Reports.write(
                    dir, new Reports.Options(null, "nope", EnumSet.noneOf(Reports.Format.class))))
        .hasMessageContaining("metric 'nope'");
    String header =
        "suite,problem,instance,planner,params,seed,replicate,status,metric,value,unit,direction,"
            + "run,message\n";
    Files.writeString(
        dir.resolve(Reports.RESULTS),
        header
            + "s,gmem,a,naive,,0,0,FEASIBLE,peak-bytes,1,bytes,lower,0,\n"
            + "s,gmem,a,naive,,0,0,FEASIBLE,time-ms,1,ms,lower,0,\n"
            + "s,gmem,b,naive,,0,0,FEASIBLE,peak-bytes,1,bytes,smaller,1,\n"
            + "s,gmem,b,naive,,0,0,FEASIBLE,time-ms,1,ms,lower,1,\n");
    assertThatThrownBy(() -> Reports.write(dir, Reports.Options.defaults()))
        .hasMessageContaining("results.csv:4:")
        .hasMessageContaining("direction 'smaller' of metric 'peak-bytes'");
    Files.writeString(dir.resolve(Reports.RESULTS), "suite,problem\ns,gmem\n");
    assertThatThrownBy(() -> Reports.write(dir, Reports.Options.defaults()))
        .hasMessageContaining("results.csv:1");
  }

  static boolean onPath(String exe) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(d, exe))) {
        return true;
      }
    }
    return false;
  }
}
