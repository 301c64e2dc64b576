package io.github.memplan.experiments.stats;

import io.github.memplan.core.solve.Direction;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.apache.commons.statistics.distribution.FDistribution;

/**
 * The Friedman test of k treatments (planners) over N blocks (instances), as presented by Demšar,
 * "Statistical comparisons of classifiers over multiple data sets", JMLR 7 (2006), §3.2.2:
 *
 * <pre>
 *   chi2_F = 12N / (k(k+1)) * (sum_j R_j^2 - k(k+1)^2 / 4)      (k-1 degrees of freedom)
 *   F_F    = (N-1) chi2_F / (N(k-1) - chi2_F)                    (Iman-Davenport; k-1, (k-1)(N-1) df)
 * </pre>
 *
 * <p>with R_j the mean rank of treatment j, ties within a block given mid-ranks. Departure: no
 * correction of chi2_F for ties (Demšar's formula, which his worked example uses); with many ties
 * the test is slightly conservative.
 *
 * @param k treatments
 * @param n blocks
 * @param meanRanks mean rank of each treatment, 1 the best
 * @param chiSquare Friedman's statistic
 * @param pValue upper tail of chi-squared with k-1 df
 * @param imanDavenportF Iman and Davenport's F statistic; NaN when every block ranks the treatments
 *     alike, where its denominator {@code N(k-1) - chi2_F} is 0 (the limit is +Infinity with p = 0,
 *     which with few blocks would claim a significance the data cannot carry: two instances and two
 *     planners never reach p < 0.5 in the exact test)
 * @param imanDavenportP upper tail of F(k-1, (k-1)(N-1)); NaN when the statistic is
 */
public record Friedman(
    int k,
    int n,
    double[] meanRanks,
    double chiSquare,
    double pValue,
    double imanDavenportF,
    double imanDavenportP) {

  /**
   * The test on {@code data[block][treatment]}, ranked so that rank 1 is the best by {@code
   * direction}; needs k >= 2 treatments and N >= 2 blocks.
   */
  public static Friedman test(double[][] data, Direction direction) {
    int k = columns(data);
    int n = data.length;
    if (k < 2 || n < 2) {
      throw new IllegalArgumentException(
          "Friedman test needs at least 2 treatments and 2 blocks, got " + k + " x " + n);
    }
    return fromMeanRanks(Ranks.meanRanks(data, direction), n);
  }

  /**
   * The test from the mean ranks of k treatments over {@code n} blocks (e.g. ranks published in a
   * paper).
   */
  public static Friedman fromMeanRanks(double[] meanRanks, int n) {
    int k = meanRanks.length;
    if (k < 2 || n < 2) {
      throw new IllegalArgumentException(
          "Friedman test needs at least 2 treatments and 2 blocks, got " + k + " x " + n);
    }
    double[] r = meanRanks.clone();
    double sumSq = 0;
    for (double x : r) {
      sumSq += x * x;
    }
    double chi = 12.0 * n / (k * (k + 1.0)) * (sumSq - k * (k + 1.0) * (k + 1.0) / 4.0);
    chi = Math.max(0, chi);
    double p = ChiSquaredDistribution.of(k - 1).survivalProbability(chi);
    double denom = n * (k - 1.0) - chi;
    double f = denom <= 0 ? Double.NaN : (n - 1.0) * chi / denom;
    double fp =
        Double.isNaN(f)
            ? Double.NaN
            : FDistribution.of(k - 1.0, (k - 1.0) * (n - 1.0)).survivalProbability(f);
    return new Friedman(k, n, r, chi, p, f, fp);
  }

  static int columns(double[][] data) {
    if (data.length == 0) {
      throw new IllegalArgumentException("no blocks");
    }
    int k = data[0].length;
    for (double[] row : data) {
      if (row.length != k) {
        throw new IllegalArgumentException("ragged data: rows of " + k + " and " + row.length);
      }
    }
    return k;
  }
}
