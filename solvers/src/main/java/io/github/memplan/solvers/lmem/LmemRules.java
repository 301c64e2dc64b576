package io.github.memplan.solvers.lmem;

import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.PlannerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The bank-rule settings of an LMEM search planner, from its parameters {@code straddle} and {@code
 * conflict} ({@code off|soft|hard}, default {@code soft} for both, TPU-MLIR's view of them as
 * preferences, {@code reference/tpu-mlir.md} §2.10, §2.13). The definitions are {@link LmemBanks}'.
 *
 * @param straddle the v0 rule: a buffer of at most one bank never crosses a bank boundary
 * @param conflict today's rule: two buffers the engines touch in a common row never share a bank
 */
public record LmemRules(BankRule straddle, BankRule conflict) {
  public static final String STRADDLE = "straddle";
  public static final String CONFLICT = "conflict";

  public LmemRules {
    Objects.requireNonNull(straddle, STRADDLE);
    Objects.requireNonNull(conflict, CONFLICT);
  }

  /** Both rules soft: TPU-MLIR's preferences. */
  public static LmemRules defaults() {
    return new LmemRules(BankRule.SOFT, BankRule.SOFT);
  }

  /** The two parameters with their defaults, for a provider's {@code parameters()}. */
  public static List<Parameter> parameters() {
    return List.of(
        new Parameter(
            STRADDLE,
            "bank straddling of buffers of at most one bank (v0 rule): off, soft (penalised) or"
                + " hard (forbidden)",
            BankRule.SOFT.id()),
        new Parameter(
            CONFLICT,
            "bank conflicts (a TIU/GDMA or same-op pair sharing a bank): off, soft (penalised) or"
                + " hard (forbidden)",
            BankRule.SOFT.id()));
  }

  /** The rules of a resolved configuration that declares {@link #parameters()}. */
  public static LmemRules from(PlannerConfig config) {
    return new LmemRules(
        config.choice(STRADDLE, BankRule.class), config.choice(CONFLICT, BankRule.class));
  }

  /** Whether any rule is hard. */
  public boolean anyHard() {
    return straddle == BankRule.HARD || conflict == BankRule.HARD;
  }

  /** The hard rules, e.g. {@code "conflict=hard"}, joined by {@code ", "}; empty if none. */
  public String hardRules() {
    List<String> out = new ArrayList<>();
    if (conflict == BankRule.HARD) {
      out.add(CONFLICT + "=hard");
    }
    if (straddle == BankRule.HARD) {
      out.add(STRADDLE + "=hard");
    }
    return String.join(", ", out);
  }

  /**
   * What a placement with {@code report} breaks of the hard rules (e.g. {@code "2 bank conflicts
   * under conflict=hard"}), or {@code null} when it obeys them.
   */
  public String hardViolation(LmemBanks.Report report) {
    List<String> out = new ArrayList<>();
    if (conflict == BankRule.HARD && report.conflictCount() > 0) {
      out.add(report.conflictCount() + " bank conflicts under conflict=hard");
    }
    if (straddle == BankRule.HARD && report.straddleCount() > 0) {
      out.add(report.straddleCount() + " bank straddles under straddle=hard");
    }
    return out.isEmpty() ? null : String.join("; ", out);
  }

  /** The parameter map giving these rules, e.g. for {@code Planners.get(...).create(map)}. */
  public Map<String, String> asParameters() {
    return Map.of(STRADDLE, straddle.id(), CONFLICT, conflict.id());
  }
}
