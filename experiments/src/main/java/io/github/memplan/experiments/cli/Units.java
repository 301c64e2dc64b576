package io.github.memplan.experiments.cli;

import io.github.memplan.core.io.ByteSizes;
import io.github.memplan.core.solve.Durations;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parsing and printing of durations and byte sizes for the command line. */
public final class Units {
  private Units() {}

  /**
   * A duration in memplan's one syntax ({@link Durations#parse}: {@code 500ms}, {@code 60s}, {@code
   * 2m}, {@code 1h}, ISO-8601 {@code PT1M}), or {@code none} for no time limit ({@code null}).
   */
  public static Duration parseDuration(String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }

  /** {@link ByteSizes#parse}, failing as a picocli conversion error. */
  public static long parseSize(String text) {
    try {
      return ByteSizes.parse(text);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }

  /** {@code 1536} → {@code 1.50 KiB}, {@code 2048} → {@code 2 KiB}; below 1 KiB, {@code 512 B}. */
  public static String humanBytes(long bytes) {
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    if (Math.abs(bytes) < 1024) {
      return bytes + " B";
    }
    int u = 0;
    while (u < units.length - 1 && Math.abs(bytes) >= 1L << (10 * (u + 2))) {
      u++;
    }
    long unit = 1L << (10 * (u + 1));
    return bytes % unit == 0
        ? (bytes / unit) + " " + units[u]
        : String.format(Locale.ROOT, "%.2f %s", (double) bytes / unit, units[u]);
  }

  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return parseDuration(value);
    }
  }

  static final class SizeConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      return parseSize(value);
    }
  }
}
