package io.github.memplan.core.io;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte sizes as users write them, in the CLI, suites and traces: memplan's one size syntax. */
public final class ByteSizes {
  private ByteSizes() {}

  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB|TiB)?");

  /**
   * Plain bytes, or a number with a binary unit: {@code KiB}, {@code MiB}, {@code GiB}, {@code
   * TiB}. Decimal units ({@code GB}) are refused rather than guessed.
   */
  public static long parse(String text) {
    String s = text.strip();
    Matcher m = SIZE.matcher(s);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          InputText.quote(text) + " is not a size (bytes, or a number with KiB, MiB, GiB or TiB)");
    }
    int shift =
        m.group(2) == null
            ? 0
            : switch (m.group(2)) {
              case "KiB" -> 10;
              case "MiB" -> 20;
              case "GiB" -> 30;
              case "TiB" -> 40;
              default -> 0;
            };
    try {
      long n = Long.parseLong(m.group(1));
      if (n > (Long.MAX_VALUE >> shift)) {
        throw new NumberFormatException();
      }
      return n << shift;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(InputText.quote(text) + " is too large a size");
    }
  }
}
