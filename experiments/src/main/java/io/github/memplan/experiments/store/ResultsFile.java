package io.github.memplan.experiments.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * results.csv on disk. Each run's rows are appended with one write, then forced to the device
 * ({@link FileChannel#force}), so a killed process leaves at most one torn trailing line, which
 * {@link #read} drops. Reading keeps only complete runs: a run is complete when its last row, the
 * {@link ResultColumns#TIME_METRIC} row, is there. Appends are serialised by this object.
 */
public final class ResultsFile implements AutoCloseable {
  private static final String HEADER = String.join(",", ResultColumns.RESULTS);

  private final Path path;
  private final FileChannel channel;

  private ResultsFile(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /**
   * Opens {@code path} for appending after rewriting it with {@code keep} (the rows of complete
   * runs a resume keeps, possibly none) and a header.
   */
  public static ResultsFile create(Path path, List<ResultRow> keep) throws IOException {
    write(path, keep);
    FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    return new ResultsFile(path, ch);
  }

  public Path path() {
    return path;
  }

  /** Appends one run's rows as one write and forces them to disk. */
  public synchronized void append(List<ResultRow> rows) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (ResultRow r : rows) {
      sb.append(r.toCsv()).append('\n');
    }
    ByteBuffer buf = ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8));
    while (buf.hasRemaining()) {
      channel.write(buf);
    }
    channel.force(false);
  }

  @Override
  public synchronized void close() throws IOException {
    channel.close();
  }

  /** Writes {@code rows} with a header atomically (a temporary file moved over {@code path}). */
  public static void write(Path path, List<ResultRow> rows) throws IOException {
    Path abs = path.toAbsolutePath();
    Files.createDirectories(abs.getParent());
    Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
    StringBuilder sb = new StringBuilder(HEADER).append('\n');
    for (ResultRow r : rows) {
      sb.append(r.toCsv()).append('\n');
    }
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buf = ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8));
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    }
    Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * The rows of the complete runs in {@code path}, in file order. A trailing line without a line
   * terminator (a torn write) is dropped, and so are the rows of a run without its timing row. Any
   * other malformed line fails naming the file and line.
   */
  public static List<ResultRow> read(Path path) throws IOException {
    String text = Files.readString(path, StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    // the element after the last '\n' is "" for a complete file, else a torn line
    lines.remove(lines.size() - 1);
    if (lines.isEmpty()) {
      return List.of();
    }
    if (!lines.get(0).equals(HEADER)) {
      throw new IllegalArgumentException(
          path + ":1: not a memplan results file (header '" + lines.get(0) + "')");
    }
    Map<String, List<ResultRow>> byRun = new LinkedHashMap<>();
    Map<String, Boolean> complete = new LinkedHashMap<>();
    for (int i = 1; i < lines.size(); i++) {
      ResultRow r;
      try {
        r = ResultRow.parse(lines.get(i));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(path + ":" + (i + 1) + ": " + e.getMessage(), e);
      }
      byRun.computeIfAbsent(r.runKey(), k -> new ArrayList<>()).add(r);
      if (r.isTiming()) {
        complete.put(r.runKey(), true);
      }
    }
    List<ResultRow> out = new ArrayList<>();
    byRun.forEach(
        (k, rows) -> {
          if (complete.containsKey(k)) {
            out.addAll(rows);
          }
        });
    return out;
  }

  /** The rows sorted by run index; rows of one run keep their order. */
  public static List<ResultRow> sorted(List<ResultRow> rows) {
    List<ResultRow> s = new ArrayList<>(rows);
    s.sort(Comparator.comparingInt(ResultRow::run));
    return s;
  }

  /** {@link #read} for callers that cannot throw checked exceptions. */
  public static List<ResultRow> readUnchecked(Path path) {
    try {
      return read(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
