package io.github.memplan.core.solve;

import java.util.OptionalDouble;

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
}
