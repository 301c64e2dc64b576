package io.github.memplan.datasets.darknet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A darknet {@code .cfg} file as darknet reads it: {@code [section]} headers, each followed by
 * {@code key=value} options (pjreddie/darknet {@code src/parser.c}, {@code read_cfg}, and {@code
 * src/option_list.c}, {@code read_option}/{@code option_find}).
 *
 * <p>As in darknet, all whitespace in a line is removed before it is read (so {@code batch = 1} is
 * {@code batch=1}), lines that are empty or start with {@code #} or {@code ;} are comments, and a
 * key given twice keeps its first value. Numbers are read like C's {@code atoi}/{@code atof}: the
 * longest numeric prefix counts ({@code 255#comment} is 255). Departures: a value without any
 * numeric prefix is an error here (darknet reads it as 0), and an option line without {@code =} is
 * an error naming the line (darknet reports it and goes on).
 *
 * @param source the file name used in messages
 * @param sections the sections in file order
 */
public record DarknetCfg(String source, List<Section> sections) {
  public DarknetCfg {
    sections = List.copyOf(sections);
  }

  /** One {@code key=value} line. */
  public record Option(String key, String value, int line) {}

  /**
   * A {@code [type]} section.
   *
   * @param type the name between the brackets, lower-cased
   * @param line the 1-based line of the header
   * @param options the options in file order
   * @param source the file name used in messages
   */
  public record Section(String type, int line, List<Option> options, String source) {
    public Section {
      options = List.copyOf(options);
    }

    /** {@code yolov3.cfg:12: [convolutional]}: how messages name a section. */
    public String where() {
      return source + ":" + line + ": [" + type + "]";
    }

    /** An error naming the file, the line of {@code key} (or of the header) and the section. */
    public IllegalArgumentException fail(String key, String message) {
      Option o = key == null ? null : find(key);
      int at = o == null ? line : o.line();
      return new IllegalArgumentException(
          source + ":" + at + ": [" + type + "]" + (o == null ? "" : " " + key) + ": " + message);
    }

    public boolean has(String key) {
      return find(key) != null;
    }

    /** The first option named {@code key}, or {@code null}. */
    public Option find(String key) {
      for (Option o : options) {
        if (o.key().equals(key)) {
          return o;
        }
      }
      return null;
    }

    public String string(String key, String defaultValue) {
      Option o = find(key);
      return o == null ? defaultValue : o.value();
    }

    public long integer(String key, long defaultValue) {
      Option o = find(key);
      return o == null ? defaultValue : atoi(o);
    }

    /** A required integer; darknet's {@code option_find_int} with no sensible default. */
    public long integer(String key) {
      Option o = find(key);
      if (o == null) {
        throw fail(null, "option '" + key + "' is required");
      }
      return atoi(o);
    }

    public double real(String key, double defaultValue) {
      Option o = find(key);
      return o == null ? defaultValue : atof(o);
    }

    /** A comma-separated list of integers, such as route's {@code layers=-1,61}. */
    public long[] integers(String key) {
      Option o = find(key);
      if (o == null) {
        throw fail(null, "option '" + key + "' is required");
      }
      String[] parts = o.value().split(",", -1);
      long[] out = new long[parts.length];
      for (int i = 0; i < parts.length; i++) {
        out[i] = atoi(new Option(key, parts[i], o.line()));
      }
      return out;
    }

    private long atoi(Option o) {
      String v = o.value();
      int end = 0;
      if (end < v.length() && (v.charAt(end) == '-' || v.charAt(end) == '+')) {
        end++;
      }
      int digits = end;
      while (end < v.length() && Character.isDigit(v.charAt(end))) {
        end++;
      }
      if (end == digits) {
        throw fail(o.key(), "'" + v + "' is not an integer");
      }
      try {
        return Long.parseLong(v.substring(0, end));
      } catch (NumberFormatException e) {
        throw fail(o.key(), "'" + v + "' is out of range");
      }
    }

    private double atof(Option o) {
      String v = o.value();
      // the longest prefix that parses as a decimal number, as strtod would take it
      for (int end = v.length(); end > 0; end--) {
        String p = v.substring(0, end);
        if (p.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
          return Double.parseDouble(p);
        }
      }
      throw fail(o.key(), "'" + v + "' is not a number");
    }
  }

  /** Reads {@code file}; messages name it as given. */
  public static DarknetCfg read(Path file) throws IOException {
    return parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
  }

  /** Parses cfg text; {@code source} names it in messages. */
  public static DarknetCfg parse(String source, String text) {
    List<Section> sections = new ArrayList<>();
    String type = null;
    int headerLine = 0;
    List<Option> options = new ArrayList<>();
    String[] lines = text.split("\\R", -1);
    for (int i = 0; i < lines.length; i++) {
      int lineNo = i + 1;
      String line = lines[i].replaceAll("\\s+", "");
      if (i == 0 && line.startsWith("\uFEFF")) {
        line = line.substring(1);
      }
      if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
        continue;
      }
      if (line.startsWith("[")) {
        int close = line.indexOf(']');
        if (close < 0) {
          throw new IllegalArgumentException(
              source + ":" + lineNo + ": section header '" + line + "' has no closing ']'");
        }
        if (type != null) {
          sections.add(new Section(type, headerLine, options, source));
        }
        type = line.substring(1, close).toLowerCase(Locale.ROOT);
        headerLine = lineNo;
        options = new ArrayList<>();
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            source + ":" + lineNo + ": expected key=value or [section], got '" + line + "'");
      }
      if (type == null) {
        throw new IllegalArgumentException(
            source + ":" + lineNo + ": option '" + line + "' before the first [section]");
      }
      options.add(new Option(line.substring(0, eq), line.substring(eq + 1), lineNo));
    }
    if (type != null) {
      sections.add(new Section(type, headerLine, options, source));
    }
    if (sections.isEmpty()) {
      throw new IllegalArgumentException(source + ":1: no sections (is this a darknet .cfg?)");
    }
    return new DarknetCfg(source, sections);
  }
}
