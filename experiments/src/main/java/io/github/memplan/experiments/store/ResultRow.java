package io.github.memplan.experiments.store;

import io.github.memplan.core.solve.Direction;
import io.github.memplan.experiments.measure.RunStatus;
import java.math.BigDecimal;
import java.util.List;
import java.util.OptionalDouble;

/**
 * One row of results.csv: one metric of one run.
 *
 * @param suite the suite's name
 * @param problem the problem kind ({@code gmem}, {@code dsa}, {@code device}, ...)
 * @param instance the instance's name
 * @param planner the planner's label (its id unless the suite gives a label)
 * @param params the resolved parameters, canonical {@code k=v;k=v} sorted by key
 * @param seed the run's seed
 * @param replicate the replicate number, from 0
 * @param status how the run ended
 * @param metric the metric id
 * @param value the value as written (see {@link #format}), empty when the run has none
 * @param unit the metric's unit
 * @param direction which way the metric improves ({@code lower} or {@code higher} in the file)
 * @param run the run's index in the suite's expansion
 * @param message why an {@code ERROR} or {@code TIMEOUT} run failed, else empty
 */
public record ResultRow(
    String suite,
    String problem,
    String instance,
    String planner,
    String params,
    long seed,
    int replicate,
    RunStatus status,
    String metric,
    String value,
    String unit,
    Direction direction,
    int run,
    String message) {

  public ResultRow {
    value = value == null ? "" : value;
    message = message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  /** Whether this is the timing row, the only one that differs between identical runs. */
  public boolean isTiming() {
    return metric.equals(ResultColumns.TIME_METRIC);
  }

  /** The row's CSV line (no line terminator). */
  public String toCsv() {
    return Csv.line(
        List.of(
            suite,
            problem,
            instance,
            planner,
            params,
            Long.toString(seed),
            Integer.toString(replicate),
            status.name(),
            metric,
            value,
            unit,
            directionName(direction),
            Integer.toString(run),
            message));
  }

  /** Parses one line; throws {@link IllegalArgumentException} saying what is wrong. */
  public static ResultRow parse(String line) {
    List<String> f = Csv.fields(line);
    if (f.size() != ResultColumns.RESULTS.size()) {
      throw new IllegalArgumentException(
          "expected " + ResultColumns.RESULTS.size() + " fields, found " + f.size());
    }
    try {
      return new ResultRow(
          f.get(0),
          f.get(1),
          f.get(2),
          f.get(3),
          f.get(4),
          Long.parseLong(f.get(5)),
          Integer.parseInt(f.get(6)),
          RunStatus.parse(f.get(7)),
          f.get(8),
          f.get(9),
          f.get(10),
          direction(f.get(11), f.get(8)),
          Integer.parseInt(f.get(12)),
          f.get(13));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad number: " + e.getMessage(), e);
    }
  }

  /** {@code lower} or {@code higher}, as results.csv writes a direction. */
  public static String directionName(Direction d) {
    return d == Direction.LOWER_IS_BETTER ? "lower" : "higher";
  }

  /**
   * The direction results.csv calls {@code text}.
   *
   * @throws IllegalArgumentException for anything but {@code lower} and {@code higher}
   */
  public static Direction parseDirection(String text) {
    return switch (text) {
      case "lower" -> Direction.LOWER_IS_BETTER;
      case "higher" -> Direction.HIGHER_IS_BETTER;
      default ->
          throw new IllegalArgumentException(
              "direction '" + text + "' is neither lower nor higher");
    };
  }

  private static Direction direction(String text, String metric) {
    try {
      return parseDirection(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "direction '" + text + "' of metric '" + metric + "' is neither lower nor higher", e);
    }
  }

  /** The metric's value, NaN when the run has none. */
  public double number() {
    return value.isEmpty() ? Double.NaN : Double.parseDouble(value);
  }

  /** The key of the run this row belongs to: equal for all rows of one run. */
  public String runKey() {
    return String.join(
        "|", "" + run, problem, instance, planner, Long.toString(seed), "" + replicate);
  }

  /**
   * A value as written: integral values without a fraction or exponent, others in plain decimal
   * notation with the shortest digits that round-trip; empty for none.
   */
  public static String format(OptionalDouble value) {
    if (value.isEmpty()) {
      return "";
    }
    double v = value.getAsDouble();
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return Double.toString(v);
    }
    if (v == Math.rint(v) && Math.abs(v) < 0x1p53) {
      return Long.toString((long) v);
    }
    return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }
}
