package io.github.memplan.solvers.lmem;

import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import java.util.Comparator;

/**
 * The lexicographic objective of LMEM search (issue 7): bank conflicts first, then straddles, then
 * the per-lane peak address, all lower is better. Counts are {@link LmemBanks#report}'s; a rule
 * that is {@link BankRule#OFF} counts 0 in {@link #under}.
 *
 * @param conflicts conflicting pairs
 * @param straddles straddling buffers
 * @param peak {@code max(address + bytes)} per lane
 */
public record LmemScore(int conflicts, int straddles, long peak) implements Comparable<LmemScore> {

  private static final Comparator<LmemScore> ORDER =
      Comparator.comparingInt(LmemScore::conflicts)
          .thenComparingInt(LmemScore::straddles)
          .thenComparingLong(LmemScore::peak);

  /** The raw counts and peak of {@code solution}. */
  public static LmemScore of(LmemInstance instance, LmemSolution solution) {
    LmemBanks.Report r = LmemBanks.report(instance, solution);
    return new LmemScore(r.conflictCount(), r.straddleCount(), solution.peak(instance));
  }

  /** The score under {@code rules}: the counts of rules that are off become 0. */
  public LmemScore under(LmemRules rules) {
    return new LmemScore(
        rules.conflict() == BankRule.OFF ? 0 : conflicts,
        rules.straddle() == BankRule.OFF ? 0 : straddles,
        peak);
  }

  /** Whether the score obeys the hard rules of {@code rules}. */
  public boolean meets(LmemRules rules) {
    return !(rules.conflict() == BankRule.HARD && conflicts > 0)
        && !(rules.straddle() == BankRule.HARD && straddles > 0);
  }

  @Override
  public int compareTo(LmemScore other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return conflicts + " conflicts, " + straddles + " straddles, peak " + peak;
  }
}
