package io.github.memplan.experiments.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a command prints: labelled lines for people, or one JSON object for programs. */
final class CommandOutput {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, Object> fields = new LinkedHashMap<>();
  private final List<String[]> lines = new ArrayList<>();

  /** A field of both views. */
  CommandOutput add(String key, String label, Object value, String text) {
    fields.put(key, value);
    if (text != null) {
      lines.add(new String[] {label, text});
    }
    return this;
  }

  /** A field of the JSON view only. */
  CommandOutput json(String key, Object value) {
    fields.put(key, value);
    return this;
  }

  void print(PrintWriter out, boolean asJson) {
    if (asJson) {
      try {
        out.println(JSON.writeValueAsString(fields));
      } catch (JsonProcessingException e) {
        throw new UncheckedIOException(e);
      }
    } else {
      int width = 0;
      for (String[] l : lines) {
        width = Math.max(width, l[0].length());
      }
      for (String[] l : lines) {
        out.println(l[0] + " ".repeat(width - l[0].length() + 2) + l[1]);
      }
    }
    out.flush();
  }

  /** A byte count as the reports print it: {@code 5419008 B (5.17 MiB)}, plain below 1 KiB. */
  static String bytes(long n) {
    return n < 1024 ? n + " B" : n + " B (" + Units.humanBytes(n) + ")";
  }
}
