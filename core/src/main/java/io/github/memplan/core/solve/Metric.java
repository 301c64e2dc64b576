package io.github.memplan.core.solve;

import java.util.Objects;
import java.util.OptionalDouble;
import java.util.function.BiFunction;

/**
 * A number measured on one run: its id, unit, direction and how to read it from an instance and an
 * outcome. Registered through {@link MetricProvider}.
 *
 * @param <I> the instance type
 * @param <S> the solution type
 */
public interface Metric<I, S> {
  /** Stable kebab-case id, e.g. {@code peak-bytes}. */
  String id();

  /** Unit, e.g. {@code bytes}, {@code ratio}, {@code ms}. */
  String unit();

  Direction direction();

  /** The value, or empty when this run has none (e.g. no solution). */
  OptionalDouble value(I instance, Outcome<S> outcome);

  /** A metric computed by {@code fn}. */
  static <I, S> Metric<I, S> of(
      String id, String unit, Direction direction, BiFunction<I, Outcome<S>, OptionalDouble> fn) {
    Objects.requireNonNull(fn, "fn");
    return new Metric<>() {
      @Override
      public String id() {
        return id;
      }

      @Override
      public String unit() {
        return unit;
      }

      @Override
      public Direction direction() {
        return direction;
      }

      @Override
      public OptionalDouble value(I instance, Outcome<S> outcome) {
        return fn.apply(instance, outcome);
      }
    };
  }
}
