package io.github.memplan.solvers.group;

import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.LmemValidator;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The feasibility oracle of a group search: a chain of {@link LmemInstance} planners, named by
 * their ids joined with {@code +} (e.g. {@code lmem-tpumlir+lmem-exact}). The planners are tried in
 * order; the first placement that {@link LmemValidator} accepts is the answer; when every planner
 * fails (or answers with a placement the validator rejects) the instance counts as infeasible. So a
 * cheap heuristic comes first and a stronger (exact) planner is asked only where it fails. Each
 * planner is asked a feasibility question: one that declares a {@code goal} parameter gets {@code
 * satisfy} (any placement obeying the capacity and its hard rules, not the least bank conflicts),
 * and one that declares {@code deterministic-time} gets {@value #DETERMINISTIC_TIME} units per call
 * ({@code lmem-exact}: CP-SAT's deterministic time on one worker, so answers do not depend on the
 * machine; an undecided call counts as infeasible). Planners are reached through the SPI ({@link
 * Planners#get}), never by import. Stateless apart from the immutable planners; call counts are
 * kept by the caller.
 */
public final class LmemOracle {
  /** CP-SAT's deterministic time per oracle call (one unit is roughly two seconds). */
  static final double DETERMINISTIC_TIME = 0.5;

  /** CP-SAT's deterministic time per group asked for a placement without bank conflicts. */
  static final double CONFLICT_FREE_DETERMINISTIC_TIME = 1.0;

  private final List<String> ids;
  private final List<Planner<LmemInstance, LmemSolution>> planners;

  /** The chain's planner that can forbid bank conflicts, asked to, or null when none can. */
  private final Planner<LmemInstance, LmemSolution> conflictFree;

  private final String conflictFreeId;

  private LmemOracle(
      List<String> ids,
      List<Planner<LmemInstance, LmemSolution>> planners,
      String conflictFreeId,
      Planner<LmemInstance, LmemSolution> conflictFree) {
    this.ids = List.copyOf(ids);
    this.planners = List.copyOf(planners);
    this.conflictFreeId = conflictFreeId;
    this.conflictFree = conflictFree;
  }

  /**
   * The chain {@code spec} ({@code id[+id...]}), each planner with its default parameters; fails
   * naming {@code owner} (the planner whose parameter it is) on an empty or unknown id.
   */
  public static LmemOracle of(String owner, String spec) {
    List<String> ids = new ArrayList<>();
    List<Planner<LmemInstance, LmemSolution>> planners = new ArrayList<>();
    String conflictFreeId = null;
    Planner<LmemInstance, LmemSolution> conflictFree = null;
    for (String raw : spec.split("\\+", -1)) {
      String id = raw.trim();
      if (id.isEmpty()) {
        throw new IllegalArgumentException(
            "planner '" + owner + "': parameter 'lmem' has an empty id in '" + spec + "'");
      }
      PlannerProvider<LmemInstance, LmemSolution> provider;
      try {
        provider = Planners.get(id, LmemInstance.class);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "planner '" + owner + "': parameter 'lmem': " + e.getMessage(), e);
      }
      ids.add(id);
      Map<String, String> asked = new java.util.HashMap<>();
      for (Parameter p : provider.parameters()) {
        if (p.name().equals("goal")) {
          asked.put("goal", "satisfy");
        } else if (p.name().equals("deterministic-time")) {
          asked.put("deterministic-time", Double.toString(DETERMINISTIC_TIME));
        }
      }
      planners.add(provider.create(asked));
      if (conflictFree == null
          && provider.parameters().stream().map(Parameter::name).anyMatch("conflict"::equals)) {
        Map<String, String> strict = new java.util.HashMap<>(asked);
        strict.put("conflict", "hard");
        if (provider.parameters().stream().map(Parameter::name).anyMatch("straddle"::equals)) {
          strict.put("straddle", "soft");
        }
        if (asked.containsKey("deterministic-time")) {
          strict.put("deterministic-time", Double.toString(CONFLICT_FREE_DETERMINISTIC_TIME));
        }
        conflictFreeId = id;
        conflictFree = provider.create(strict);
      }
    }
    return new LmemOracle(ids, planners, conflictFreeId, conflictFree);
  }

  /** The chain's ids, in order. */
  public List<String> ids() {
    return ids;
  }

  /** {@code ids} joined with {@code +}. */
  public String spec() {
    return String.join("+", ids);
  }

  /**
   * The first validated placement of {@code inst} along the chain, or empty.
   *
   * @param calls incremented once per planner called
   * @throws IllegalStateException when a planner answers {@link Status#ERROR}
   */
  public Optional<LmemSolution> place(LmemInstance inst, SolveContext ctx, long[] calls) {
    LmemValidator validator = new LmemValidator();
    for (int i = 0; i < planners.size(); i++) {
      if (i > 0 && ctx.budget().exhausted()) {
        return Optional.empty();
      }
      calls[0]++;
      Outcome<LmemSolution> o = planners.get(i).solve(inst, ctx);
      if (o.status() == Status.ERROR) {
        throw new IllegalStateException(
            "LMEM planner '" + ids.get(i) + "' failed on " + inst.name() + ": " + o.message());
      }
      if (o.status().hasSolution() && validator.isValid(inst, o.solution())) {
        return Optional.of(o.solution());
      }
    }
    return Optional.empty();
  }

  /** What asking for a placement without bank conflicts gave ({@link #withoutConflicts}). */
  public enum ConflictVerdict {
    /** The placement had none. */
    NONE,
    /**
     * A placement without conflicts replaces it (it may straddle banks more: today's allocator does
     * not avoid straddles, only conflicts).
     */
    REMOVED,
    /** Proven: every placement of the instance has a bank conflict. */
    UNAVOIDABLE,
    /** Neither found nor proven in the budget (or no planner of the chain can forbid them). */
    UNDECIDED
  }

  /** A {@link ConflictVerdict} and the placement to keep. */
  public record ConflictCheck(ConflictVerdict verdict, LmemSolution placement) {}

  /**
   * {@code placement} of {@code inst} without its bank conflicts where the chain's planner that can
   * forbid them ({@code lmem-exact}: {@code conflict=hard}, {@code straddle=soft}, {@code
   * goal=satisfy}, {@value #CONFLICT_FREE_DETERMINISTIC_TIME} deterministic units) finds one,
   * validated; its answer {@code INFEASIBLE} proves the conflicts unavoidable. The placement does
   * not change a group's cycles (the cost model needs no address).
   *
   * @throws IllegalStateException when the planner answers {@link Status#ERROR}
   */
  public ConflictCheck withoutConflicts(
      LmemInstance inst, LmemSolution placement, SolveContext ctx) {
    if (LmemBanks.report(inst, placement).conflictCount() == 0) {
      return new ConflictCheck(ConflictVerdict.NONE, placement);
    }
    if (conflictFree == null || ctx.budget().exhausted()) {
      return new ConflictCheck(ConflictVerdict.UNDECIDED, placement);
    }
    Outcome<LmemSolution> o = conflictFree.solve(inst, ctx);
    if (o.status() == Status.ERROR) {
      throw new IllegalStateException(
          "LMEM planner '" + conflictFreeId + "' failed on " + inst.name() + ": " + o.message());
    }
    if (o.status() == Status.INFEASIBLE) {
      return new ConflictCheck(ConflictVerdict.UNAVOIDABLE, placement);
    }
    if (o.status().hasSolution() && new LmemValidator().isValid(inst, o.solution())) {
      if (LmemBanks.report(inst, o.solution()).conflictCount() == 0) {
        return new ConflictCheck(ConflictVerdict.REMOVED, o.solution());
      }
    }
    return new ConflictCheck(ConflictVerdict.UNDECIDED, placement);
  }
}
