package io.github.memplan.experiments.stats;

import io.github.memplan.core.solve.Direction;
import java.util.Arrays;
import java.util.Comparator;

/** Ranks within one block (one instance): 1 is the best, tied values share their mid-rank. */
public final class Ranks {
  private Ranks() {}

  /**
   * Mid-ranks of {@code values}, rank 1 the best by {@code direction}; equal values get the mean of
   * the ranks they span (e.g. two values tied for second place both get 2.5).
   */
  public static double[] midRanks(double[] values, Direction direction) {
    int n = values.length;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      if (Double.isNaN(values[i])) {
        throw new IllegalArgumentException("cannot rank NaN (value " + i + ")");
      }
      order[i] = i;
    }
    Comparator<Integer> byValue = Comparator.comparingDouble(i -> values[i]);
    Arrays.sort(order, direction == Direction.LOWER_IS_BETTER ? byValue : byValue.reversed());
    double[] ranks = new double[n];
    int i = 0;
    while (i < n) {
      int j = i;
      while (j + 1 < n && values[order[j + 1]] == values[order[i]]) {
        j++;
      }
      double mid = (i + j) / 2.0 + 1.0;
      for (int t = i; t <= j; t++) {
        ranks[order[t]] = mid;
      }
      i = j + 1;
    }
    return ranks;
  }

  /**
   * Mean rank of each treatment (column) over the blocks (rows) of {@code data}, ranked within each
   * row by {@link #midRanks}.
   */
  public static double[] meanRanks(double[][] data, Direction direction) {
    int k = Friedman.columns(data);
    double[] sum = new double[k];
    for (double[] row : data) {
      double[] r = midRanks(row, direction);
      for (int j = 0; j < k; j++) {
        sum[j] += r[j];
      }
    }
    for (int j = 0; j < k; j++) {
      sum[j] /= data.length;
    }
    return sum;
  }
}
