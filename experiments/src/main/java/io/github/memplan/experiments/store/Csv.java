package io.github.memplan.experiments.store;

import java.util.ArrayList;
import java.util.List;

/** RFC 4180 fields on one physical line (memplan never writes line breaks inside a field). */
public final class Csv {
  private Csv() {}

  /** The fields joined by commas, quoted where RFC 4180 needs it; line breaks become spaces. */
  public static String line(List<String> fields) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      String f = fields.get(i) == null ? "" : fields.get(i).replaceAll("\\R", " ");
      if (f.indexOf(',') >= 0 || f.indexOf('"') >= 0 || !f.equals(f.strip())) {
        sb.append('"').append(f.replace("\"", "\"\"")).append('"');
      } else {
        sb.append(f);
      }
    }
    return sb.toString();
  }

  /** The fields of one line; throws {@link IllegalArgumentException} on an unclosed quote. */
  public static List<String> fields(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder f = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"') {
          if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
            f.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else {
          f.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        out.add(f.toString());
        f.setLength(0);
      } else {
        f.append(c);
      }
    }
    if (quoted) {
      throw new IllegalArgumentException("unclosed quote");
    }
    out.add(f.toString());
    return out;
  }
}
