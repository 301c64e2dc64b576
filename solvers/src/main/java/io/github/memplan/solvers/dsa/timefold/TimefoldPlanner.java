package io.github.memplan.solvers.dsa.timefold;

import ai.timefold.solver.core.api.score.buildin.hardmediumsoftlong.HardMediumSoftLongScore;
import ai.timefold.solver.core.api.solver.Solver;
import ai.timefold.solver.core.api.solver.SolverFactory;
import ai.timefold.solver.core.config.localsearch.LocalSearchPhaseConfig;
import ai.timefold.solver.core.config.localsearch.LocalSearchType;
import ai.timefold.solver.core.config.solver.EnvironmentMode;
import ai.timefold.solver.core.config.solver.SolverConfig;
import ai.timefold.solver.core.config.solver.termination.TerminationConfig;
import ai.timefold.solver.core.impl.phase.event.PhaseLifecycleListenerAdapter;
import ai.timefold.solver.core.impl.phase.scope.AbstractStepScope;
import ai.timefold.solver.core.impl.solver.DefaultSolver;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.dsa.FixedOffsets;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Violation;
import io.github.memplan.solvers.dsa.greedy.GreedyIncumbents;
import io.github.memplan.solvers.timefold.BudgetWatcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A DSA planner by local search over placement orders with Timefold Solver 1.32 (timefold.ai,
 * Apache-2.0), in the line of TVM USMP's {@code hill_climb} ({@code
 * src/tir/usmp/algo/hill_climb.cc}) and Arm Vela's hill climb: the search space is the order in
 * which buffers are placed, and an order is decoded by putting each buffer at the lowest offset
 * that clears the buffers placed before it.
 *
 * <p><b>Model.</b> One list-owning entity ({@link Placement}) whose {@code @PlanningListVariable}
 * is the order of all buffers; each {@link Block}'s offset is a shadow variable that {@link
 * DecodeListener} decodes incrementally (blocks before the first one that moved keep their offsets;
 * after it, a block is placed again only if an earlier neighbour changed offset or crossed it in
 * the order). The decoder ({@link Decoder}) places each buffer at the lowest multiple of its
 * alignment clear of its earlier time-overlap neighbours, with gaps and their windows honoured
 * exactly as the validator defines them. Buffers with a fixed offset come first, at it, pinned
 * ({@code @PlanningPinToIndex}). Constraints ({@link DsaConstraints}): hard, the peak above the
 * capacity; medium, the peak; soft (parameter {@code peak-count}, off by default), the number of
 * buffers ending at the peak. That secondary term did not measurably help: on MiniMalloc's eleven
 * challenging instances with seed 0 and 10,000 evaluated moves each, the mean peak / 2^20 was
 * 1.2181 without it and 1.2180 with it (lower on 5 instances, higher on 2, equal on 4).
 *
 * <p><b>Start.</b> The order is that of the offsets of {@link GreedyIncumbents#best} (ascending,
 * fixed buffers first, ties by id). Decoding it gives every buffer an offset no higher than its
 * greedy one, so a peak no higher than the greedy's: by induction in that order, each earlier
 * buffer {@code y} sits at or below its greedy offset {@code g_y <= g_x}; a co-active {@code y}
 * that lies below {@code x} in the greedy placement ends by {@code g_x} there (for windowed gaps:
 * clears {@code x} at every shift upwards, which the greedies' effective-size rule guarantees), so
 * it still does when moved down, and {@code g_x} is an aligned offset clear of every earlier
 * buffer; the lowest such offset is at most {@code g_x}. The greedy placement is also kept as the
 * incumbent, so the planner never returns a worse one.
 *
 * <p><b>Search.</b> Timefold's local search (late acceptance by default; parameter {@code
 * local-search}) with its default list moves (list change, list swap, k-opt), seeded with the run's
 * seed in the reproducible {@link EnvironmentMode#NO_ASSERT} mode, single-threaded. It stops at the
 * budget's deadline or cancellation (a watcher thread calls {@code terminateEarly}), at its step
 * cap (one budget step is one evaluated move, checked after every move: byte-reproducible runs),
 * after {@code unimproved-time} without a better solution, or when the peak reaches the lower
 * bound. Every improvement is reported to the progress listener.
 *
 * <p><b>Outcome.</b> The best order is decoded again from scratch (a mismatch with the incremental
 * offsets is reported as {@code ERROR}) and checked by {@link DsaValidator}. {@code OPTIMAL} only
 * when the peak equals the lower bound (the max-load bound, at least every buffer's size and fixed
 * end); otherwise {@code FEASIBLE} with that bound, or {@code NO_SOLUTION_IN_BUDGET} when the best
 * peak exceeds the capacity. {@code INFEASIBLE} only with a proof: fixed offsets that collide, are
 * misaligned or end past the capacity, or a lower bound above it.
 *
 * <p><b>Departures</b> from TVM's hill climb: Timefold's acceptors and moves instead of TVM's swaps
 * of the peak buffer's conflict neighbours with its probabilistic acceptance; one pool; gaps,
 * alignment and fixed offsets honoured. Lowest-offset decoding of an order cannot reach every
 * placement (it only yields "gravity" placements), which is the usual price of this encoding.
 *
 * <p>Immutable and thread-safe: each {@link #solve} builds its own Timefold solver.
 */
public final class TimefoldPlanner implements Planner<DsaInstance, DsaSolution> {

  /**
   * The planner's settings.
   *
   * @param unimproved stop after this long without a better solution ({@code null}: never)
   * @param peakCount whether the soft term (buffers ending at the peak) is on
   * @param localSearch Timefold's local search type
   */
  public record Options(Duration unimproved, boolean peakCount, LocalSearchType localSearch) {
    public Options {
      Objects.requireNonNull(localSearch, "localSearch");
      if (unimproved != null && (unimproved.isNegative() || unimproved.isZero())) {
        throw new IllegalArgumentException("unimproved time must be positive: " + unimproved);
      }
    }

    public static Options defaults() {
      return new Options(null, DEFAULT_PEAK_COUNT, LocalSearchType.LATE_ACCEPTANCE);
    }

    public Options withUnimproved(Duration d) {
      return new Options(d, peakCount, localSearch);
    }

    public Options withPeakCount(boolean on) {
      return new Options(unimproved, on, localSearch);
    }

    public Options withLocalSearch(LocalSearchType type) {
      return new Options(unimproved, peakCount, type);
    }
  }

  static final boolean DEFAULT_PEAK_COUNT = false;

  private final Options options;

  public TimefoldPlanner() {
    this(Options.defaults());
  }

  public TimefoldPlanner(Options options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  public Options options() {
    return options;
  }

  /**
   * The starting order: buffers by ascending offset in {@code offsets}, fixed buffers first, ties
   * by id then index.
   */
  static int[] startOrder(DsaInstance inst, long[] offsets) {
    Integer[] idx = new Integer[inst.size()];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = i;
    }
    Comparator<Integer> byFixed =
        Comparator.comparing((Integer i) -> inst.buffer(i).fixedOffset().isPresent() ? 0 : 1);
    Arrays.sort(
        idx,
        byFixed
            .thenComparingLong(i -> offsets[i])
            .thenComparing(i -> inst.buffer(i).id())
            .thenComparingInt(i -> i));
    return Arrays.stream(idx).mapToInt(Integer::intValue).toArray();
  }

  /** The Timefold solution of {@code inst} with the blocks in {@code order}, decoded. */
  static DsaPlan plan(DsaInstance inst, Decoder decoder, int[] order, boolean peakCount) {
    return plan(inst, decoder, order, peakCount, Budget.unlimited());
  }

  /** {@link #plan(DsaInstance, Decoder, int[], boolean)}, the decode polling {@code budget}. */
  static DsaPlan plan(
      DsaInstance inst, Decoder decoder, int[] order, boolean peakCount, Budget budget) {
    List<Block> blocks = new ArrayList<>(inst.size());
    for (int i = 0; i < inst.size(); i++) {
      Buffer b = inst.buffer(i);
      blocks.add(new Block(i, b.id(), b.size()));
    }
    long[] off = decoder.decode(order, budget);
    List<Block> ordered = new ArrayList<>(order.length);
    int pinned = 0;
    for (int p = 0; p < order.length; p++) {
      Block b = blocks.get(order[p]);
      b.position = p;
      b.setOffset(off[order[p]]);
      ordered.add(b);
      if (decoder.fixed[order[p]] >= 0) {
        pinned = p + 1;
      }
    }
    return new DsaPlan(
        blocks, new Placement(ordered, pinned), new Limits(inst.capacity(), peakCount), decoder);
  }

  /** The solver configuration of one run (no termination: see {@link #terminations}). */
  SolverConfig solverConfig(long seed, EnvironmentMode mode) {
    return new SolverConfig()
        .withSolutionClass(DsaPlan.class)
        .withEntityClasses(Placement.class, Block.class)
        .withConstraintProviderClass(DsaConstraints.class)
        .withEnvironmentMode(mode)
        .withRandomSeed(seed)
        .withPhases(new LocalSearchPhaseConfig().withLocalSearchType(options.localSearch()));
  }

  private TerminationConfig terminations(Budget budget) {
    TerminationConfig t = new TerminationConfig();
    if (budget.stepCap() != Long.MAX_VALUE) {
      t.setMoveCountLimit(budget.stepCap());
    }
    if (options.unimproved() != null) {
      t.setUnimprovedSpentLimit(options.unimproved());
    }
    return t;
  }

  /** Up to this many buffers the best order is decoded again from scratch as a check. */
  static final int SCRATCH_CHECK_MAX = 20_000;

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    return solve(instance, ctx, EnvironmentMode.NO_ASSERT);
  }

  /** {@link #solve(DsaInstance, SolveContext)} in another environment mode (tests: FULL_ASSERT). */
  Outcome<DsaSolution> solve(DsaInstance inst, SolveContext ctx, EnvironmentMode mode) {
    long t0 = System.nanoTime();
    Map<String, Number> stats = new TreeMap<>();
    String infeasible = provenInfeasible(inst);
    if (infeasible != null) {
      return Outcome.<DsaSolution>infeasible(infeasible).withStats(stats);
    }
    long lb = lowerBound(inst);
    stats.put("lower-bound", lb);
    if (lb > inst.capacity()) {
      return Outcome.<DsaSolution>infeasible(
              "the lower bound " + lb + " exceeds the capacity " + inst.capacity())
          .withStats(stats);
    }
    GreedyIncumbents.Pick pick = GreedyIncumbents.pick(inst, ctx.budget());
    if (pick == null) {
      return Outcome.<DsaSolution>error("timefold: no greedy start for '" + inst.name() + "'")
          .withStats(stats);
    }
    DsaSolution greedy = pick.solution();
    long greedyPeak = inst.peak(greedy);
    stats.put("greedy-peak", greedyPeak);
    Decoder decoder;
    int[] order;
    DsaPlan start;
    long decodeNanos;
    try {
      if (ctx.budget().exhausted(0)) {
        throw new Decoder.Exhausted();
      }
      decoder = new Decoder(inst, ctx.budget());
      order = startOrder(inst, greedy.offsets());
      long d0 = System.nanoTime();
      start = plan(inst, decoder, order, options.peakCount(), ctx.budget());
      decodeNanos = System.nanoTime() - d0;
    } catch (Decoder.Exhausted e) {
      // no time left for the search: the greedy start is the answer
      stats.put("millis", (System.nanoTime() - t0) / 1e6);
      if (greedyPeak > inst.capacity()) {
        return Outcome.<DsaSolution>noSolution(
                OptionalLong.of(lb),
                "greedy peak " + greedyPeak + " exceeds the capacity " + inst.capacity())
            .withStats(stats);
      }
      Outcome<DsaSolution> out =
          greedyPeak == lb
              ? Outcome.optimal(greedy, lb)
              : Outcome.feasible(greedy, OptionalLong.of(lb));
      return out.withMessage(
              "budget exhausted before the search: the greedy start (" + pick.rule() + ")")
          .withStats(stats);
    }
    long[] startOffsets = start.offsets();
    String bad = invalid(inst, startOffsets);
    if (bad != null) {
      return Outcome.<DsaSolution>error("timefold: the start order decodes to " + bad)
          .withStats(stats);
    }
    long startPeak = inst.peak(new DsaSolution(startOffsets));
    stats.put("start-peak", startPeak);
    // the incumbent: the decoded start, or the greedy itself if (with windows) it is lower
    long[] best = startPeak <= greedyPeak ? startOffsets : greedy.offsets();
    long bestPeak = Math.min(startPeak, greedyPeak);
    if (bestPeak <= inst.capacity()) {
      ctx.progress().improved(bestPeak, lb, "greedy start");
    }
    int movable = inst.size() - start.getPlacement().getPinned();
    // the search begins with a full decode inside Timefold, about as long as the one above: it
    // starts only if that, a move or so, and the wrap-up fit in what is left
    java.time.Duration needed =
        java.time.Duration.ofNanos(2 * decodeNanos).plus(ctx.budget().wrapUp(inst.size()));
    if (bestPeak > lb
        && movable >= 2
        && !ctx.budget().exhausted(0)
        && !ctx.budget().exhausted(needed)) {
      Search s =
          new Search(
              inst, ctx, mode, lb, start, bestPeak <= inst.capacity() ? bestPeak : Long.MAX_VALUE);
      DsaPlan found;
      try {
        found = s.run();
      } catch (RuntimeException e) {
        return Outcome.<DsaSolution>error("timefold: " + e).withStats(stats);
      }
      stats.putAll(s.stats);
      int[] foundOrder =
          found.getPlacement().getOrder().stream().mapToInt(Block::getIndex).toArray();
      long[] incremental = found.offsets();
      // the check against a decode from scratch costs a decode; on large instances the validator
      // below checks the answer instead, so that the run ends within its budget
      long[] scratch = inst.size() <= SCRATCH_CHECK_MAX ? decoder.decode(foundOrder) : incremental;
      if (!Arrays.equals(incremental, scratch)) {
        return Outcome.<DsaSolution>error(
                "timefold: the incremental decode of the best order differs from a decode from"
                    + " scratch on '"
                    + inst.name()
                    + "'")
            .withStats(stats);
      }
      bad = invalid(inst, scratch);
      if (bad != null) {
        return Outcome.<DsaSolution>error("timefold: the best order decodes to " + bad)
            .withStats(stats);
      }
      long peak = inst.peak(new DsaSolution(scratch));
      if (peak < bestPeak) {
        best = scratch;
        bestPeak = peak;
      }
    }
    stats.put("peak", bestPeak);
    stats.put("millis", (System.nanoTime() - t0) / 1e6);
    DsaSolution sol = new DsaSolution(best);
    if (bestPeak > inst.capacity()) {
      return Outcome.<DsaSolution>noSolution(
              OptionalLong.of(lb),
              "best peak " + bestPeak + " exceeds the capacity " + inst.capacity())
          .withStats(stats);
    }
    List<Violation> violations = new DsaValidator().validate(inst, sol);
    if (!violations.isEmpty()) {
      return Outcome.<DsaSolution>error("timefold: invalid placement: " + violations.get(0))
          .withStats(stats);
    }
    Outcome<DsaSolution> out =
        bestPeak == lb ? Outcome.optimal(sol, lb) : Outcome.feasible(sol, OptionalLong.of(lb));
    return out.withStats(stats);
  }

  /** The violations of {@code offsets} ignoring the capacity, as a sentence, or null. */
  private static String invalid(DsaInstance inst, long[] offsets) {
    List<Violation> v =
        new DsaValidator()
            .validate(inst.withCapacity(DsaInstance.UNBOUNDED), new DsaSolution(offsets));
    return v.isEmpty() ? null : "an invalid placement of '" + inst.name() + "': " + v.get(0);
  }

  /** The max-load bound, at least every buffer's size and every fixed buffer's end. */
  static long lowerBound(DsaInstance inst) {
    return LowerBounds.maxLoadAndSizes(inst);
  }

  /** Why no placement can exist, from the fixed offsets alone, or null. */
  private static String provenInfeasible(DsaInstance inst) {
    return FixedOffsets.misfit(inst)
        .orElseGet(() -> FixedOffsets.collide(inst) ? "buffers with fixed offsets overlap" : null);
  }

  /** One Timefold run. */
  private final class Search {
    final DsaInstance inst;
    final SolveContext ctx;
    final EnvironmentMode mode;
    final long lb;
    final DsaPlan start;
    final Map<String, Number> stats = new TreeMap<>();

    /** The best peak reported to the progress listener so far ({@code MAX_VALUE}: none). */
    final long reportedPeak;

    Search(
        DsaInstance inst,
        SolveContext ctx,
        EnvironmentMode mode,
        long lb,
        DsaPlan start,
        long reportedPeak) {
      this.reportedPeak = reportedPeak;
      this.inst = inst;
      this.ctx = ctx;
      this.mode = mode;
      this.lb = lb;
      this.start = start;
    }

    DsaPlan run() {
      Budget budget = ctx.budget();
      SolverConfig config =
          solverConfig(ctx.seed(), mode).withTerminationConfig(terminations(budget));
      Solver<DsaPlan> solver = SolverFactory.<DsaPlan>create(config).buildSolver();
      AtomicLong improvements = new AtomicLong();
      AtomicLong reported = new AtomicLong(reportedPeak);
      AtomicLong steps = new AtomicLong();
      if (solver instanceof DefaultSolver<DsaPlan> ds) {
        ds.addPhaseLifecycleListener(
            new PhaseLifecycleListenerAdapter<>() {
              @Override
              public void stepEnded(AbstractStepScope<DsaPlan> stepScope) {
                steps.incrementAndGet();
              }
            });
      }
      solver.addEventListener(
          event -> {
            HardMediumSoftLongScore score = (HardMediumSoftLongScore) event.getNewBestScore();
            improvements.incrementAndGet();
            if (score.hardScore() == 0) {
              long peak = -score.mediumScore();
              if (peak < reported.get()) { // not a better secondary term alone
                reported.set(peak);
                ctx.progress().improved(peak, lb, "timefold");
              }
              if (peak <= lb) {
                solver.terminateEarly();
              }
            }
          });
      DsaPlan best;
      java.time.Duration reserve = budget.wrapUp(start.getPlacement().getOrder().size());
      try (BudgetWatcher w =
          BudgetWatcher.start(budget, reserve, solver, "timefold-budget-watcher")) {
        best = solver.solve(start);
      }
      stats.put("improvements", improvements.get());
      stats.put("steps", steps.get());
      if (solver instanceof DefaultSolver<DsaPlan> ds) {
        stats.put("move-evaluations", ds.getMoveEvaluationCount());
        stats.put("score-calculations", ds.getScoreCalculationCount());
      }
      return best;
    }
  }
}
