package io.github.memplan.experiments.stats;

import io.github.memplan.core.solve.Direction;
import org.apache.commons.statistics.descriptive.Quantile;

/**
 * Descriptive summaries: median and IQR over replicates, geometric-mean ratios, wins/ties/losses.
 */
public final class Summaries {
  private Summaries() {}

  /**
   * Quantiles by Hyndman and Fan's definition 7 (linear interpolation between order statistics: R's
   * and pandas' default), so that the notebooks print the same medians and IQRs.
   */
  private static final Quantile QUANTILE =
      Quantile.withDefaults().with(Quantile.EstimationMethod.HF7);

  /** Median, first and third quartile of a sample. */
  public record Spread(double median, double q1, double q3, int n) {
    public double iqr() {
      return q3 - q1;
    }
  }

  public static Spread spread(double[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("empty sample");
    }
    double[] q = QUANTILE.evaluate(values, 0.5, 0.25, 0.75);
    return new Spread(q[0], q[1], q[2], values.length);
  }

  /**
   * Geometric mean of {@code a[i] / b[i]}: exp(mean(ln a - ln b)). Every value must be positive (a
   * ratio with a zero is undefined).
   */
  public static double geometricMeanRatio(double[] a, double[] b) {
    if (a.length != b.length || a.length == 0) {
      throw new IllegalArgumentException("need paired non-empty samples");
    }
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      if (!(a[i] > 0) || !(b[i] > 0)) {
        throw new IllegalArgumentException(
            "geometric mean ratio needs positive values, got " + a[i] + " / " + b[i]);
      }
      sum += Math.log(a[i]) - Math.log(b[i]);
    }
    return Math.exp(sum / a.length);
  }

  /** Counts of instances where a planner is better, equal or worse than the baseline. */
  public record WinsTiesLosses(int wins, int ties, int losses) {
    @Override
    public String toString() {
      return wins + "/" + ties + "/" + losses;
    }
  }

  /** Wins/ties/losses of {@code planner[i]} against {@code baseline[i]}, exact comparison. */
  public static WinsTiesLosses winsTiesLosses(
      double[] planner, double[] baseline, Direction direction) {
    if (planner.length != baseline.length) {
      throw new IllegalArgumentException("need paired samples");
    }
    int w = 0;
    int t = 0;
    int l = 0;
    for (int i = 0; i < planner.length; i++) {
      int c = Double.compare(planner[i], baseline[i]);
      if (c == 0) {
        t++;
      } else if ((c < 0) == (direction == Direction.LOWER_IS_BETTER)) {
        w++;
      } else {
        l++;
      }
    }
    return new WinsTiesLosses(w, t, l);
  }
}
