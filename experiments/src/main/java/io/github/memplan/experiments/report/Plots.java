package io.github.memplan.experiments.report;

import io.github.memplan.core.solve.Direction;
import io.github.memplan.experiments.store.ResultColumns;
import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BoxChart;
import org.knowm.xchart.BoxChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.BoxStyler.BoxplotCalCulationMethod;
import org.knowm.xchart.style.Styler;
import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvReadOptions;

/**
 * Paper figures with XChart, each as PNG and SVG in {@code DIR/plots/}, headless:
 *
 * <ul>
 *   <li>{@code PROBLEM-profile}: the performance profile of Dolan and Moré, "Benchmarking
 *       optimization software with performance profiles", Math. Program. 91 (2002): for each
 *       planner the fraction of instances whose ratio to the best planner's value is at most tau,
 *       against log2 tau; a planner without a value on an instance has ratio infinity there. Values
 *       are the medians over replicates; for a higher-is-better metric the ratio is best / value.
 *   <li>{@code PROBLEM-INSTANCE-anytime}: best objective against time, from anytime.csv, one step
 *       line per run.
 *   <li>{@code PROBLEM-INSTANCE-box}: box plots over replicates (quartiles as in the tables), for
 *       instances with replicates.
 * </ul>
 *
 * <p>Text in the SVG files is drawn as outlines (XChart renders glyphs as shapes). File names keep
 * letters, digits, '.', '-' and '_' of the problem and instance names and replace other characters
 * by '_'.
 */
public final class Plots {
  private Plots() {}

  static final int WIDTH = 640;
  static final int HEIGHT = 420;

  /** Writes every plot of the reports (and of {@code DIR/anytime.csv} when present). */
  static List<Path> write(Path dir, List<ProblemReport> reports) {
    System.setProperty("java.awt.headless", "true");
    Path plots = dir.resolve("plots");
    List<Path> out = new ArrayList<>();
    try {
      Files.createDirectories(plots);
      for (ProblemReport r : reports) {
        out.addAll(save(profile(r), plots.resolve(safe(r.problem()) + "-profile")));
        for (int i = 0; i < r.instances().size(); i++) {
          BoxChart box = box(r, i);
          if (box != null) {
            out.addAll(
                save(
                    box,
                    plots.resolve(safe(r.problem()) + "-" + safe(r.instances().get(i)) + "-box")));
          }
        }
      }
      Path anytime = dir.resolve(ResultColumns.ANYTIME_FILE);
      if (Files.isRegularFile(anytime)) {
        for (var e : anytime(anytime).entrySet()) {
          out.addAll(save(e.getValue(), plots.resolve(e.getKey() + "-anytime")));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(plots + ": " + e.getMessage(), e);
    }
    return List.copyOf(out);
  }

  /** tau_p,i = value / best (or best / value when higher is better); +infinity without a value. */
  static double[][] ratios(ProblemReport r) {
    double[][] ratio = new double[r.instances().size()][r.planners().size()];
    for (int i = 0; i < ratio.length; i++) {
      double best = Double.NaN;
      for (ProblemReport.Cell c : r.cells().get(i)) {
        if (c.best()) {
          best = c.spread().median();
        }
      }
      for (int p = 0; p < ratio[i].length; p++) {
        ProblemReport.Cell c = r.cells().get(i).get(p);
        if (!c.hasValue() || Double.isNaN(best)) {
          ratio[i][p] = Double.POSITIVE_INFINITY;
        } else {
          double v = c.spread().median();
          ratio[i][p] =
              v == best ? 1.0 : r.direction() == Direction.LOWER_IS_BETTER ? v / best : best / v;
        }
      }
    }
    return ratio;
  }

  /**
   * The profile's steps of one planner: the sorted finite log2 ratios with the fraction of
   * instances at or below each, starting at (0, fraction of ratio 1) and ending at {@code xMax}.
   */
  static double[][] profileSteps(double[][] ratio, int p, double xMax) {
    int n = ratio.length;
    double[] logs =
        Arrays.stream(ratio)
            .mapToDouble(row -> row[p])
            .filter(Double::isFinite)
            .map(t -> Math.log(t) / Math.log(2))
            .sorted()
            .toArray();
    List<double[]> pts = new ArrayList<>();
    pts.add(new double[] {0, 0});
    for (int j = 0; j < logs.length; j++) {
      if (j + 1 < logs.length && logs[j + 1] == logs[j]) {
        continue;
      }
      pts.add(new double[] {logs[j], (j + 1) / (double) n});
    }
    pts.add(new double[] {xMax, logs.length / (double) n});
    return new double[][] {
      pts.stream().mapToDouble(x -> x[0]).toArray(), pts.stream().mapToDouble(x -> x[1]).toArray()
    };
  }

  static XYChart profile(ProblemReport r) {
    double[][] ratio = ratios(r);
    double maxLog = 0;
    for (double[] row : ratio) {
      for (double t : row) {
        if (Double.isFinite(t)) {
          maxLog = Math.max(maxLog, Math.log(t) / Math.log(2));
        }
      }
    }
    double xMax = maxLog == 0 ? 1 : maxLog * 1.05;
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(r.problem() + ": performance profile (" + r.metric() + ")")
            .xAxisTitle("log2 tau (ratio to the best)")
            .yAxisTitle("fraction of instances")
            .build();
    style(chart.getStyler());
    chart.getStyler().setYAxisMin(0.0).setYAxisMax(1.0).setXAxisMin(0.0).setXAxisMax(xMax);
    chart.getStyler().setYAxisDecimalPattern("0.00").setXAxisDecimalPattern("0.00");
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
    for (int p = 0; p < r.planners().size(); p++) {
      double[][] s = profileSteps(ratio, p, xMax);
      chart.addSeries(r.planners().get(p), s[0], s[1]);
    }
    return chart;
  }

  static BoxChart box(ProblemReport r, int i) {
    List<ProblemReport.Cell> row = r.cells().get(i);
    if (row.stream().noneMatch(c -> c.hasValue() && c.values().length > 1)) {
      return null;
    }
    BoxChart chart =
        new BoxChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(
                r.problem() + " " + r.instances().get(i) + ": " + r.metric() + " over replicates")
            .yAxisTitle(r.metric() + " (" + r.unit() + ")")
            .build();
    style(chart.getStyler());
    // XChart's quartile position (n-1)p+1, the definition of the tables' HF7 quartiles
    chart.getStyler().setBoxplotCalCulationMethod(BoxplotCalCulationMethod.N_LESS_1_PLUS_1);
    for (int p = 0; p < row.size(); p++) {
      if (row.get(p).hasValue()) {
        chart.addSeries(r.planners().get(p), row.get(p).values());
      }
    }
    return chart;
  }

  /** Anytime charts keyed by their file name stem, in file order. */
  static Map<String, XYChart> anytime(Path file) {
    Table t =
        Table.read()
            .usingOptions(
                CsvReadOptions.builder(file.toFile())
                    .columnTypes(
                        name ->
                            switch (name) {
                              case ResultColumns.ELAPSED_MS,
                                  ResultColumns.BEST_OBJECTIVE,
                                  ResultColumns.BEST_BOUND ->
                                  ColumnType.DOUBLE;
                              default -> ColumnType.STRING;
                            })
                    .missingValueIndicator("")
                    .build());
    // stem -> series label -> points
    Map<String, Map<String, List<double[]>>> series = new LinkedHashMap<>();
    Map<String, String> titles = new LinkedHashMap<>();
    for (Row row : t) {
      if (row.isMissing(ResultColumns.BEST_OBJECTIVE)) {
        continue;
      }
      String problem = row.getString(ResultColumns.PROBLEM);
      String instance = row.getString(ResultColumns.INSTANCE);
      String label =
          row.getString(ResultColumns.PLANNER) + " #" + row.getString(ResultColumns.REPLICATE);
      String stem = safe(problem) + "-" + safe(instance);
      titles.putIfAbsent(stem, problem + " " + instance + ": best objective over time");
      series
          .computeIfAbsent(stem, k -> new LinkedHashMap<>())
          .computeIfAbsent(label, k -> new ArrayList<>())
          .add(
              new double[] {
                row.getDouble(ResultColumns.ELAPSED_MS), row.getDouble(ResultColumns.BEST_OBJECTIVE)
              });
    }
    Map<String, XYChart> charts = new LinkedHashMap<>();
    for (var e : series.entrySet()) {
      XYChart chart =
          new XYChartBuilder()
              .width(WIDTH)
              .height(HEIGHT)
              .title(titles.get(e.getKey()))
              .xAxisTitle("elapsed (ms)")
              .yAxisTitle("best objective")
              .build();
      style(chart.getStyler());
      chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
      for (var s : e.getValue().entrySet()) {
        chart.addSeries(
            s.getKey(),
            s.getValue().stream().mapToDouble(x -> x[0]).toArray(),
            s.getValue().stream().mapToDouble(x -> x[1]).toArray());
      }
      charts.put(e.getKey(), chart);
    }
    return charts;
  }

  private static void style(Styler s) {
    s.setChartBackgroundColor(Color.WHITE);
    s.setLegendPosition(Styler.LegendPosition.OutsideS);
    s.setLegendLayout(Styler.LegendLayout.Horizontal);
    s.setAntiAlias(true);
  }

  /** Saves {@code stem.png} and {@code stem.svg}; returns both paths. */
  static List<Path> save(Chart<?, ?> chart, Path stem) throws IOException {
    Path png = stem.resolveSibling(stem.getFileName() + ".png");
    Path svg = stem.resolveSibling(stem.getFileName() + ".svg");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BitmapEncoder.saveBitmap(chart, bytes, BitmapEncoder.BitmapFormat.PNG);
    Files.write(png, bytes.toByteArray());
    bytes.reset();
    VectorGraphicsEncoder.saveVectorGraphic(
        chart, bytes, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    Files.writeString(svg, stableClipIds(bytes.toString(StandardCharsets.UTF_8)));
    return List.of(png, svg);
  }

  private static final Pattern CLIP_ID = Pattern.compile("clip(\\d+)");

  /**
   * VectorGraphics2D names clip paths after identity hash codes, which differ from run to run;
   * renaming them clip1, clip2, ... in order of appearance makes the SVG bytes reproducible.
   */
  static String stableClipIds(String svg) {
    Map<String, String> ids = new LinkedHashMap<>();
    Matcher m = CLIP_ID.matcher(svg);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String id = ids.computeIfAbsent(m.group(1), k -> Integer.toString(ids.size() + 1));
      m.appendReplacement(sb, "clip" + id);
    }
    m.appendTail(sb);
    return sb.toString();
  }

  static String safe(String name) {
    return name.replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
