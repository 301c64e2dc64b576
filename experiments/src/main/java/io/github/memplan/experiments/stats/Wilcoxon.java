package io.github.memplan.experiments.stats;

import org.apache.commons.statistics.inference.WilcoxonSignedRankTest;

/**
 * Two-sided Wilcoxon signed-rank test of a planner against the baseline over paired instances,
 * through Commons Statistics' {@link WilcoxonSignedRankTest} (Wilcoxon, "Individual comparisons by
 * ranking methods", Biometrics Bulletin 1 (1945); Demšar, JMLR 7 (2006), §3.1.3).
 *
 * <p>The statistic is W+, the sum of the ranks of the positive differences {@code planner -
 * baseline}. How Commons Statistics 1.2 treats special cases (observed, and pinned by tests): zero
 * differences follow Pratt (1959): they take part in the ranking of |d| but add to neither sum;
 * with no zeros and no ties the p-value is exact (n <= 50), otherwise the normal approximation with
 * tie correction. When every difference is zero there is nothing to test: the result has W+ = 0 and
 * p = 1.
 *
 * @param n number of pairs
 * @param zeros pairs with a zero difference
 * @param statistic W+
 * @param pValue two-sided p-value
 * @param exact whether the p-value is exact (no zeros, no ties, n <= 50)
 */
public record Wilcoxon(int n, int zeros, double statistic, double pValue, boolean exact) {

  /** The test of {@code planner[i]} against {@code baseline[i]}. */
  public static Wilcoxon test(double[] planner, double[] baseline) {
    if (planner.length != baseline.length || planner.length == 0) {
      throw new IllegalArgumentException(
          "Wilcoxon needs paired samples, got " + planner.length + " and " + baseline.length);
    }
    double[] d = new double[planner.length];
    int zeros = 0;
    for (int i = 0; i < d.length; i++) {
      d[i] = planner[i] - baseline[i];
      if (d[i] == 0) {
        zeros++;
      }
    }
    if (zeros == d.length) {
      return new Wilcoxon(d.length, zeros, 0, 1, true);
    }
    WilcoxonSignedRankTest.Result r = WilcoxonSignedRankTest.withDefaults().test(d);
    boolean exact = !r.hasZeroValues() && !r.hasTiedValues() && d.length <= 50;
    return new Wilcoxon(d.length, zeros, r.getStatistic(), r.getPValue(), exact);
  }
}
