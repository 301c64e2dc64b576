package io.github.memplan.experiments.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * Holm's step-down procedure (Holm, "A simple sequentially rejective multiple test procedure",
 * Scand. J. Statist. 6 (1979)) and the rank-based post-hoc comparisons after a Friedman test of
 * Demšar (JMLR 7, 2006, §3.2.2): z = (R_i - R_j) / sqrt(k(k+1) / (6N)), two-sided normal p-value.
 */
public final class Holm {
  private Holm() {}

  /** One comparison: treatments i and j, z, raw and Holm-adjusted p-values. */
  public record Comparison(int i, int j, double z, double p, double adjustedP) {}

  /**
   * Holm-adjusted p-values in the input order: with p sorted ascending p_(1) <= ... <= p_(m), the
   * adjusted p_(s) = max over t <= s of min(1, (m - t + 1) p_(t)). Reject where adjusted < alpha.
   */
  public static double[] adjust(double[] p) {
    int m = p.length;
    Integer[] order = new Integer[m];
    for (int i = 0; i < m; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingDouble((Integer i) -> p[i]).thenComparing(i -> i));
    double[] adjusted = new double[m];
    double running = 0;
    for (int s = 0; s < m; s++) {
      running = Math.max(running, Math.min(1.0, (m - s) * p[order[s]]));
      adjusted[order[s]] = running;
    }
    return adjusted;
  }

  /** Standard error of a difference of mean ranks: sqrt(k(k+1)/(6N)). */
  public static double rankStandardError(int k, int n) {
    return Math.sqrt(k * (k + 1.0) / (6.0 * n));
  }

  /** Every treatment against {@code control} (e.g. the best-ranked), Holm-adjusted. */
  public static List<Comparison> versusControl(double[] meanRanks, int n, int control) {
    List<int[]> pairs = new ArrayList<>();
    for (int j = 0; j < meanRanks.length; j++) {
      if (j != control) {
        pairs.add(new int[] {j, control});
      }
    }
    return compare(meanRanks, n, pairs);
  }

  /** All k(k-1)/2 pairs i < j, Holm-adjusted together. */
  public static List<Comparison> allPairs(double[] meanRanks, int n) {
    List<int[]> pairs = new ArrayList<>();
    for (int i = 0; i < meanRanks.length; i++) {
      for (int j = i + 1; j < meanRanks.length; j++) {
        pairs.add(new int[] {i, j});
      }
    }
    return compare(meanRanks, n, pairs);
  }

  /** Index of the treatment with the lowest mean rank (the first one on a tie). */
  public static int best(double[] meanRanks) {
    int best = 0;
    for (int j = 1; j < meanRanks.length; j++) {
      if (meanRanks[j] < meanRanks[best]) {
        best = j;
      }
    }
    return best;
  }

  private static List<Comparison> compare(double[] meanRanks, int n, List<int[]> pairs) {
    double se = rankStandardError(meanRanks.length, n);
    NormalDistribution normal = NormalDistribution.of(0, 1);
    double[] z = new double[pairs.size()];
    double[] p = new double[pairs.size()];
    for (int c = 0; c < pairs.size(); c++) {
      int[] ij = pairs.get(c);
      z[c] = (meanRanks[ij[0]] - meanRanks[ij[1]]) / se;
      p[c] = Math.min(1.0, 2 * normal.survivalProbability(Math.abs(z[c])));
    }
    double[] adj = adjust(p);
    List<Comparison> out = new ArrayList<>();
    for (int c = 0; c < pairs.size(); c++) {
      out.add(new Comparison(pairs.get(c)[0], pairs.get(c)[1], z[c], p[c], adj[c]));
    }
    return List.copyOf(out);
  }
}
