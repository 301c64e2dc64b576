package io.github.memplan.core.solve;

import java.util.List;

/** Supplies the metrics of one problem; registered in {@code META-INF/services}. */
public interface MetricProvider<I, S> {
  Class<I> instanceType();

  List<Metric<I, S>> metrics();
}
