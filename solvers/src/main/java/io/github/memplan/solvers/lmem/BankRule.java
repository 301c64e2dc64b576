package io.github.memplan.solvers.lmem;

import java.util.Locale;

/**
 * How an LMEM search planner treats one of the two bank rules of {@link
 * io.github.memplan.core.lmem.LmemBanks} (straddle, conflict): TPU-MLIR treats both as preferences,
 * a search may also ignore them or require them.
 */
public enum BankRule {
  /** Ignored: neither counted in the objective nor required. */
  OFF,
  /**
   * A preference: every violation is penalised in the lexicographic objective ({@link LmemScore}).
   */
  SOFT,
  /** A rule: a placement that violates it is not accepted. */
  HARD;

  /** The parameter value, {@code off}, {@code soft} or {@code hard}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
