package io.github.memplan.solvers.dsa.bnb;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.dsa.FixedOffsets;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.ProgressListener;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.dsa.SearchModel;
import io.github.memplan.solvers.dsa.greedy.Portfolio;
import io.github.memplan.solvers.dsa.greedy.SmallestGapFit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * An exact DSA planner: branch and bound over MiniMalloc's canonical placements (Moffitt,
 * "MiniMalloc: A Lightweight Memory Allocator for Hardware-Accelerated Machine Learning", ASPLOS
 * 2023, DOI 10.1145/3623278.3624752; google/minimalloc {@code src/solver.cc}, {@code
 * src/sweeper.cc}), wrapped in a capacity loop that minimises the peak.
 *
 * <p><b>Decision.</b> Whether the buffers fit below a capacity {@code c} is decided by {@link
 * Search}, MiniMalloc's depth-first search, with its portfolio: the static preorders (default
 * {@code WAT, TAW, TWA}) run round robin, each restarted with a node limit that doubles every round
 * (starting at twice the number of buffers, as upstream). A run that ends without reaching its
 * limit is a proof either way.
 *
 * <p><b>Minimisation</b> (mode {@code minimise}; MiniMalloc itself only decides). The proven lower
 * bound {@code lb} starts at the max-load bound, at least every buffer's size and every fixed
 * buffer's end, rounded up to the granularity {@code g} (the gcd of all sizes, alignments and fixed
 * offsets: gravity placements put every offset on a multiple of {@code g}, so the optimum is one).
 * The incumbent comes from the greedies (best fit by decreasing size, online best fit in order of
 * start times, see {@link SmallestGapFit}, and on instances without gaps or fixed offsets the
 * orders of {@link Portfolio}, among them first fit by decreasing size) and from an optional
 * warm-start planner. Two tracks then share the nodes equally: the proof track probes {@code c =
 * lb} (a placement found there is optimal; a proof that none exists raises {@code lb} by {@code
 * g}), and the descent track probes capacities below the incumbent to improve it (a proof there
 * raises {@code lb} past it), at a falling capacity with a node limit that starts afresh at every
 * new incumbent. A probe cut short never counts as a proof, unlike upstream's {@code
 * --minimize_capacity} loop, which also counts timeouts as "does not fit" and bisects from 0.
 *
 * <p><b>Outcome.</b> {@code OPTIMAL} only when the peak equals the proven bound; otherwise {@code
 * FEASIBLE} with the best placement and the proven bound; {@code INFEASIBLE} when the capacity is
 * proven too small; {@code NO_SOLUTION_IN_BUDGET} otherwise.
 *
 * <p><b>Gaps.</b> During a gap a buffer occupies only its window ({@link
 * io.github.memplan.core.dsa.Occupancy}). As in MiniMalloc, a buffer placed later must then lie
 * above an earlier co-active one by their effective size, which excludes placements that interleave
 * windows; so on instances with windowed gaps no search failure is a proof: such runs claim {@code
 * OPTIMAL} only when a placement meets the bound, and never {@code INFEASIBLE} from the search.
 *
 * <p>Immutable and thread-safe; each {@link #solve} builds its own state. One budget step is one
 * search node.
 */
public final class ExactPlanner implements Planner<DsaInstance, DsaSolution> {

  /** What to solve. */
  public enum Mode {
    /** The least peak (within the instance's capacity). */
    MINIMISE,
    /** Any placement within the instance's capacity. */
    DECIDE
  }

  /**
   * The planner's settings.
   *
   * @param mode minimise the peak, or only decide the capacity
   * @param orders the static preorders run round robin, each a word of {@link Preorder} letters
   * @param nodeLimit a cap on search nodes for the whole run (0: none besides the budget's)
   * @param warmStart a planner whose solution, if valid and better, becomes the first incumbent
   */
  public record Options(
      Mode mode, List<String> orders, long nodeLimit, Planner<DsaInstance, DsaSolution> warmStart) {
    public Options {
      Objects.requireNonNull(mode, "mode");
      orders = List.copyOf(orders);
      if (orders.isEmpty()) {
        throw new IllegalArgumentException("exact: at least one preorder is needed");
      }
      orders.forEach(Preorder::new);
      if (nodeLimit < 0) {
        throw new IllegalArgumentException("exact: node limit " + nodeLimit + " < 0");
      }
    }

    /** Minimise, MiniMalloc's preorders, no node limit, no warm start. */
    public static Options defaults() {
      return new Options(Mode.MINIMISE, DEFAULT_ORDERS, 0, null);
    }

    public Options withMode(Mode newMode) {
      return new Options(newMode, orders, nodeLimit, warmStart);
    }

    public Options withNodeLimit(long newLimit) {
      return new Options(mode, orders, newLimit, warmStart);
    }

    public Options withWarmStart(Planner<DsaInstance, DsaSolution> planner) {
      return new Options(mode, orders, nodeLimit, planner);
    }
  }

  /** MiniMalloc's default portfolio ({@code SolverParams::preordering_heuristics}). */
  public static final List<String> DEFAULT_ORDERS = List.of("WAT", "TAW", "TWA");

  private final Options options;
  private final List<Preorder> preorders;

  public ExactPlanner() {
    this(Options.defaults());
  }

  public ExactPlanner(Options options) {
    this.options = Objects.requireNonNull(options, "options");
    this.preorders = options.orders().stream().map(Preorder::new).toList();
  }

  public Options options() {
    return options;
  }

  /** How many capacities below the incumbent the descent track walks before its limit doubles. */
  static final int WALK = 8;

  /** Above this many buffers the search runs on a thread with a stack sized to its depth. */
  static final int DEEP = 2_000;

  /** Above this many buffers the planner runs {@link WindowRepair} instead of one search. */
  public static final int LARGE = 20_000;

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    if (instance.size() > LARGE) {
      return WindowRepair.solve(instance, ctx, options);
    }
    if (instance.size() <= DEEP) {
      return new Run(instance, ctx).solve();
    }
    // the depth-first search recurses once or twice per placed buffer
    long stack = Math.min(1L << 31, (64L << 20) + 4096L * instance.size());
    Object[] result = new Object[1];
    Thread worker =
        new Thread(
            null,
            () -> {
              try {
                result[0] = new Run(instance, ctx).solve();
              } catch (RuntimeException | Error e) {
                result[0] = e;
              }
            },
            "exact-search",
            stack);
    worker.start();
    boolean interrupted = false;
    while (true) {
      try {
        worker.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // the budget stops the search; the caller learns of it afterwards
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (result[0] instanceof RuntimeException e) {
      throw e;
    }
    if (result[0] instanceof Error e) {
      throw e;
    }
    @SuppressWarnings("unchecked")
    Outcome<DsaSolution> out = (Outcome<DsaSolution>) result[0];
    return out;
  }

  /** The state of one {@link #solve} call. */
  private final class Run {
    final DsaInstance inst;
    final SolveContext ctx;
    final Budget budget;
    final Search.Counter counter = new Search.Counter();
    final Map<String, Number> stats = new TreeMap<>();
    final long t0 = System.nanoTime();
    SearchModel md;
    long g;
    long lb; // proven
    long searchLo; // the lowest capacity not yet searched out (== lb without windows)
    long ub = Long.MAX_VALUE; // peak of best
    long[] best; // offsets of all buffers
    int probes;
    int proofs;
    int descents;

    Run(DsaInstance inst, SolveContext ctx) {
      this.inst = inst;
      this.ctx = ctx;
      this.budget = ctx.budget();
    }

    Outcome<DsaSolution> solve() {
      String bad = FixedOffsets.misfit(inst).orElse(null);
      if (bad != null) {
        return Outcome.<DsaSolution>infeasible(bad).withStats(stats);
      }
      try {
        md = new SearchModel(inst);
      } catch (SearchModel.TooDense e) {
        return dense(e);
      }
      g = md.granularity;
      long cap = inst.capacity();
      lb = roundUp(initialBound(), g);
      stats.put("max-load-bound", LowerBounds.maxLoad(inst));
      if (lb > cap) {
        return Outcome.<DsaSolution>infeasible(
                "the lower bound " + lb + " exceeds the capacity " + cap)
            .withStats(stats);
      }
      int[] universal = universal(md);
      if (universal.length > 0) {
        return stackUniversal(universal);
      }
      searchLo = lb;
      long[] greedy = SmallestGapFit.bestFit(md);
      if (greedy != null) {
        offer(full(greedy), "greedy");
      }
      DsaSolution online = new DsaSolution(SmallestGapFit.online(inst));
      if (new DsaValidator().isValid(inst.withCapacity(DsaInstance.UNBOUNDED), online)) {
        offer(online.offsets(), "online");
      }
      if (Portfolio.applies(inst)) {
        Portfolio.Result r = Portfolio.best(inst, budget);
        if (r != null
            && new DsaValidator()
                .isValid(inst.withCapacity(DsaInstance.UNBOUNDED), new DsaSolution(r.offsets()))) {
          offer(r.offsets(), r.order());
        }
      }
      warmStart();
      long target = cap == DsaInstance.UNBOUNDED ? cap : cap - cap % g;
      if (options.mode() == Mode.DECIDE) {
        if (best == null) {
          decide(target);
        }
      } else {
        minimise(target);
      }
      return outcome(cap);
    }

    /**
     * The buffers that can go to the bottom without loss: those co-active with every other searched
     * buffer, repeatedly (after removing them, others may become so). Such a buffer owns its band
     * of addresses at all times (every other buffer overlaps it in time, so never enters the band),
     * so cutting the band out and moving the buffer to the bottom keeps any placement valid and its
     * peak unchanged: the optimum is their total plus the optimum of the rest. Only without fixed
     * offsets and windows, and when their sizes keep every alignment.
     */
    private int[] universal(SearchModel md) {
      if (md.windows || md.n < 2) {
        return new int[0];
      }
      for (int i = 0; i < md.n; i++) {
        if (md.fixed[i] >= 0) {
          return new int[0];
        }
      }
      boolean[] gone = new boolean[md.n];
      int alive = md.n;
      int[] degree = new int[md.n];
      for (int i = 0; i < md.n; i++) {
        degree[i] = md.ovl[i].length;
      }
      java.util.List<Integer> out = new java.util.ArrayList<>();
      while (alive > 1) {
        java.util.List<Integer> round = new java.util.ArrayList<>();
        for (int i = 0; i < md.n; i++) {
          if (!gone[i] && degree[i] == alive - 1) {
            round.add(i);
          }
        }
        if (round.isEmpty()) {
          break;
        }
        for (int x : round) {
          gone[x] = true;
          alive--;
          out.add(x);
          for (int y : md.ovl[x]) {
            degree[y]--;
          }
        }
      }
      for (int x : out) {
        for (int y = 0; y < md.n; y++) {
          if (md.size[x] % md.align[y] != 0) {
            return new int[0];
          }
        }
      }
      return out.stream().mapToInt(Integer::intValue).sorted().toArray();
    }

    /**
     * Solves the other searched buffers alone, in the capacity minus the universal buffers' band,
     * then stacks the universal buffers underneath and lifts the rest by the band. Trivial buffers
     * keep their offsets: they occupy nothing, but their ends count in the peak and the bound.
     */
    private Outcome<DsaSolution> stackUniversal(int[] universal) {
      long band = 0;
      boolean[] isUniversal = new boolean[md.n];
      for (int x : universal) {
        band += md.size[x];
        isUniversal[x] = true;
      }
      List<Buffer> rest = new ArrayList<>();
      List<Integer> restIndex = new ArrayList<>();
      for (int k = 0; k < md.n; k++) {
        if (!isUniversal[k]) {
          restIndex.add(md.index[k]);
          rest.add(inst.buffer(md.index[k]));
        }
      }
      stats.put("universal-buffers", universal.length);
      stats.put("universal-bytes", band);
      long cap = inst.capacity();
      Outcome<DsaSolution> out;
      if (rest.isEmpty()) {
        out = Outcome.optimal(new DsaSolution(new long[0]), 0);
      } else {
        // the rest is co-active with every universal buffer, so the max load is above the band
        long restCap = cap == DsaInstance.UNBOUNDED ? cap : cap - band;
        DsaInstance sub = new DsaInstance(inst.name(), rest, restCap, null);
        long shift = band;
        ProgressListener lifted =
            (objective, bound, note) ->
                ctx.progress()
                    .improved(
                        objective == Long.MAX_VALUE ? objective : objective + shift,
                        bound + shift,
                        note);
        out = new Run(sub, ctx.withProgress(lifted)).solve();
        out.stats()
            .forEach(
                (k, v) ->
                    stats.put(
                        k,
                        k.startsWith("incumbent-source-") || k.equals("warm-start-peak")
                            ? v + shift
                            : v));
        stats.put("max-load-bound", LowerBounds.maxLoad(inst));
      }
      long bound = lb;
      if (out.lowerBound().isPresent()) {
        bound = Math.max(bound, out.lowerBound().getAsLong() + band);
      }
      stats.put("lower-bound", bound);
      if (!out.status().hasSolution()) {
        return new Outcome<DsaSolution>(
                out.status(),
                null,
                out.status() == Status.INFEASIBLE ? OptionalLong.empty() : OptionalLong.of(bound),
                Map.of(),
                out.message())
            .withStats(stats);
      }
      long[] offs = md.trivialOffset.clone();
      long at = 0;
      for (int x : universal) {
        offs[md.index[x]] = at;
        at += md.size[x];
      }
      for (int j = 0; j < rest.size(); j++) {
        offs[restIndex.get(j)] = out.solution().offset(j) + band;
      }
      DsaSolution sol = new DsaSolution(offs);
      long peak = inst.peak(sol);
      Outcome<DsaSolution> lifted =
          peak <= bound
              ? Outcome.optimal(sol, peak)
              : Outcome.feasible(sol, OptionalLong.of(bound));
      return lifted.withMessage(out.message()).withStats(stats);
    }

    /** Too many co-active pairs to search: {@link SmallestGapFit#online} and the max-load bound. */
    private Outcome<DsaSolution> dense(SearchModel.TooDense e) {
      long bound = initialBound();
      long cap = inst.capacity();
      stats.put("max-load-bound", LowerBounds.maxLoad(inst));
      stats.put("co-active-pairs", e.pairs);
      String why = "search skipped: " + e.getMessage() + "; online best fit only";
      if (bound > cap) {
        return Outcome.<DsaSolution>infeasible(
                "the lower bound " + bound + " exceeds the capacity " + cap)
            .withStats(stats);
      }
      if (FixedOffsets.collide(inst)) {
        return Outcome.<DsaSolution>infeasible("buffers with fixed offsets overlap")
            .withStats(stats);
      }
      DsaSolution sol = new DsaSolution(SmallestGapFit.online(inst));
      if (!new DsaValidator().isValid(inst.withCapacity(DsaInstance.UNBOUNDED), sol)) {
        return Outcome.<DsaSolution>error("online best fit produced an invalid placement")
            .withStats(stats);
      }
      long peak = inst.peak(sol);
      stats.put("incumbent-source-online", peak);
      stats.put("lower-bound", bound);
      stats.put("millis", (System.nanoTime() - t0) / 1e6);
      Outcome<DsaSolution> out;
      if (peak > cap) {
        out = Outcome.noSolution(OptionalLong.of(bound), why);
      } else if (peak == bound) {
        out = Outcome.optimal(sol, bound);
      } else {
        out = Outcome.feasible(sol, OptionalLong.of(bound)).withMessage(why);
      }
      return out.withStats(stats);
    }

    private long initialBound() {
      return LowerBounds.maxLoadAndSizes(inst); // counts fixed ends
    }

    private void warmStart() {
      if (options.warmStart() == null || budget.exhausted()) {
        return;
      }
      Outcome<DsaSolution> out = options.warmStart().solve(inst, ctx);
      if (out.status().hasSolution()
          && out.solution().size() == inst.size()
          && new DsaValidator().isValid(inst, out.solution())) {
        stats.put("warm-start-peak", inst.peak(out.solution()));
        offer(out.solution().offsets(), "warm start");
      }
    }

    private long[] full(long[] searched) {
      long[] offs = md.trivialOffset.clone();
      for (int k = 0; k < md.n; k++) {
        offs[md.index[k]] = searched[k];
      }
      return offs;
    }

    private void offer(long[] offsets, String source) {
      long peak = inst.peak(new DsaSolution(offsets));
      if (peak <= inst.capacity() && peak < ub) {
        ub = peak;
        best = offsets;
        stats.put("incumbent-source-" + source, peak);
        ctx.progress().improved(ub, lb, source);
      }
    }

    private void provenAbove(long c) {
      if (!md.windows) {
        lb = Math.max(lb, c + g);
        proofs++;
        ctx.progress().improved(ub, lb, "proof");
      }
      searchLo = Math.max(searchLo, c + g);
    }

    private boolean stopped() {
      return budget.exhausted(counter.steps)
          || (options.nodeLimit() > 0 && counter.steps >= options.nodeLimit());
    }

    /** One round at capacity {@code c}: every preorder with {@code limit} nodes. */
    private int probe(long c, long limit) {
      probes++;
      Budget capped = budget;
      for (Preorder p : preorders) {
        if (stopped()) {
          return Search.TIMEOUT;
        }
        long lim = limit;
        if (options.nodeLimit() > 0) {
          lim = Math.min(lim, options.nodeLimit() - counter.steps);
        }
        Search s = new Search(md, c, capped, counter, p);
        int st;
        try {
          st = s.run(lim);
        } catch (StackOverflowError e) {
          // deeper than the stack allows: no proof either way, and no point going deeper
          stats.put("stack-overflows", 1);
          return Search.TIMEOUT;
        }
        if (st == Search.ABORTED && stopped()) {
          st = Search.TIMEOUT;
        }
        switch (st) {
          case Search.FOUND -> {
            offer(full(s.solution()), "search");
            return st;
          }
          case Search.NOT_FOUND -> {
            provenAbove(c);
            return st;
          }
          case Search.TIMEOUT -> {
            return st;
          }
          default -> {
            // this preorder ran out of nodes: the next one gets the same limit
          }
        }
      }
      return Search.ABORTED;
    }

    private long baseLimit() {
      return 2L * Math.max(md.n, 16);
    }

    private void decide(long c) {
      for (long limit = baseLimit(); ; limit = saturatedDouble(limit)) {
        int st = probe(c, limit);
        if (st != Search.ABORTED) {
          return;
        }
      }
    }

    /**
     * Two tracks that share the nodes equally (whichever has spent fewer nodes runs next). The
     * <em>proof track</em> probes the lowest capacity not yet ruled out, with a node limit that
     * doubles after every probe cut short. The <em>descent track</em> probes below the incumbent,
     * like a decide run at a falling capacity: its distance below the incumbent gallops (it doubles
     * after a placement was found and halves after the probe ran out of nodes, so it settles where
     * placements are still found), and its node limit starts afresh at every new incumbent, as a
     * decide run at the new capacity would, and doubles after a probe cut short. Once the distance
     * is down to one granule, a probe cut short moves the next one a granule lower instead of
     * repeating the same capacity with more nodes (a search is deterministic: a larger limit only
     * extends the same tree, while another capacity is another tree, and the capacities at which a
     * placement is found quickly lie scattered); after {@value #WALK} capacities the walk starts
     * again below the incumbent with twice the limit.
     */
    private void minimise(long cap) {
      long proofLimit = baseLimit();
      long findLimit = baseLimit();
      long proofNodes = 0;
      long findNodes = 0;
      long step = -1;
      long walk = 0;
      while (best == null || ub > lb) {
        if (searchLo > cap || (best != null && searchLo >= ub)) {
          return; // searched out: no proof with windows, else lb moved past
        }
        long top = best != null ? ub : cap == DsaInstance.UNBOUNDED ? -1 : cap + g;
        boolean descend = top - g > searchLo && findNodes < proofNodes;
        long before = counter.steps;
        if (!descend) {
          int st = probe(searchLo, proofLimit);
          proofNodes += counter.steps - before;
          if (st == Search.FOUND || st == Search.TIMEOUT) {
            return;
          }
          if (st == Search.ABORTED) {
            proofLimit = saturatedDouble(proofLimit);
          }
          continue; // after a proof: the next capacity up, same limit
        }
        if (step < 0) {
          step = Math.max(g, roundDown((top - searchLo) / 2, g));
        }
        long c = Math.min(top - g, Math.max(searchLo + g, roundDown(top - step, g)));
        if (step == g) {
          c = top - g - walk * g;
          if (c <= searchLo) {
            walk = 0;
            c = top - g;
          }
        }
        int st = probe(c, findLimit);
        findNodes += counter.steps - before;
        if (st == Search.TIMEOUT) {
          return;
        }
        if (st == Search.FOUND) {
          step = saturatedDouble(step);
          findLimit = baseLimit();
          walk = 0;
          descents++;
        } else if (st == Search.ABORTED) {
          if (step > g) {
            step = Math.max(g, roundDown(step / 2, g));
            findLimit = saturatedDouble(findLimit);
          } else if (++walk >= WALK) {
            walk = 0;
            findLimit = saturatedDouble(findLimit);
          }
        }
      }
    }

    private Outcome<DsaSolution> outcome(long cap) {
      stats.put("nodes", counter.steps);
      stats.put("probes", probes);
      stats.put("proofs", proofs);
      stats.put("descents", descents);
      stats.put("lower-bound", lb);
      stats.put("millis", (System.nanoTime() - t0) / 1e6);
      Outcome<DsaSolution> out;
      if (best != null) {
        DsaSolution sol = new DsaSolution(best);
        out = ub <= lb ? Outcome.optimal(sol, ub) : Outcome.feasible(sol, OptionalLong.of(lb));
      } else if (lb > cap) {
        out = Outcome.infeasible("proven: no placement within the capacity " + cap);
      } else {
        out = Outcome.noSolution(OptionalLong.of(lb), "budget exhausted before a placement fit");
      }
      return out.withStats(stats);
    }
  }

  private static long roundUp(long v, long g) {
    long r = v % g;
    return r == 0 ? v : v + (g - r);
  }

  private static long roundDown(long v, long g) {
    return v - v % g;
  }

  private static long saturatedDouble(long v) {
    return v > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * v;
  }
}
