package io.github.memplan.datasets.darknet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The per-layer table that darknet prints while it loads a network ({@code parse_network_cfg} and
 * each {@code make_*_layer} of pjreddie/darknet), read back as rows: what darknet itself computed
 * for every layer. Used as the oracle of {@link DarknetImporter}.
 */
final class DarknetTable {
  private DarknetTable() {}

  /**
   * One printed layer. Sizes are darknet's {@code w x h x c}; absent values are {@code null}.
   *
   * @param index the layer number
   * @param kind the printed name: conv, max, avg, res, route, upsample, reorg, connected, dropout,
   *     softmax, cost, yolo, detection, crop, local, rnn, gru
   * @param in the input image {@code {w, h, c}} (for res: the {@code from} layer's)
   * @param out the output image {@code {w, h, c}}
   * @param inCount the flat input size
   * @param outCount the flat output size
   * @param refs the layers a route or shortcut reads
   * @param text the printed line
   */
  record Row(
      int index,
      String kind,
      long[] in,
      long[] out,
      Long inCount,
      Long outCount,
      long[] refs,
      String text) {}

  private static final Pattern NOTICE =
      Pattern.compile("[A-Za-z0-9_]+: Using default '[^'\\n]*'\\n|Unused field: '[^'\\n]*'\\n");
  private static final Pattern ROW = Pattern.compile("^\\s*(\\d+) (.*)$");
  private static final Pattern DIMS = Pattern.compile("(\\d+)\\s*x\\s*(\\d+)\\s*x\\s*(\\d+)");
  private static final Pattern ARROW = Pattern.compile("(\\d+)\\s+->\\s+(\\d+)\\s*$");
  private static final Pattern TRAILING = Pattern.compile("(\\d+)\\s*$");

  /** Runs {@code darknet ops cfg} in {@code workDir} and returns what it printed. */
  static String runOps(Path cfg, Path workDir) throws IOException, InterruptedException {
    Path log = Files.createTempFile(workDir, "ops", ".txt");
    Process p =
        new ProcessBuilder("darknet", "ops", cfg.toString())
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!p.waitFor(300, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("darknet ops " + cfg + " did not finish in 300 s");
    }
    String text = Files.readString(log, StandardCharsets.UTF_8);
    Files.delete(log);
    if (p.exitValue() != 0) {
      throw new IOException("darknet ops " + cfg + " exited " + p.exitValue() + ": " + text);
    }
    return text;
  }

  private static final Pattern FLOPS =
      Pattern.compile("Floating Point Operations: (\\d+)\\s*$", Pattern.MULTILINE);

  /**
   * The total that {@code darknet ops} prints: {@code 2 * multiply-accumulates} of its
   * convolutional, connected, RNN and GRU layers ({@code operations} in {@code examples/darknet.c};
   * locally connected layers are not counted).
   */
  static long flops(String printed) {
    Matcher m = FLOPS.matcher(printed);
    if (!m.find()) {
      throw new IllegalArgumentException("no 'Floating Point Operations' line");
    }
    return Long.parseLong(m.group(1));
  }

  /** The layer rows of darknet's printout, in order. */
  static List<Row> parse(String printed) {
    // darknet's notices ("xxx: Using default '...'") may split a row in two
    String text = NOTICE.matcher(printed.replace("\r", "")).replaceAll("");
    List<Row> rows = new ArrayList<>();
    for (String line : text.split("\n")) {
      Matcher m = ROW.matcher(line);
      if (!m.matches()) {
        continue; // header, RNN/GRU sublayers (tab-indented), FLOP totals
      }
      rows.add(row(Integer.parseInt(m.group(1)), m.group(2).strip(), line));
    }
    return rows;
  }

  private static Row row(int index, String body, String line) {
    String word = body.split("\\s+|:")[0];
    List<long[]> dims = new ArrayList<>();
    // upsample prints its factor as "2x" just before the input size
    Matcher d = DIMS.matcher(body.replaceFirst("^(upsample\\s+)\\d+x", "$1"));
    while (d.find()) {
      dims.add(
          new long[] {
            Long.parseLong(d.group(1)), Long.parseLong(d.group(2)), Long.parseLong(d.group(3))
          });
    }
    Matcher arrow = ARROW.matcher(body);
    Long arrowIn = null;
    Long arrowOut = null;
    if (arrow.find()) {
      arrowIn = Long.parseLong(arrow.group(1));
      arrowOut = Long.parseLong(arrow.group(2));
    }
    Matcher t = TRAILING.matcher(body);
    Long trailing = t.find() ? Long.parseLong(t.group(1)) : null;
    return switch (word) {
      case "conv", "max", "upsample" ->
          new Row(index, word, dims.get(0), dims.get(1), null, null, null, line);
      case "res" -> {
        long from = Long.parseLong(body.split("\\s+")[1]);
        yield new Row(index, word, dims.get(0), dims.get(1), null, null, new long[] {from}, line);
      }
      case "reorg" ->
          dims.isEmpty()
              ? new Row(index, word, null, null, arrowIn, arrowOut, null, line)
              : new Row(index, word, dims.get(0), dims.get(1), null, null, null, line);
      case "avg" -> new Row(index, word, dims.get(0), null, null, trailing, null, line);
      case "connected", "dropout" ->
          new Row(index, word, null, null, arrowIn, arrowOut, null, line);
      case "softmax", "cost" -> new Row(index, word, null, null, null, trailing, null, line);
      case "route" -> {
        String[] parts = body.substring("route".length()).strip().split("\\s+");
        long[] refs = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
          refs[i] = Long.parseLong(parts[i]);
        }
        yield new Row(index, word, null, null, null, null, refs, line);
      }
      case "yolo", "detection" -> new Row(index, word, null, null, null, null, null, line);
      case "Detection" -> new Row(index, "detection-v1", null, null, null, null, null, line);
      case "Crop" -> {
        // "Crop Layer: h x w -> crop_h x crop_w x c image"
        Matcher c = Pattern.compile("(\\d+) x (\\d+) -> (\\d+) x (\\d+) x (\\d+)").matcher(body);
        if (!c.find()) {
          throw new IllegalArgumentException("unreadable crop row: " + line);
        }
        long[] out = {
          Long.parseLong(c.group(4)), Long.parseLong(c.group(3)), Long.parseLong(c.group(5))
        };
        long[] in = {Long.parseLong(c.group(2)), Long.parseLong(c.group(1)), -1};
        yield new Row(index, "crop", in, out, null, null, null, line);
      }
      case "Local" -> {
        // "Local Layer: h x w x c image, n filters -> out_h x out_w x n image"
        long[] in = dims.get(0);
        long[] out = dims.get(1);
        yield new Row(
            index,
            "local",
            new long[] {in[1], in[0], in[2]},
            new long[] {out[1], out[0], out[2]},
            null,
            null,
            null,
            line);
      }
      case "RNN", "GRU" -> {
        Matcher c = Pattern.compile("(\\d+) inputs, (\\d+) outputs").matcher(body);
        if (!c.find()) {
          throw new IllegalArgumentException("unreadable recurrent row: " + line);
        }
        yield new Row(
            index,
            word.toLowerCase(java.util.Locale.ROOT),
            null,
            null,
            Long.parseLong(c.group(1)),
            Long.parseLong(c.group(2)),
            null,
            line);
      }
      default -> throw new IllegalArgumentException("unknown darknet row: " + line);
    };
  }
}
