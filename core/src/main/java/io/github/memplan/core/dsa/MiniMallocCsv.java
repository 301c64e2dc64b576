package io.github.memplan.core.dsa;

import io.github.memplan.core.dataset.Datasets;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Reads and writes the CSV format of MiniMalloc (Moffitt, "MiniMalloc: A Lightweight Memory
 * Allocator for Hardware-Accelerated Machine Learning", ASPLOS 2023; {@code src/converter.cc},
 * {@code FromCsv}/{@code ToCsv}, google/minimalloc).
 *
 * <p>Format: a header row, then one buffer per line. Columns {@code id,lower,upper,size} are
 * required, {@code alignment}, {@code gaps} and {@code offset} optional, in any order. As in
 * MiniMalloc, the header aliases {@code buffer} and {@code buffer_id} mean {@code id}, {@code
 * begin} and {@code start} mean {@code lower}, and {@code end} means {@code upper} with
 * <em>inclusive</em> values: {@code upper = end + 1}, and gap uppers are shifted likewise. Gaps are
 * space-separated {@code lower-upper} or {@code lower-upper@wlo:whi} (see {@link Gap}).
 *
 * <p>Departures from MiniMalloc, all stricter or more tolerant of layout only: fields and header
 * names are trimmed; a UTF-8 byte-order mark and CRLF line ends are accepted; blank lines are
 * skipped (MiniMalloc stops reading at the first one); unknown columns are rejected (MiniMalloc
 * ignores them, which would hide a misspelt {@code offset}); and every malformed line is rejected
 * with a one-line {@link IllegalArgumentException} naming the source and the 1-based line number:
 * wrong field count, non-integer, negative lower or size, {@code upper <= lower}, alignment below
 * 1, malformed or misplaced gap, negative offset, duplicate id. In {@link #parse} an empty {@code
 * offset} field means "not fixed", so that instances with some pre-assigned buffers round-trip.
 *
 * <p>The writer emits MiniMalloc's own layout: header {@code id,lower,upper,size}, then {@code
 * alignment} only when some alignment is not 1, {@code gaps} only when some buffer has gaps, and
 * {@code offset} when a solution is given (else the fixed offsets, if any); {@code \n} line ends;
 * buffers in instance order. The output depends on nothing but its arguments.
 */
public final class MiniMallocCsv {
  private MiniMallocCsv() {}

  /**
   * An instance with a solution, as read from a CSV whose {@code offset} column holds the solution.
   *
   * @param instance the buffers, without fixed offsets
   * @param solution one offset per buffer, indexed like {@code instance.buffers()}
   */
  public record Solved(DsaInstance instance, DsaSolution solution) {
    public Solved {
      Objects.requireNonNull(instance, "instance");
      Objects.requireNonNull(solution, "solution");
      if (solution.size() != instance.size()) {
        throw new IllegalArgumentException(
            "solution has "
                + solution.size()
                + " offsets for "
                + instance.size()
                + " buffers of '"
                + instance.name()
                + "'");
      }
    }
  }

  private static final String ID = "id";
  private static final String LOWER = "lower";
  private static final String UPPER = "upper";
  private static final String SIZE = "size";
  private static final String ALIGNMENT = "alignment";
  private static final String GAPS = "gaps";
  private static final String OFFSET = "offset";
  private static final List<String> KNOWN_COLUMNS =
      List.of(
          ID,
          LOWER,
          UPPER,
          SIZE,
          ALIGNMENT,
          GAPS,
          OFFSET,
          "buffer",
          "buffer_id",
          "begin",
          "start",
          "end");

  private static final char BOM = '\uFEFF';

  // ---------------------------------------------------------------- reading

  /**
   * Reads an instance; an {@code offset} column becomes fixed offsets ({@link Buffer#fixedOffset}),
   * as MiniMalloc treats it. The instance is named after the file, without {@code .csv}, and is
   * unbounded.
   *
   * @throws IllegalArgumentException naming the file and line of the first malformed line
   * @throws IOException when the file cannot be read
   */
  public static DsaInstance readInstance(Path file) throws IOException {
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return parse(file.toString(), r);
    }
  }

  /**
   * Reads a shipped dataset's entry ({@link Datasets#resolve}) as {@link #readInstance(Path)} reads
   * a file: the instance is named after the entry's file ({@code A.1048576}).
   *
   * @throws IllegalArgumentException naming the entry and line of the first malformed line
   */
  public static DsaInstance readInstance(Datasets.Entry entry) throws IOException {
    try (Reader r = entry.reader()) {
      return parse(entry.source(), r);
    }
  }

  /**
   * Reads {@code fileOrReference}: a dataset reference {@code DATASET:ENTRY} ({@code minimalloc:A},
   * see {@link Datasets}) or a file, relative to {@code baseDir}.
   *
   * @throws IllegalArgumentException (one line) for an unknown dataset or entry, a missing file or
   *     a malformed line
   */
  public static DsaInstance readInstance(String fileOrReference, Path baseDir) throws IOException {
    if (Datasets.isReference(fileOrReference)) {
      return readInstance(Datasets.resolve(fileOrReference));
    }
    Path file = baseDir.resolve(fileOrReference);
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(
          file
              + (Files.isDirectory(file) ? ": a directory" : ": no such file or directory")
              + "; give a MiniMalloc CSV file or a shipped dataset's entry such as minimalloc:A"
              + " (memplan datasets list)");
    }
    return readInstance(file);
  }

  /**
   * Reads an instance and its solution from the {@code offset} column, which is required and must
   * be filled on every line. The instance has no fixed offsets.
   *
   * @throws IllegalArgumentException naming the file and line of the first malformed line
   * @throws IOException when the file cannot be read
   */
  public static Solved readSolved(Path file) throws IOException {
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return parseSolved(file.toString(), r);
    }
  }

  /**
   * Like {@link #readInstance}, from a reader; {@code sourceName} names the source in messages and,
   * without directories and {@code .csv}, names the instance.
   */
  public static DsaInstance parse(String sourceName, Reader reader) throws IOException {
    Parsed p = read(sourceName, reader, false);
    List<Buffer> buffers = new ArrayList<>(p.buffers.size());
    for (int i = 0; i < p.buffers.size(); i++) {
      Buffer b = p.buffers.get(i);
      buffers.add(p.offsets[i] >= 0 ? b.withFixedOffset(p.offsets[i]) : b);
    }
    return DsaInstance.of(instanceName(sourceName), buffers);
  }

  /** Like {@link #readSolved}, from a reader. */
  public static Solved parseSolved(String sourceName, Reader reader) throws IOException {
    Parsed p = read(sourceName, reader, true);
    return new Solved(
        DsaInstance.of(instanceName(sourceName), p.buffers), new DsaSolution(p.offsets));
  }

  /** Buffers and offsets as read; offset -1 when the field is empty or there is no column. */
  private record Parsed(List<Buffer> buffers, long[] offsets) {}

  /** Where a row's fields are; -1 for an absent optional column. */
  private record Header(
      int fieldCount,
      List<String> names,
      int id,
      int lower,
      int upper,
      int size,
      int alignment,
      int gaps,
      int offset,
      boolean inclusiveEnd) {

    String name(int column) {
      return names.get(column);
    }
  }

  private static Parsed read(String source, Reader reader, boolean offsetsRequired)
      throws IOException {
    Objects.requireNonNull(source, "sourceName");
    BufferedReader in =
        reader instanceof BufferedReader br
            ? br
            : new BufferedReader(Objects.requireNonNull(reader));
    Header header = null;
    List<Buffer> buffers = new ArrayList<>();
    List<Long> offsets = new ArrayList<>();
    Map<String, Integer> lineOfId = new HashMap<>();
    int lineNo = 0;
    String line;
    while ((line = in.readLine()) != null) {
      lineNo++;
      if (lineNo == 1 && !line.isEmpty() && line.charAt(0) == BOM) {
        line = line.substring(1);
      }
      if (line.isBlank()) {
        continue;
      }
      if (header == null) {
        header = header(source, lineNo, line, offsetsRequired);
        continue;
      }
      Row row = row(source, lineNo, line, header, offsetsRequired);
      Integer first = lineOfId.putIfAbsent(row.buffer.id(), lineNo);
      if (first != null) {
        throw error(
            source, lineNo, "duplicate id '" + row.buffer.id() + "' (first on line " + first + ")");
      }
      buffers.add(row.buffer);
      offsets.add(row.offset);
    }
    if (header == null) {
      throw new IllegalArgumentException(
          source + ": no header row (expected columns id,lower,upper,size)");
    }
    long[] offs = new long[offsets.size()];
    for (int i = 0; i < offs.length; i++) {
      offs[i] = offsets.get(i);
    }
    return new Parsed(buffers, offs);
  }

  private static Header header(String source, int lineNo, String line, boolean offsetsRequired) {
    String[] raw = line.split(",", -1);
    List<String> names = new ArrayList<>(raw.length);
    Map<String, Integer> columnOf = new LinkedHashMap<>();
    boolean inclusiveEnd = false;
    for (int i = 0; i < raw.length; i++) {
      String name = raw[i].strip();
      names.add(name);
      if (name.isEmpty()) {
        throw error(source, lineNo, "header column " + (i + 1) + " has no name");
      }
      String canonical =
          switch (name) {
            case "buffer", "buffer_id" -> ID;
            case "begin", "start" -> LOWER;
            case "end" -> UPPER;
            default -> name;
          };
      if (!KNOWN_COLUMNS.contains(canonical)) {
        throw error(
            source,
            lineNo,
            "unknown column '" + name + "' (known: " + String.join(", ", KNOWN_COLUMNS) + ")");
      }
      if (name.equals("end")) {
        inclusiveEnd = true;
      }
      Integer prev = columnOf.putIfAbsent(canonical, i);
      if (prev != null) {
        String what =
            names.get(prev).equals(name)
                ? "duplicate column '" + name + "'"
                : "duplicate column '"
                    + canonical
                    + "' (both '"
                    + names.get(prev)
                    + "' and '"
                    + name
                    + "')";
        throw error(source, lineNo, what);
      }
    }
    for (String required : List.of(ID, LOWER, UPPER, SIZE)) {
      if (!columnOf.containsKey(required)) {
        throw error(
            source,
            lineNo,
            "missing required column '"
                + required
                + "' (header needs id, lower, upper, size; found "
                + String.join(",", names)
                + ")");
      }
    }
    if (offsetsRequired && !columnOf.containsKey(OFFSET)) {
      throw error(source, lineNo, "no 'offset' column: the file holds no solution");
    }
    return new Header(
        raw.length,
        List.copyOf(names),
        columnOf.get(ID),
        columnOf.get(LOWER),
        columnOf.get(UPPER),
        columnOf.get(SIZE),
        columnOf.getOrDefault(ALIGNMENT, -1),
        columnOf.getOrDefault(GAPS, -1),
        columnOf.getOrDefault(OFFSET, -1),
        inclusiveEnd);
  }

  private record Row(Buffer buffer, long offset) {}

  private static Row row(
      String source, int lineNo, String line, Header h, boolean offsetsRequired) {
    String[] f = line.split(",", -1);
    if (f.length != h.fieldCount()) {
      throw error(
          source,
          lineNo,
          "expected "
              + h.fieldCount()
              + " fields ("
              + String.join(",", h.names())
              + "), found "
              + f.length);
    }
    for (int i = 0; i < f.length; i++) {
      f[i] = f[i].strip();
    }
    String id = f[h.id()];
    if (id.isEmpty()) {
      throw error(source, lineNo, "empty " + h.name(h.id()));
    }
    long lower = integer(source, lineNo, h.name(h.lower()), f[h.lower()]);
    long rawUpper = integer(source, lineNo, h.name(h.upper()), f[h.upper()]);
    long size = integer(source, lineNo, h.name(h.size()), f[h.size()]);
    if (lower < 0) {
      throw error(source, lineNo, h.name(h.lower()) + " " + lower + " is negative");
    }
    long addend = h.inclusiveEnd() ? 1 : 0;
    long upper = rawUpper + addend;
    if (upper <= lower) {
      throw error(
          source,
          lineNo,
          h.inclusiveEnd()
              ? "end " + rawUpper + " is before " + h.name(h.lower()) + " " + lower
              : h.name(h.upper()) + " " + rawUpper + " must be greater than lower " + lower);
    }
    if (upper > Integer.MAX_VALUE) {
      throw error(
          source,
          lineNo,
          h.name(h.upper()) + " " + rawUpper + " is beyond the largest timestep supported");
    }
    if (size < 0) {
      throw error(source, lineNo, h.name(h.size()) + " " + size + " is negative");
    }
    long alignment = 1;
    if (h.alignment() >= 0) {
      alignment = integer(source, lineNo, ALIGNMENT, f[h.alignment()]);
      if (alignment < 1) {
        throw error(source, lineNo, "alignment " + alignment + " must be at least 1");
      }
    }
    List<Gap> gaps = h.gaps() >= 0 ? gaps(source, lineNo, f[h.gaps()], addend) : List.of();
    long offset = -1;
    if (h.offset() >= 0) {
      String o = f[h.offset()];
      if (!o.isEmpty() || offsetsRequired) {
        offset = integer(source, lineNo, OFFSET, o);
        if (offset < 0) {
          throw error(source, lineNo, "offset " + offset + " is negative");
        }
      }
    }
    try {
      Buffer b =
          new Buffer(id, (int) lower, (int) upper, size, alignment, gaps, OptionalLong.empty());
      return new Row(b, offset);
    } catch (IllegalArgumentException e) {
      throw error(source, lineNo, e.getMessage());
    }
  }

  private static List<Gap> gaps(String source, int lineNo, String field, long addend) {
    List<Gap> gaps = new ArrayList<>();
    for (String g : field.split(" ")) {
      if (g.isEmpty()) {
        continue;
      }
      String span = g;
      String window = null;
      int at = g.indexOf('@');
      if (at >= 0) {
        span = g.substring(0, at);
        window = g.substring(at + 1);
      }
      long[] lohi = pair(span, '-');
      long[] win = window == null ? null : pair(window, ':');
      if (lohi == null || (window != null && win == null)) {
        throw error(
            source,
            lineNo,
            "gap '" + g + "' is not of the form lower-upper or lower-upper@from:to");
      }
      long gapUpper = lohi[1] + addend;
      if (lohi[0] > Integer.MAX_VALUE || gapUpper > Integer.MAX_VALUE) {
        throw error(source, lineNo, "gap '" + g + "' ends beyond the largest timestep supported");
      }
      try {
        gaps.add(
            win == null
                ? Gap.empty((int) lohi[0], (int) gapUpper)
                : new Gap((int) lohi[0], (int) gapUpper, win[0], win[1]));
      } catch (IllegalArgumentException e) {
        throw error(source, lineNo, "gap '" + g + "': " + e.getMessage());
      }
    }
    return gaps;
  }

  /** Two non-negative integers separated by {@code sep}, or {@code null}. */
  private static long[] pair(String s, char sep) {
    int i = s.indexOf(sep);
    if (i <= 0 || i == s.length() - 1 || s.indexOf(sep, i + 1) >= 0) {
      return null;
    }
    try {
      long a = Long.parseLong(s.substring(0, i));
      long b = Long.parseLong(s.substring(i + 1));
      return a < 0 || b < 0 ? null : new long[] {a, b};
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static long integer(String source, int lineNo, String column, String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw error(source, lineNo, column + " '" + value + "' is not an integer");
    }
  }

  private static IllegalArgumentException error(String source, int lineNo, String message) {
    return new IllegalArgumentException(source + ":" + lineNo + ": " + message);
  }

  /** {@code dir/A.1048576.csv} → {@code A.1048576}. */
  static String instanceName(String sourceName) {
    String name = sourceName;
    int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
    if (slash >= 0) {
      name = name.substring(slash + 1);
    }
    if (name.regionMatches(true, name.length() - 4, ".csv", 0, 4) && name.length() > 4) {
      name = name.substring(0, name.length() - 4);
    }
    return name;
  }

  // ---------------------------------------------------------------- writing

  /**
   * Writes {@code instance} in MiniMalloc's layout, with {@code solution}'s offsets in an {@code
   * offset} column, or, when {@code solution} is {@code null}, the fixed offsets if any buffer has
   * one (an empty field for those that have none). Everything is checked before the first character
   * is written. The writer is flushed, not closed.
   *
   * @throws IllegalArgumentException when the solution does not fit the instance, or an id cannot
   *     be written (it holds a comma or a line break, or has surrounding whitespace)
   */
  public static void write(DsaInstance instance, DsaSolution solutionOrNull, Writer out)
      throws IOException {
    out.write(format(instance, solutionOrNull));
    out.flush();
  }

  /**
   * Writes like {@link #write(DsaInstance, DsaSolution, Writer)} to {@code file}, atomically: the
   * text goes to a temporary file in the same directory, which then replaces {@code file}. On
   * failure {@code file} is left as it was and the temporary file is removed.
   */
  public static void write(DsaInstance instance, DsaSolution solutionOrNull, Path file)
      throws IOException {
    String text = format(instance, solutionOrNull);
    Path target = file.toAbsolutePath();
    Path dir = target.getParent();
    Path tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
    try {
      if (Files.getFileStore(tmp).supportsFileAttributeView("posix")) {
        // createTempFile makes the file private; a plan is an ordinary output file
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
      }
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException | RuntimeException e) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** The whole CSV text; checks everything first. */
  static String format(DsaInstance instance, DsaSolution solutionOrNull) {
    Objects.requireNonNull(instance, "instance");
    if (solutionOrNull != null && solutionOrNull.size() != instance.size()) {
      throw new IllegalArgumentException(
          "solution has "
              + solutionOrNull.size()
              + " offsets for "
              + instance.size()
              + " buffers of '"
              + instance.name()
              + "'");
    }
    boolean alignment = false;
    boolean gaps = false;
    boolean fixed = false;
    for (Buffer b : instance.buffers()) {
      String id = b.id();
      if (id.indexOf(',') >= 0
          || id.indexOf('\n') >= 0
          || id.indexOf('\r') >= 0
          || !id.strip().equals(id)
          || id.indexOf(BOM) >= 0) {
        throw new IllegalArgumentException(
            "buffer id '"
                + id.replace("\n", "\\n").replace("\r", "\\r")
                + "' of '"
                + instance.name()
                + "' cannot be written to CSV (comma, line break or surrounding whitespace)");
      }
      alignment |= b.alignment() != 1;
      gaps |= !b.gaps().isEmpty();
      fixed |= b.fixedOffset().isPresent();
    }
    boolean offsets = solutionOrNull != null || fixed;
    StringBuilder sb = new StringBuilder(32 * (instance.size() + 1));
    sb.append("id,lower,upper,size");
    if (alignment) {
      sb.append(",alignment");
    }
    if (gaps) {
      sb.append(",gaps");
    }
    if (offsets) {
      sb.append(",offset");
    }
    sb.append('\n');
    for (int i = 0; i < instance.size(); i++) {
      Buffer b = instance.buffer(i);
      sb.append(b.id()).append(',').append(b.lower()).append(',').append(b.upper());
      sb.append(',').append(b.size());
      if (alignment) {
        sb.append(',').append(b.alignment());
      }
      if (gaps) {
        sb.append(',');
        for (int g = 0; g < b.gaps().size(); g++) {
          Gap gap = b.gaps().get(g);
          if (g > 0) {
            sb.append(' ');
          }
          sb.append(gap.lower()).append('-').append(gap.upper());
          if (gap.hasWindow()) {
            sb.append('@').append(gap.windowLower()).append(':').append(gap.windowUpper());
          }
        }
      }
      if (offsets) {
        sb.append(',');
        if (solutionOrNull != null) {
          sb.append(solutionOrNull.offset(i));
        } else if (b.fixedOffset().isPresent()) {
          sb.append(b.fixedOffset().getAsLong());
        }
      }
      sb.append('\n');
    }
    return sb.toString();
  }
}
