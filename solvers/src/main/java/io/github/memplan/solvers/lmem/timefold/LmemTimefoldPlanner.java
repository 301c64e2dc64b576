package io.github.memplan.solvers.lmem.timefold;

import ai.timefold.solver.core.api.score.buildin.hardmediumsoftlong.HardMediumSoftLongScore;
import ai.timefold.solver.core.api.solver.Solver;
import ai.timefold.solver.core.api.solver.SolverConfigOverride;
import ai.timefold.solver.core.api.solver.SolverFactory;
import ai.timefold.solver.core.config.localsearch.LocalSearchPhaseConfig;
import ai.timefold.solver.core.config.localsearch.LocalSearchType;
import ai.timefold.solver.core.config.solver.EnvironmentMode;
import ai.timefold.solver.core.config.solver.SolverConfig;
import ai.timefold.solver.core.config.solver.termination.TerminationConfig;
import ai.timefold.solver.core.impl.phase.event.PhaseLifecycleListenerAdapter;
import ai.timefold.solver.core.impl.phase.scope.AbstractStepScope;
import ai.timefold.solver.core.impl.solver.DefaultSolver;
import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemLowerBounds;
import io.github.memplan.core.lmem.LmemOutcomes;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.lmem.LmemRules;
import io.github.memplan.solvers.lmem.LmemScore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code lmem-timefold}: LMEM placement of one layer group by local search over placement orders
 * with Timefold Solver 1.32 (timefold.ai, Apache-2.0), under the rules of TPU-MLIR's {@code
 * LmemAllocator::assignLmemAddr} ({@code reference/tpu-mlir.md} §2.10: capacity, EU alignment, no
 * overlap in time × address with wrapping and held lifetimes, in-place pairs at one address exempt)
 * and the bank rules as {@link LmemBanks} defines them (straddle, the v0 rule of §2.13; conflict,
 * today's {@code exclude_banks} condition), each off, soft or hard ({@link LmemRules}). It takes up
 * an opportunity §6 (3) lists, LMEM placement under hard or soft bank constraints: today's
 * allocator (§2.10) is a priority order with lowest-address placement and soft bank exclusion,
 * which accepts a conflict whenever no candidate outside the excluded banks fits; a search over
 * orders can often place the same buffers with fewer conflicts.
 *
 * <p><b>Model.</b> One list-owning entity ({@link Sequence}) whose {@code @PlanningListVariable} is
 * the order of all buffers; each {@link Slot}'s address is a shadow variable decoded incrementally
 * by {@link LmemDecodeListener} with {@link LmemDecoder}: each buffer at the lowest EU-aligned
 * address clear of the earlier buffers, never breaking a hard bank rule, obeying the soft ones
 * where that still fits under the capacity. A buffer that does not fit goes above the capacity.
 * Constraints ({@link LmemConstraints}), the lexicographic objective of issue 7: hard, the bytes
 * above the capacity (and hard-rule violations, which the decoder never makes); medium, conflicts
 * weighted so that one outweighs all straddles, plus straddles; soft, the peak.
 *
 * <p><b>Start.</b> Buffers ordered as TPU-MLIR's allocators favour the hard-to-place ones: held
 * buffers first, then longer cyclic lifetime, then larger size, then earlier start, then index
 * (written here, not imported from the baselines).
 *
 * <p><b>Search.</b> Timefold's local search (late acceptance by default) with its default list
 * moves, seeded with the run's seed in the reproducible {@link EnvironmentMode#NO_ASSERT} mode,
 * single-threaded. It stops at its step cap ({@code steps}), after {@code unimproved-steps} steps
 * without a better solution, at the budget's step cap (one budget step is one evaluated move), at
 * the bound (score {@code 0/0/-maxLive}), or when the budget's deadline passes or it is cancelled
 * (checked after every step). Step and move caps make runs byte-reproducible; a deadline does not.
 * Each better solution within the capacity is reported to the progress listener with the peak as
 * the objective and the conflicts and straddles in the note (the peak can rise when a conflict
 * goes).
 *
 * <p><b>Outcome.</b> The best of the start and the search's best order, decoded again from scratch
 * (a mismatch with the incremental decode is an {@code ERROR}), checked by {@link
 * io.github.memplan.core.lmem.LmemValidator} and against the hard rules. {@code OPTIMAL} only when
 * the objective meets a proven bound: no conflict and no straddle counted under the rules and the
 * peak equal to {@link LmemLowerBounds#maxLive}, which no valid placement undercuts whatever the
 * bank rules. Otherwise {@code FEASIBLE} with that bound, or, when the best order still overflows,
 * {@code NO_SOLUTION_IN_BUDGET} ({@code INFEASIBLE} when max-live exceeds the capacity). A local
 * search proves nothing about a hard bank rule; {@code lmem-exact} does.
 *
 * <p><b>Departures.</b> Not an algorithm of TPU-MLIR: the rules are its, the search is not. Lowest
 * address decoding reaches only placements where every buffer sits as low as the buffers before it
 * and the bank rules allow, the usual price of this encoding (as in the DSA {@code timefold}
 * planner).
 *
 * <p>Thread-safe, and immutable but for a memo of Timefold solver factories (one per seed and mode,
 * at most 16): each {@link #solve} builds its own solver.
 */
public final class LmemTimefoldPlanner implements Planner<LmemInstance, LmemSolution> {

  /**
   * The planner's settings.
   *
   * @param rules the bank rules
   * @param steps the cap on local search steps ({@code 0}: none)
   * @param unimprovedSteps stop after this many steps without a better solution ({@code 0}: never)
   * @param localSearch Timefold's local search type
   */
  public record Options(
      LmemRules rules, int steps, int unimprovedSteps, LocalSearchType localSearch) {
    public Options {
      Objects.requireNonNull(rules, "rules");
      Objects.requireNonNull(localSearch, "localSearch");
      if (steps < 0 || unimprovedSteps < 0) {
        throw new IllegalArgumentException("step limits must not be negative");
      }
    }

    public static Options defaults() {
      return new Options(
          LmemRules.defaults(), 0, DEFAULT_UNIMPROVED_STEPS, LocalSearchType.LATE_ACCEPTANCE);
    }

    public Options withRules(LmemRules r) {
      return new Options(r, steps, unimprovedSteps, localSearch);
    }

    public Options withSteps(int s, int unimproved) {
      return new Options(rules, s, unimproved, localSearch);
    }
  }

  static final int DEFAULT_UNIMPROVED_STEPS = 2_000;

  private final Options options;

  /**
   * Solver factories by seed and mode, least recently used first: building one compiles the
   * constraint network, which costs more than a short search, and a planner sees few seeds.
   */
  private final Map<String, SolverFactory<LmemPlan>> factories =
      Collections.synchronizedMap(
          new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, SolverFactory<LmemPlan>> e) {
              return size() > FACTORIES;
            }
          });

  private static final int FACTORIES = 16;

  public LmemTimefoldPlanner() {
    this(Options.defaults());
  }

  public LmemTimefoldPlanner(Options options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  public Options options() {
    return options;
  }

  /**
   * The start order: held first, then longer cyclic lifetime, larger size, earlier start, index.
   */
  static int[] startOrder(LmemInstance inst) {
    List<LmemBuffer> b = inst.buffers();
    int t = inst.timestepCount();
    Integer[] idx = new Integer[b.size()];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = i;
    }
    Arrays.sort(
        idx,
        Comparator.<Integer>comparingInt(i -> b.get(i).held() ? 0 : 1)
            .thenComparingInt(i -> -b.get(i).lifetime(t))
            .thenComparingLong(i -> -b.get(i).bytes())
            .thenComparingInt(i -> b.get(i).start())
            .thenComparingInt(i -> i));
    return Arrays.stream(idx).mapToInt(Integer::intValue).toArray();
  }

  /** The Timefold solution of {@code inst} with the slots in {@code order}, decoded. */
  static LmemPlan plan(LmemInstance inst, LmemDecoder decoder, int[] order) {
    List<Slot> slots = new ArrayList<>(decoder.n);
    for (int i = 0; i < decoder.n; i++) {
      LmemBuffer b = inst.buffers().get(i);
      slots.add(new Slot(i, b.id(), b.bytes(), inst.bankBytes()));
    }
    long[] addr = decoder.decode(order);
    List<Slot> ordered = new ArrayList<>(order.length);
    for (int p = 0; p < order.length; p++) {
      Slot s = slots.get(order[p]);
      s.position = p;
      s.setAddress(addr[order[p]]);
      ordered.add(s);
    }
    List<ConflictPair> pairs = new ArrayList<>();
    for (int a = 0; a < decoder.n; a++) {
      for (int b : decoder.partners[a]) {
        if (b > a) {
          pairs.add(new ConflictPair(a, b));
        }
      }
    }
    LmemRules rules = decoder.rules;
    LmemLimits limits =
        new LmemLimits(inst.capacity(), rules.straddle(), rules.conflict(), decoder.n + 1L);
    return new LmemPlan(slots, new Sequence(ordered), pairs, limits, decoder);
  }

  /** The score of a full placement, ordered: overflow bytes, then {@link LmemScore} under rules. */
  record Rank(long overflow, LmemScore score) implements Comparable<Rank> {
    static Rank of(LmemInstance inst, long[] addr, LmemRules rules) {
      LmemScore s = LmemScore.of(inst, new LmemSolution(addr)).under(rules);
      return new Rank(Math.max(0, s.peak() - inst.capacity()), s);
    }

    @Override
    public int compareTo(Rank o) {
      return overflow != o.overflow ? Long.compare(overflow, o.overflow) : score.compareTo(o.score);
    }

    boolean meets(long lb) {
      return overflow == 0
          && score.conflicts() == 0
          && score.straddles() == 0
          && score.peak() <= lb;
    }
  }

  SolverConfig solverConfig(long seed, EnvironmentMode mode) {
    return new SolverConfig()
        .withSolutionClass(LmemPlan.class)
        .withEntityClasses(Sequence.class, Slot.class)
        .withConstraintProviderClass(LmemConstraints.class)
        .withEnvironmentMode(mode)
        .withRandomSeed(seed)
        .withPhases(new LocalSearchPhaseConfig().withLocalSearchType(options.localSearch()));
  }

  private SolverFactory<LmemPlan> factory(long seed, EnvironmentMode mode) {
    return factories.computeIfAbsent(
        seed + "/" + mode, k -> SolverFactory.create(solverConfig(seed, mode)));
  }

  private TerminationConfig terminations(Budget budget, long lb) {
    TerminationConfig t = new TerminationConfig();
    if (budget.stepCap() != Long.MAX_VALUE) {
      t.setMoveCountLimit(budget.stepCap());
    }
    if (options.steps() > 0) {
      t.setStepCountLimit(options.steps());
    }
    if (options.unimprovedSteps() > 0) {
      t.setUnimprovedStepCountLimit(options.unimprovedSteps());
    }
    t.setBestScoreLimit(HardMediumSoftLongScore.of(0, 0, -lb).toString());
    return t;
  }

  @Override
  public Outcome<LmemSolution> solve(LmemInstance instance, SolveContext ctx) {
    return solve(instance, ctx, EnvironmentMode.NO_ASSERT);
  }

  /**
   * {@link #solve(LmemInstance, SolveContext)} in another environment mode (tests: FULL_ASSERT).
   */
  Outcome<LmemSolution> solve(LmemInstance inst, SolveContext ctx, EnvironmentMode mode) {
    long t0 = System.nanoTime();
    LmemRules rules = options.rules();
    Map<String, Number> stats = new TreeMap<>();
    long lb = LmemLowerBounds.maxLive(inst);
    if (lb > inst.capacity()) {
      return LmemOutcomes.searchEnded(inst, "lmem-timefold: nothing to search", stats);
    }
    LmemDecoder decoder = new LmemDecoder(inst, rules);
    LmemPlan start = plan(inst, decoder, startOrder(inst));
    long[] best = start.addresses();
    Rank bestRank = Rank.of(inst, best, rules);
    stats.put("start-peak", bestRank.score().peak());
    stats.put("start-conflicts", bestRank.score().conflicts());
    stats.put("start-straddles", bestRank.score().straddles());
    if (bestRank.overflow() == 0) {
      ctx.progress().improved(bestRank.score().peak(), lb, "start: " + bestRank.score());
    }
    if (!bestRank.meets(lb) && decoder.n >= 2 && !ctx.budget().exhausted(0)) {
      LmemPlan found;
      try {
        found = search(start, ctx, mode, lb, stats);
      } catch (RuntimeException e) {
        return Outcome.<LmemSolution>error("lmem-timefold: " + e).withStats(stats);
      }
      int[] order = found.getSequence().getOrder().stream().mapToInt(Slot::getIndex).toArray();
      long[] scratch = decoder.decode(order);
      if (!Arrays.equals(scratch, found.addresses())) {
        return Outcome.<LmemSolution>error(
                "lmem-timefold: the incremental decode of the best order differs from a decode"
                    + " from scratch on '"
                    + inst.name()
                    + "'")
            .withStats(stats);
      }
      Rank r = Rank.of(inst, scratch, rules);
      if (r.compareTo(bestRank) < 0) {
        best = scratch;
        bestRank = r;
      }
    }
    stats.put("peak", bestRank.score().peak());
    stats.put("millis", (System.nanoTime() - t0) / 1e6);
    if (bestRank.overflow() > 0) {
      return LmemOutcomes.searchEnded(
          inst,
          "lmem-timefold: the best order found ends at "
              + bestRank.score().peak()
              + " bytes, above the capacity "
              + inst.capacity()
              + (rules.anyHard() ? " (under " + rules.hardRules() + ")" : ""),
          stats);
    }
    Outcome<LmemSolution> out = LmemOutcomes.fromAddresses(inst, best, stats);
    if (out.status() == Status.ERROR) {
      return out.withMessage("lmem-timefold: " + out.message());
    }
    String broken = rules.hardViolation(LmemBanks.report(inst, out.solution()));
    if (broken != null) {
      return Outcome.<LmemSolution>error("lmem-timefold: the best placement has " + broken)
          .withStats(out.stats());
    }
    if (bestRank.meets(lb)) {
      return Outcome.optimal(out.solution(), lb).withStats(out.stats());
    }
    return out;
  }

  /** One Timefold run from {@code start}; adds its statistics to {@code stats}. */
  private LmemPlan search(
      LmemPlan start, SolveContext ctx, EnvironmentMode mode, long lb, Map<String, Number> stats) {
    Budget budget = ctx.budget();
    Solver<LmemPlan> solver =
        factory(ctx.seed(), mode)
            .buildSolver(
                new SolverConfigOverride<LmemPlan>()
                    .withTerminationConfig(terminations(budget, lb)));
    AtomicLong steps = new AtomicLong();
    AtomicLong improvements = new AtomicLong();
    if (solver instanceof DefaultSolver<LmemPlan> ds) {
      ds.addPhaseLifecycleListener(
          new PhaseLifecycleListenerAdapter<>() {
            @Override
            public void stepEnded(AbstractStepScope<LmemPlan> stepScope) {
              steps.incrementAndGet();
              if (budget.exhausted()) {
                solver.terminateEarly();
              }
            }
          });
    }
    solver.addEventListener(
        event -> {
          improvements.incrementAndGet();
          HardMediumSoftLongScore s = (HardMediumSoftLongScore) event.getNewBestScore();
          if (s.hardScore() == 0) {
            long w = event.getNewBestSolution().getLimits().conflictWeight();
            long medium = -s.mediumScore();
            String counts = medium / w + " conflicts, " + medium % w + " straddles";
            ctx.progress().improved(-s.softScore(), lb, "lmem-timefold: " + counts);
          }
        });
    LmemPlan best = solver.solve(start);
    stats.put("steps", steps.get());
    stats.put("improvements", improvements.get());
    if (solver instanceof DefaultSolver<LmemPlan> ds) {
      stats.put("move-evaluations", ds.getMoveEvaluationCount());
    }
    return best;
  }
}
