package io.github.memplan.experiments.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.memplan.core.solve.Direction;
import java.util.List;
import org.apache.commons.statistics.inference.PValueMethod;
import org.apache.commons.statistics.inference.WilcoxonSignedRankTest;
import org.junit.jupiter.api.Test;

class StatsTest {
  /**
   * Demšar, "Statistical comparisons of classifiers over multiple data sets", JMLR 7 (2006),
   * §3.2.2: four classifiers (C4.5, C4.5+m, C4.5+cf, C4.5+m+cf) over N = 14 data sets with the
   * average ranks of Table 6, 3.143, 2.000, 2.893 and 1.964, give chi2_F = 9.28 and F_F = 3.69; the
   * post-hoc standard error is SE = sqrt(4*5/(6*14)) = 0.488.
   */
  static final double[] DEMSAR_RANKS = {3.143, 2.000, 2.893, 1.964};

  @Test
  void friedmanReproducesDemsarSection322() {
    Friedman f = Friedman.fromMeanRanks(DEMSAR_RANKS, 14);
    assertThat(f.chiSquare()).isCloseTo(9.28, within(0.005));
    assertThat(f.imanDavenportF()).isCloseTo(3.69, within(0.005));
    // Demšar: the critical value of F(3, 39) at 0.05 is 2.85, so F_F = 3.69 rejects
    assertThat(f.imanDavenportP()).isLessThan(0.05);
    assertThat(f.pValue()).isLessThan(0.05);
  }

  /**
   * Worked by hand, lower is better: blocks (1,2,3), (1,3,2), (2,1,3) give ranks equal to the
   * values, mean ranks 4/3, 2, 8/3 and chi2_F = 12*3/(3*4) * (116/9 - 12) = 8/3.
   */
  @Test
  void friedmanRanksEachBlock() {
    Friedman f =
        Friedman.test(
            new double[][] {{1, 2, 3}, {10, 30, 20}, {2, 1, 3}}, Direction.LOWER_IS_BETTER);
    assertThat(f.meanRanks()).containsExactly(new double[] {4 / 3.0, 2, 8 / 3.0}, within(1e-12));
    assertThat(f.chiSquare()).isCloseTo(8 / 3.0, within(1e-12));
    // chi-squared with 2 df: survival exp(-x/2)
    assertThat(f.pValue()).isCloseTo(Math.exp(-4 / 3.0), within(1e-12));
    Friedman higher =
        Friedman.test(
            new double[][] {{1, 2, 3}, {10, 30, 20}, {2, 1, 3}}, Direction.HIGHER_IS_BETTER);
    assertThat(higher.meanRanks())
        .containsExactly(new double[] {8 / 3.0, 2, 4 / 3.0}, within(1e-12));
    assertThatThrownBy(() -> Friedman.test(new double[][] {{1, 2}}, Direction.LOWER_IS_BETTER))
        .hasMessageContaining("2 blocks");
  }

  /**
   * Two instances that rank two planners alike: mean ranks 1 and 2, chi2_F = 12*2/(2*3) * (5 - 4.5)
   * = 2 = N(k-1), so Iman-Davenport's denominator is 0 and F is undefined (NaN, not a +Infinity
   * with p = 0 that a table would print as significant); chi2_F's p with 1 df is P(chi2_1 > 2) =
   * 0.1573.
   */
  @Test
  void imanDavenportIsUndefinedWhenEveryBlockRanksAlike() {
    Friedman f = Friedman.test(new double[][] {{1, 2}, {3, 4}}, Direction.LOWER_IS_BETTER);
    assertThat(f.chiSquare()).isCloseTo(2, within(1e-12));
    assertThat(f.pValue()).isCloseTo(0.1573, within(1e-4));
    assertThat(f.imanDavenportF()).isNaN();
    assertThat(f.imanDavenportP()).isNaN();
  }

  @Test
  void midRanksShareTiedPlaces() {
    // iris row: 0.931 twice, tied for second place
    assertThat(
            Ranks.midRanks(new double[] {0.936, 0.931, 0.916, 0.931}, Direction.HIGHER_IS_BETTER))
        .containsExactly(1, 2.5, 4, 2.5);
    assertThat(Ranks.midRanks(new double[] {5, 5, 5}, Direction.LOWER_IS_BETTER))
        .containsExactly(2, 2, 2);
    assertThat(Ranks.midRanks(new double[] {3, 1, 2}, Direction.LOWER_IS_BETTER))
        .containsExactly(3, 1, 2);
  }

  @Test
  void postHocAgainstBestUsesDemsarStandardError() {
    Friedman f = Friedman.fromMeanRanks(DEMSAR_RANKS, 14);
    assertThat(Holm.rankStandardError(4, 14)).isCloseTo(0.488, within(0.0005));
    int best = Holm.best(f.meanRanks());
    assertThat(best).isEqualTo(3); // C4.5+m+cf
    List<Holm.Comparison> c = Holm.versusControl(f.meanRanks(), 14, best);
    assertThat(c).extracting(Holm.Comparison::i).containsExactly(0, 1, 2);
    // z of C4.5 against C4.5+m+cf: (3.143 - 1.964) / 0.488 = 2.416
    assertThat(c.get(0).z()).isCloseTo(2.416, within(0.005));
    // the smallest p is multiplied by 3, then the next by 2, monotone
    assertThat(c.get(0).adjustedP()).isCloseTo(3 * c.get(0).p(), within(1e-12));
    assertThat(c.get(2).adjustedP())
        .isCloseTo(Math.max(3 * c.get(0).p(), 2 * c.get(2).p()), within(1e-12));
    // C4.5+m (z ~ 0.07) has the largest p: multiplied by 1
    assertThat(c.get(1).adjustedP()).isEqualTo(c.get(1).p()).isCloseTo(0.941, within(0.0005));
    assertThat(Holm.allPairs(f.meanRanks(), 14)).hasSize(6);
  }

  /**
   * Holm (1979)'s step-down rule worked by hand: p = (0.01, 0.04, 0.03, 0.005) sorted is 0.005,
   * 0.01, 0.03, 0.04; times 4, 3, 2, 1 gives 0.02, 0.03, 0.06, 0.04, made monotone 0.02, 0.03,
   * 0.06, 0.06.
   */
  @Test
  void holmAdjustIsStepDownAndMonotone() {
    assertThat(Holm.adjust(new double[] {0.01, 0.04, 0.03, 0.005}))
        .containsExactly(new double[] {0.03, 0.06, 0.06, 0.02}, within(1e-12));
    assertThat(Holm.adjust(new double[] {0.5, 0.6})).containsExactly(1.0, 1.0);
  }

  /**
   * Darwin's Zea mays height differences (crossed minus self-fertilised plants, as analysed in
   * Fisher's The Design of Experiments, ch. III), the example of the README of the JavaScript
   * stdlib's stats/wilcoxon package, after Cureton (1967), which reports W = 96 and p = 0.04126:
   * two negative differences of rank 10 and 14, so W+ = 120 - 24 = 96. The exact two-sided p-value
   * is also checked against a count of all 2^15 sign patterns.
   */
  @Test
  void wilcoxonExactOnDarwinData() {
    double[] d = {6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75};
    double[] zero = new double[d.length];
    Wilcoxon w = Wilcoxon.test(d, zero);
    assertThat(w.statistic()).isEqualTo(96);
    assertThat(w.exact()).isTrue();
    int atMost24 = 0;
    for (int mask = 0; mask < 1 << 15; mask++) {
      int s = 0;
      for (int r = 1; r <= 15; r++) {
        if ((mask & (1 << (r - 1))) != 0) {
          s += r;
        }
      }
      if (s <= 24) {
        atMost24++;
      }
    }
    double exact = 2.0 * atMost24 / (1 << 15);
    assertThat(w.pValue()).isCloseTo(exact, within(1e-12));
    assertThat(w.pValue()).isCloseTo(0.04126, within(0.00001));
  }

  /**
   * Commons Statistics computes the exact distribution up to 50 pairs without ties or zeros and the
   * normal approximation beyond: {@link Wilcoxon#exact()} says which one was used.
   */
  @Test
  void wilcoxonIsExactUpTo50Pairs() {
    for (int n : new int[] {50, 51}) {
      double[] d = new double[n];
      for (int i = 0; i < n; i++) {
        d[i] = (i + 1) * (i % 3 == 0 ? -1 : 1);
      }
      Wilcoxon w = Wilcoxon.test(d, new double[n]);
      PValueMethod used = n == 50 ? PValueMethod.EXACT : PValueMethod.ASYMPTOTIC;
      PValueMethod other = n == 50 ? PValueMethod.ASYMPTOTIC : PValueMethod.EXACT;
      WilcoxonSignedRankTest t = WilcoxonSignedRankTest.withDefaults();
      assertThat(w.pValue()).isEqualTo(t.with(used).test(d).getPValue());
      assertThat(w.pValue()).isNotEqualTo(t.with(other).test(d).getPValue());
      assertThat(w.exact()).isEqualTo(n == 50);
    }
  }

  @Test
  void wilcoxonZeroDifferencesArePrattRankedAndApproximate() {
    double[] d = {0, 0, 6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75};
    Wilcoxon w = Wilcoxon.test(d, new double[d.length]);
    // zeros take ranks 1 and 2: every non-zero rank moves up by 2, W+ = 96 + 13 * 2
    assertThat(w.statistic()).isEqualTo(122);
    assertThat(w.zeros()).isEqualTo(2);
    assertThat(w.exact()).isFalse();
    assertThat(w.pValue()).isBetween(0.0, 0.05);
    Wilcoxon same = Wilcoxon.test(new double[] {1, 2, 3}, new double[] {1, 2, 3});
    assertThat(same.pValue()).isEqualTo(1.0);
    assertThat(same.zeros()).isEqualTo(3);
  }

  @Test
  void summaries() {
    Summaries.Spread s = Summaries.spread(new double[] {4, 1, 3, 2});
    // HF7: median 2.5, Q1 = 1 + 0.75 * 1 = 1.75, Q3 = 3.25
    assertThat(s.median()).isEqualTo(2.5);
    assertThat(s.q1()).isEqualTo(1.75);
    assertThat(s.q3()).isEqualTo(3.25);
    assertThat(s.iqr()).isEqualTo(1.5);
    assertThat(Summaries.geometricMeanRatio(new double[] {2, 8}, new double[] {1, 2}))
        .isCloseTo(Math.sqrt(8), within(1e-12));
    assertThatThrownBy(() -> Summaries.geometricMeanRatio(new double[] {0}, new double[] {1}))
        .hasMessageContaining("positive");
    assertThat(
            Summaries.winsTiesLosses(
                    new double[] {1, 2, 3, 4}, new double[] {2, 2, 2, 2}, Direction.LOWER_IS_BETTER)
                .toString())
        .isEqualTo("1/1/2");
    assertThat(
            Summaries.winsTiesLosses(
                new double[] {1, 2, 3}, new double[] {2, 2, 2}, Direction.HIGHER_IS_BETTER))
        .isEqualTo(new Summaries.WinsTiesLosses(1, 1, 1));
  }
}
