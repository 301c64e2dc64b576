package io.github.memplan.core.solve;

import io.github.memplan.core.io.InputText;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration syntax of memplan, for the CLI's options, suite budgets and planner parameters:
 * {@code 500ms}, {@code 60s}, {@code 2m}, {@code 1h} (digits and a lower-case unit, no space), an
 * ISO-8601 duration in either case ({@code PT1M}, {@code pt1.5s}), or {@code none}.
 */
public final class Durations {
  private Durations() {}

  private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h)");

  /**
   * The duration {@code text} names, zero included, or {@code null} for {@code none} (any case); a
   * negative, malformed or too long one is an {@link IllegalArgumentException} of one line.
   */
  public static Duration parse(String text) {
    String s = text.strip();
    if (s.equalsIgnoreCase("none")) {
      return null;
    }
    Matcher m = SHORT.matcher(s);
    Duration d;
    if (m.matches()) {
      try {
        long n = Long.parseLong(m.group(1));
        d =
            switch (m.group(2)) {
              case "ms" -> Duration.ofMillis(n);
              case "s" -> Duration.ofSeconds(n);
              case "m" -> Duration.ofMinutes(n);
              default -> Duration.ofHours(n);
            };
      } catch (NumberFormatException | ArithmeticException e) {
        // more digits than a long, or more minutes or hours than a Duration's seconds hold
        throw new IllegalArgumentException(InputText.quote(text) + " is too long a duration");
      }
    } else {
      try {
        d = Duration.parse(s.toUpperCase(Locale.ROOT));
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            InputText.quote(text) + " is not a duration (e.g. 500ms, 60s, 2m, 1h, PT1M or none)");
      }
    }
    if (d.isNegative()) {
      throw new IllegalArgumentException(InputText.quote(text) + " is a negative duration");
    }
    return d;
  }
}
