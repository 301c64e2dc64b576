package io.github.memplan.experiments.cli;

import io.github.memplan.core.device.DeviceRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/** Usage over time of a device run as an SVG line chart: live, held, largest free block. */
final class UsagePlot {
  private UsagePlot() {}

  private static final int W = 800;
  private static final int H = 400;
  private static final int M = 64;

  static void write(DeviceRun run, Path file) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, svg(run));
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
  }

  static String svg(DeviceRun run) {
    List<DeviceRun.Sample> s = run.samples();
    double ymax = run.layout().dram();
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"12\">\n",
            W,
            H));
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"20\">%s on %s: bytes after each event (DRAM %s)</text>\n",
            M,
            esc(run.allocator()),
            esc(run.trace()),
            Units.humanBytes(run.layout().dram())));
    sb.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
            M,
            M,
            W - 2 * M,
            H - 2 * M));
    axes(sb, run.layout().dram(), s.size());
    line(sb, s, DeviceRun.Sample::liveBytes, ymax, "#1f77b4", "live");
    line(sb, s, DeviceRun.Sample::heldBytes, ymax, "#ff7f0e", "held");
    line(sb, s, DeviceRun.Sample::largestFreeBlock, ymax, "#2ca02c", "largest free block");
    for (DeviceRun.Failure f : run.failures()) {
      double x = x(f.event(), s.size());
      sb.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d62728\""
                  + " stroke-opacity=\"0.4\"/>\n",
              x,
              M,
              x,
              H - M));
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\">event number (0..%d); red lines: failed requests (%d)</text>\n",
            M,
            H - 15,
            Math.max(0, s.size() - 1),
            run.failures().size()));
    sb.append("</svg>\n");
    return sb.toString();
  }

  private static void line(
      StringBuilder sb,
      List<DeviceRun.Sample> s,
      ToLongFunction<DeviceRun.Sample> f,
      double ymax,
      String colour,
      String label) {
    StringBuilder pts = new StringBuilder();
    for (int i = 0; i < s.size(); i++) {
      double y = H - M - (H - 2 * M) * f.applyAsLong(s.get(i)) / ymax;
      pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(i, s.size()), y));
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "<polyline fill=\"none\" stroke=\"%s\" points=\"%s\"><title>%s</title></polyline>\n",
            colour,
            pts.toString().strip(),
            label));
    int idx = sb.toString().split("<polyline").length - 2;
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>\n",
            W - M - 150,
            M + 15 + 15 * idx,
            colour,
            label));
  }

  /** Bytes at each quarter of the DRAM on the left, event numbers at each quarter below. */
  private static void axes(StringBuilder sb, long dram, int n) {
    for (int q = 0; q <= 4; q++) {
      double y = H - M - (H - 2 * M) * q / 4.0;
      sb.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                  + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\">%s</text>\n",
              M,
              y,
              W - M,
              y,
              M - 4,
              y + 3,
              esc(Units.humanBytes(dram / 4 * q))));
      int event = n <= 1 ? 0 : (int) Math.round((n - 1) * q / 4.0);
      sb.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">%d</text>\n",
              x(event, n),
              H - M + 14,
              event));
    }
  }

  private static double x(int event, int n) {
    return M + (W - 2 * M) * (n <= 1 ? 0.0 : (double) event / (n - 1));
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
