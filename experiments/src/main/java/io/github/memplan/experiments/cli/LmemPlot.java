package io.github.memplan.experiments.cli;

import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemLowerBounds;
import io.github.memplan.core.lmem.LmemSolution;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * An LMEM placement as an SVG: x is the timestep, y the per-lane address; the banks are shaded
 * alternately and numbered; each buffer is one rectangle per contiguous live range ({@code class=
 * "buffer"}; a wrapping life gives two, a held buffer spans every row), coloured by kind and
 * labelled with its id. {@link LmemBanks} decides what is marked: a straddling buffer is hatched
 * ({@code class="straddle"}), and each conflict outlines both buffers in red in the row where it
 * arises ({@code class="conflict"}). The title gives the peak, capacity, lower bound and counts.
 */
public final class LmemPlot {
  private LmemPlot() {}

  private static final int W = 900;
  private static final int H = 520;
  private static final int LEFT = 90;
  private static final int RIGHT = 70;
  private static final int TOP = 50;
  private static final int BOTTOM = 50;

  public static void write(LmemInstance instance, LmemSolution solution, Path file)
      throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, svg(instance, solution));
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
  }

  /** The live ranges {@code [from, to)} of a buffer in rows, in increasing order. */
  static List<int[]> ranges(LmemBuffer b, int t) {
    if (b.held()) {
      return List.of(new int[] {0, t});
    }
    if (!b.wraps()) {
      return List.of(new int[] {b.start(), b.end() + 1});
    }
    return List.of(new int[] {0, b.end() + 1}, new int[] {b.start(), t});
  }

  public static String svg(LmemInstance instance, LmemSolution solution) {
    List<LmemBuffer> buffers = instance.buffers();
    int t = instance.timestepCount();
    LmemBanks.Report report = LmemBanks.report(instance, solution);
    StringBuilder sb = new StringBuilder();
    sb.append(
        fmt(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"11\">\n",
            W, H));
    sb.append(
        "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\""
            + " patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\""
            + " stroke=\"#000\" stroke-opacity=\"0.5\" stroke-width=\"2\"/></pattern></defs>\n");
    sb.append(
        fmt(
            "<text x=\"%d\" y=\"20\" font-size=\"13\">%s: peak %s of %s per lane (lower bound"
                + " %s); %d bank conflicts, %d straddles</text>\n",
            LEFT,
            esc(instance.name()),
            esc(Units.humanBytes(solution.peak(instance))),
            esc(Units.humanBytes(instance.capacity())),
            esc(Units.humanBytes(LmemLowerBounds.maxLive(instance))),
            report.conflictCount(),
            report.straddleCount()));
    // banks: alternate shading, number on the right, address ticks on the left
    for (int k = 0; k < instance.banks(); k++) {
      long lo = k * instance.bankBytes();
      double y0 = y(instance, lo + instance.bankBytes());
      double y1 = y(instance, lo);
      sb.append(
          fmt(
              "<rect class=\"bank\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"/>\n",
              LEFT, y0, W - LEFT - RIGHT, y1 - y0, k % 2 == 0 ? "#f4f4f4" : "#e4e4e4"));
      sb.append(
          fmt(
              "<text x=\"%d\" y=\"%.1f\" font-size=\"10\">bank %d</text>\n",
              W - RIGHT + 4, (y0 + y1) / 2 + 3, k));
      tickY(sb, instance, lo);
    }
    tickY(sb, instance, instance.capacity());
    for (int r = 0; r <= t; r++) {
      sb.append(
          fmt(
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#fff\"/>\n",
              x(r, t), TOP, x(r, t), H - BOTTOM));
      if (r < t) {
        sb.append(
            fmt(
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">%d</text>\n",
                (x(r, t) + x(r + 1, t)) / 2, H - BOTTOM + 14, r));
      }
    }
    sb.append(
        fmt(
            "<text x=\"%d\" y=\"%d\">timestep; blue activation, orange weight, green scratch;"
                + " hatched: straddles a bank boundary; red: bank conflict</text>\n",
            LEFT, H - 15));
    Set<Integer> straddling = new HashSet<>(report.straddling());
    for (int i = 0; i < buffers.size(); i++) {
      LmemBuffer b = buffers.get(i);
      long a = solution.address(i);
      double yTop = y(instance, a + b.bytes());
      double yBottom = y(instance, a);
      boolean labelled = false;
      for (int[] range : ranges(b, t)) {
        double x0 = x(range[0], t);
        double x1 = x(range[1], t);
        sb.append(
            fmt(
                "<rect class=\"buffer\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
                    + " fill=\"%s\" fill-opacity=\"0.75\" stroke=\"#333\" stroke-width=\"0.5\">"
                    + "<title>%s %s [%d, %d]%s %d bytes at %d</title></rect>\n",
                x0 + 1,
                yTop,
                x1 - x0 - 2,
                yBottom - yTop,
                colour(b.kind()),
                esc(b.id()),
                b.kind().name().toLowerCase(Locale.ROOT),
                b.start(),
                b.end(),
                b.held() ? " held" : "",
                b.bytes(),
                a));
        if (straddling.contains(i)) {
          sb.append(
              fmt(
                  "<rect class=\"straddle\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
                      + " fill=\"url(#hatch)\"/>\n",
                  x0 + 1, yTop, x1 - x0 - 2, yBottom - yTop));
        }
        if (!labelled) {
          sb.append(
              fmt(
                  "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\">%s</text>\n",
                  x0 + 3, Math.min(yBottom - 2, yTop + 10), esc(b.id())));
          labelled = true;
        }
      }
    }
    for (LmemBanks.Conflict c : report.conflicts()) {
      for (int i : new int[] {c.a(), c.b()}) {
        LmemBuffer b = buffers.get(i);
        long a = solution.address(i);
        double yTop = y(instance, a + b.bytes());
        sb.append(
            fmt(
                "<rect class=\"conflict\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
                    + " fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"><title>%s conflict"
                    + " of %s and %s in timestep %d</title></rect>\n",
                x(c.timestep(), t) + 1,
                yTop,
                x(c.timestep() + 1, t) - x(c.timestep(), t) - 2,
                y(instance, a) - yTop,
                c.reason(),
                esc(buffers.get(c.a()).id()),
                esc(buffers.get(c.b()).id()),
                c.timestep()));
      }
    }
    sb.append("</svg>\n");
    return sb.toString();
  }

  private static void tickY(StringBuilder sb, LmemInstance instance, long address) {
    double y = y(instance, address);
    sb.append(
        fmt(
            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#888\"/>\n"
                + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\">%s</text>\n",
            LEFT - 5, y, LEFT, y, LEFT - 7, y + 3, esc(Units.humanBytes(address))));
  }

  private static String colour(LmemBuffer.Kind kind) {
    return switch (kind) {
      case ACTIVATION -> "#1f77b4";
      case WEIGHT -> "#ff7f0e";
      case SCRATCH -> "#2ca02c";
    };
  }

  private static double x(int row, int t) {
    return LEFT + (double) (W - LEFT - RIGHT) * row / t;
  }

  private static double y(LmemInstance instance, long address) {
    return H - BOTTOM - (double) (H - TOP - BOTTOM) * address / instance.capacity();
  }

  private static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
