package io.github.memplan.core.io;

/**
 * Input text quoted for a one-line error message: a value read from a user's file or argument may
 * hold line breaks, control characters or be very long, and an error echoing it must still be one
 * readable line.
 */
public final class InputText {
  private InputText() {}

  /** Longest value echoed in full; a longer one is cut and marked with {@code ...}. */
  static final int MAX_ECHOED = 80;

  /**
   * {@code value} in single quotes with line breaks, tabs and other control characters escaped
   * ({@code \n}, {@code \r}, {@code \t}, {@code \}{@code u001b}), cut after {@value #MAX_ECHOED}
   * characters.
   */
  public static String quote(String value) {
    StringBuilder sb = new StringBuilder(Math.min(value.length(), MAX_ECHOED) + 8).append('\'');
    int n = Math.min(value.length(), MAX_ECHOED);
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (isControl(c)) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    if (value.length() > n) {
      sb.append("...");
    }
    return sb.append('\'').toString();
  }

  /**
   * A library's message (a parser's, say) on one line: each line break with the blanks around it
   * becomes one space.
   */
  public static String oneLine(String message) {
    return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  /**
   * Whether {@code s} holds a line break or another control character, which no name or key that
   * memplan reads may hold: a JSON string can carry them escaped, and every message echoing the
   * name would span lines.
   */
  public static boolean hasControl(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (isControl(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isControl(char c) {
    return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
  }
}
