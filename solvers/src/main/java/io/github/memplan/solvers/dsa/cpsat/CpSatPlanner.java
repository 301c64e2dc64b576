package io.github.memplan.solvers.dsa.cpsat;

import com.google.ortools.sat.BoolVar;
import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverSolutionCallback;
import com.google.ortools.sat.CpSolverStatus;
import com.google.ortools.sat.IntVar;
import com.google.ortools.sat.IntervalVar;
import com.google.ortools.sat.LinearExpr;
import com.google.ortools.sat.Literal;
import com.google.ortools.sat.NoOverlap2dConstraint;
import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.dsa.FixedOffsets;
import io.github.memplan.core.dsa.Gap;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.dsa.Occupancy;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.ProgressListener;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.core.solve.Violation;
import io.github.memplan.solvers.dsa.greedy.GreedyIncumbents;
import io.github.memplan.solvers.ortools.BudgetedSolve;
import io.github.memplan.solvers.ortools.Natives;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The DSA problem as an OR-Tools CP-SAT model (Google OR-Tools, {@code ortools/sat}; the
 * formulation of the design note in the project's anchors, §B.2, after {@code
 * ortools/sat/docs/scheduling.md}: rectangles that may only slide along the address axis), warm
 * started from a greedy placement and minimising the peak.
 *
 * <p><b>Model.</b> Every buffer that occupies something gets one offset variable {@code y_i =
 * a_i·k_i} (its alignment {@code a_i} as the step of the domain, {@code k_i >= 0} an integer), or
 * the constant of its fixed offset. Each of its occupancy pieces ({@link Occupancy}: the whole size
 * over its lifetime, only the window {@code [from, to)} during a gap) is a rectangle with a fixed
 * time interval and the address interval {@code [y_i + from, y_i + to)}. Two formulations keep
 * rectangles apart (parameter {@code model}):
 *
 * <ul>
 *   <li>{@code no-overlap-2d} (default): one {@code AddNoOverlap2D} over all rectangles, with fixed
 *       x intervals.
 *   <li>{@code pairwise}: for each pair of buffers with pieces alive at the same time, the
 *       differences {@code d = y_j - y_i} their co-active pieces forbid form a union of intervals;
 *       one literal per allowed segment of the complement (exactly one true) enforces it. Without
 *       gaps this is the classical disjunction {@code y_i + s_i <= y_j or y_j + s_j <= y_i}. Exact
 *       with gaps: the pieces' windows are checked one by one, not through MiniMalloc's effective
 *       size.
 * </ul>
 *
 * <p>On MiniMalloc's eleven challenging instances with 5 s each (2 workers), NoOverlap2D ended
 * lower on seven (B–G, I) and proved C optimal; pairwise ended lower on A, H and K, and within 5 s
 * did not get past presolve on D, I and J.
 *
 * <p>A peak variable {@code H} has {@code H >= y_i + s_i} for every buffer, {@code H >= LB} (the
 * max-load bound, which also covers every fixed buffer's end and every size), {@code H <= C} (the
 * capacity, also the end of a stack of all buffers, which always fits); the objective minimises
 * {@code H}.
 *
 * <p><b>Granularity.</b> All values are divided by {@code g}, the gcd of all sizes, alignments
 * above 1, fixed offsets and gap-window bounds. This keeps the optimum: from any valid placement
 * {@code o}, the placement {@code o'_i = g·floor(o_i/g)} is valid with a peak no larger. Aligned
 * and fixed offsets are multiples of {@code g} and do not move. Two co-active pieces apart in
 * address, say {@code o_i + t <= o_j + f} with window bounds {@code t, f} multiples of {@code g},
 * stay apart because {@code floor} is monotone and {@code floor((o + c)/g) = floor(o/g) + c/g} for
 * a multiple {@code c} of {@code g}. Every end {@code o'_i + s_i} is at most {@code o_i + s_i}. So
 * an optimal placement lies on the grid, its peak is {@code g·H*}, and a bound {@code b} on the
 * scaled {@code H} gives the bound {@code g·ceil(b)} (the argument of {@code ExactPlanner}, here
 * extended to gap windows).
 *
 * <p><b>Symmetry.</b> Twins (buffers without fixed offsets of equal lifetime, size, alignment and
 * gaps) are interchangeable: permuting their offsets keeps a placement valid with the same peak. So
 * {@code y_i <= y_j} for twins {@code i} before {@code j} in instance order loses no optimum. The
 * hint is permuted the same way, so that it satisfies these constraints. No other symmetry breaking
 * is added; MiniMalloc's canonical order (anchors §F) is not.
 *
 * <p><b>Warm start.</b> The best greedy ({@link GreedyIncumbents#best}), or another DSA planner's
 * solution (parameter {@code warm-start}), snapped to the grid as above, is given to CP-SAT as a
 * complete hint, tightens {@code H <= peak}, and is returned if CP-SAT finds nothing better in the
 * budget. When its peak already meets the lower bound it is returned {@code OPTIMAL} without
 * solving.
 *
 * <p><b>Outcome.</b> {@code OPTIMAL} when CP-SAT proves optimality (or the peak meets a proven
 * bound); otherwise {@code FEASIBLE} with the lower bound {@code max(LB, g·ceil(CP-SAT's best
 * objective bound))}; {@code INFEASIBLE} when CP-SAT proves that nothing fits in the capacity;
 * {@code NO_SOLUTION_IN_BUDGET} when neither CP-SAT nor the hint gave a placement within it; {@code
 * ERROR} where OR-Tools has no native library. Every returned placement passes {@link
 * DsaValidator}.
 *
 * <p><b>Budget.</b> The remaining wall-clock time is CP-SAT's {@code max_time_in_seconds}; a
 * watcher thread calls {@code stopSearch()} on cancellation (and past the deadline). One budget
 * step is one CP-SAT conflict ({@code max_number_of_conflicts}).
 *
 * <p><b>Determinism.</b> A run that ends with a proof ({@code OPTIMAL}, {@code INFEASIBLE}) has a
 * deterministic objective and status, but with several workers the placement among equal optima may
 * differ between runs. A run cut by the wall clock may end anywhere. With {@code deterministic-time
 * > 0} CP-SAT stops after that much deterministic time (its {@code max_deterministic_time}) and
 * searches with one worker, so that the same seed gives the same bytes, as long as the wall-clock
 * budget does not cut the run first. (Several workers exchange solutions in wall-clock order;
 * CP-SAT's deterministic {@code interleave_search} would keep them apart, but in OR-Tools 9.15 it
 * aborts the process on some small infeasible models.)
 *
 * <p>Departures from the design note: pairwise disjunctions are offered besides NoOverlap2D, gap
 * windows are modelled exactly, and only twin symmetry is broken.
 */
public final class CpSatPlanner implements Planner<DsaInstance, DsaSolution> {

  /** How rectangles are kept apart. */
  public enum Formulation {
    /** One literal per allowed segment of {@code y_j - y_i}, for each co-active pair. */
    PAIRWISE("pairwise"),
    /** One {@code AddNoOverlap2D} constraint over all pieces. */
    NO_OVERLAP_2D("no-overlap-2d");

    private final String id;

    Formulation(String id) {
      this.id = id;
    }

    public String id() {
      return id;
    }
  }

  /** Where the hint comes from. */
  public sealed interface WarmStart {
    /** {@link GreedyIncumbents#best}. */
    record Greedy() implements WarmStart {}

    /** No hint. */
    record None() implements WarmStart {}

    /** Another DSA planner's solution. */
    record From(String id, Planner<DsaInstance, DsaSolution> planner) implements WarmStart {
      public From {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(planner, "planner");
      }
    }
  }

  /**
   * The planner's settings.
   *
   * @param formulation pairwise disjunctions or NoOverlap2D
   * @param workers CP-SAT's {@code num_workers}
   * @param warmStart the hint's source
   * @param deterministicTime CP-SAT's {@code max_deterministic_time}, 0 for none; when set, the
   *     search runs on one worker, deterministically
   * @param symmetry whether twins are ordered
   */
  public record Options(
      Formulation formulation,
      int workers,
      WarmStart warmStart,
      double deterministicTime,
      boolean symmetry) {
    public Options {
      Objects.requireNonNull(formulation, "formulation");
      Objects.requireNonNull(warmStart, "warmStart");
      BudgetedSolve.checkSettings(workers, deterministicTime);
    }

    /** NoOverlap2D, 2 workers, greedy hint, no deterministic limit, twins ordered. */
    public static Options defaults() {
      return new Options(Formulation.NO_OVERLAP_2D, 2, new WarmStart.Greedy(), 0, true);
    }

    public Options withFormulation(Formulation f) {
      return new Options(f, workers, warmStart, deterministicTime, symmetry);
    }

    public Options withWorkers(int w) {
      return new Options(formulation, w, warmStart, deterministicTime, symmetry);
    }

    public Options withWarmStart(WarmStart ws) {
      return new Options(formulation, workers, ws, deterministicTime, symmetry);
    }

    public Options withDeterministicTime(double t) {
      return new Options(formulation, workers, warmStart, t, symmetry);
    }

    public Options withSymmetry(boolean s) {
      return new Options(formulation, workers, warmStart, deterministicTime, s);
    }
  }

  /** More co-active piece pairs than this are not modelled pairwise (memory). */
  static final long MAX_PAIRS = 4_000_000;

  /** Scaled values above this are refused: CP-SAT works in 62-bit integers without overflow. */
  static final long MAX_SCALED = 1L << 50;

  private final Options options;

  public CpSatPlanner() {
    this(Options.defaults());
  }

  public CpSatPlanner(Options options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  public Options options() {
    return options;
  }

  /** Whether OR-Tools' native library loads on this platform. */
  public static boolean available() {
    return Natives.available();
  }

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    if (!Natives.available()) {
      return Outcome.error(Natives.problem());
    }
    return new Run(instance, ctx).solve();
  }

  /** One piece of a searched buffer, scaled by the granularity. */
  private record Piece(int lower, int upper, long from, long to) {}

  /** A twin class key: lifetime, size, alignment and gaps. */
  private record TwinKey(int lower, int upper, long size, long alignment, List<Gap> gaps) {}

  /** The state of one {@link #solve} call. */
  private final class Run {
    final DsaInstance inst;
    final SolveContext ctx;
    final Budget budget;
    final Map<String, Number> stats = new TreeMap<>();
    final long t0 = System.nanoTime();
    final DsaValidator validator = new DsaValidator();

    long g = 1;
    long lb; // proven, a multiple of g
    int n; // searched buffers
    int[] index; // instance index of each searched buffer
    long[] sizeS;
    long[] stepS; // alignment step of the scaled offset
    long[] fixedS; // scaled fixed offset, or -1
    Piece[][] pieces;
    long[] trivialOffset; // by instance index, -1 for searched buffers
    String refused; // why the warm-start planner gave no hint, or null

    Run(DsaInstance inst, SolveContext ctx) {
      this.inst = inst;
      this.ctx = ctx;
      this.budget = ctx.budget();
    }

    Outcome<DsaSolution> solve() {
      String bad = FixedOffsets.misfit(inst).orElse(null);
      if (bad != null) {
        return finish(Outcome.infeasible(bad));
      }
      prepare();
      long cap = inst.capacity();
      stats.put("granularity", g);
      stats.put("buffers-modelled", n);
      long maxLoad = LowerBounds.maxLoad(inst);
      stats.put("max-load-bound", maxLoad);
      lb = roundUp(LowerBounds.maxLoadAndSizes(inst), g);
      if (lb > cap) {
        return finish(Outcome.infeasible("the lower bound " + lb + " exceeds the capacity " + cap));
      }

      long[] hint = hint();
      long hintPeak = hint == null ? Long.MAX_VALUE : inst.peak(new DsaSolution(hint));
      if (hint != null) {
        stats.put("hint-peak", hintPeak);
        ctx.progress().improved(hintPeak, lb, "hint");
      }
      if (hint != null && hintPeak <= cap && hintPeak <= lb) {
        return finish(
            hinted(
                hint,
                hintPeak,
                Status.OPTIMAL,
                hintPeak,
                "the hint meets the lower bound; CP-SAT not run"));
      }
      if (n == 0) {
        // only trivial buffers: their fixed offsets or 0, which the bound covers
        long[] offs = trivialOffset.clone();
        return finish(checked(offs, Status.OPTIMAL, lb, ""));
      }
      if (budget.exhausted(0)) {
        return finish(fallback(hint, hintPeak, lb, "budget exhausted before CP-SAT ran"));
      }

      long top = stackEnd();
      long ubReal = Math.min(cap - cap % g, top);
      if (hint != null && hintPeak <= cap) {
        ubReal = Math.min(ubReal, hintPeak);
      }
      if (ubReal / g > MAX_SCALED) {
        return finish(
            fallback(
                hint,
                hintPeak,
                lb,
                "values up to " + ubReal + " (granularity " + g + ") too large for CP-SAT"));
      }
      return finish(new Cp(ubReal / g, hint, hintPeak).run());
    }

    private void prepare() {
      int total = inst.size();
      trivialOffset = new long[total];
      List<Integer> searched = new ArrayList<>();
      List<List<Occupancy.Piece>> ps = new ArrayList<>();
      long gg = 0;
      for (int i = 0; i < total; i++) {
        Buffer b = inst.buffer(i);
        gg = Alignment.gcd(gg, b.size());
        if (b.alignment() > 1) {
          gg = Alignment.gcd(gg, b.alignment());
        }
        if (b.fixedOffset().isPresent()) {
          gg = Alignment.gcd(gg, b.fixedOffset().getAsLong());
        }
        List<Occupancy.Piece> mine = Occupancy.pieces(i, b);
        for (Occupancy.Piece p : mine) {
          gg = Alignment.gcd(Alignment.gcd(gg, p.from()), p.to());
        }
        if (mine.isEmpty()) {
          trivialOffset[i] = b.fixedOffset().orElse(0);
        } else {
          trivialOffset[i] = -1;
          searched.add(i);
          ps.add(mine);
        }
      }
      g = gg == 0 ? 1 : gg;
      n = searched.size();
      index = new int[n];
      sizeS = new long[n];
      stepS = new long[n];
      fixedS = new long[n];
      pieces = new Piece[n][];
      for (int k = 0; k < n; k++) {
        Buffer b = inst.buffer(searched.get(k));
        index[k] = searched.get(k);
        sizeS[k] = b.size() / g;
        stepS[k] = b.alignment() > 1 ? b.alignment() / g : 1;
        fixedS[k] = b.fixedOffset().isPresent() ? b.fixedOffset().getAsLong() / g : -1;
        pieces[k] =
            ps.get(k).stream()
                .map(p -> new Piece(p.lower(), p.upper(), p.from() / g, p.to() / g))
                .toArray(Piece[]::new);
      }
    }

    /**
     * The end of a stack that always fits when anything does: the fixed buffers and trivial ends,
     * then every other buffer above the previous one, aligned.
     */
    private long stackEnd() {
      long top = 0;
      for (int i = 0; i < inst.size(); i++) {
        Buffer b = inst.buffer(i);
        if (trivialOffset[i] >= 0 || b.fixedOffset().isPresent()) {
          long off = b.fixedOffset().orElse(0);
          top = Math.max(top, off + b.size());
        }
      }
      try {
        for (int k = 0; k < n; k++) {
          if (fixedS[k] < 0) {
            Buffer b = inst.buffer(index[k]);
            top = Math.addExact(roundUp(top, b.alignment()), b.size());
          }
        }
      } catch (ArithmeticException e) {
        return Long.MAX_VALUE - Long.MAX_VALUE % g;
      }
      return Math.max(top, lb);
    }

    /** The warm start's placement on the grid, twins sorted; null if none or invalid. */
    private long[] hint() {
      long[] offs = null;
      WarmStart ws = options.warmStart();
      if (ws instanceof WarmStart.Greedy) {
        // the pick keeps back Budget.wrapUp for its caller; the hint's grid, twins and validation
        // and the answer's read-back need about as much again on large instances
        GreedyIncumbents.Pick pick =
            GreedyIncumbents.pick(inst, budget.keepingBack(budget.wrapUp(inst.size())));
        DsaSolution s = pick == null ? null : pick.solution();
        offs = s == null ? null : s.offsets().clone();
      } else if (ws instanceof WarmStart.From from) {
        if (budget.exhausted()) {
          return null;
        }
        Outcome<DsaSolution> out;
        try {
          out = from.planner().solve(inst, ctx);
        } catch (IllegalArgumentException e) {
          // e.g. a baseline that refuses fixed offsets: solve without a hint
          refused = "warm start '" + from.id() + "' refused the instance: " + e.getMessage();
          return null;
        }
        if (out.status().hasSolution() && out.solution().size() == inst.size()) {
          offs = out.solution().offsets().clone();
          stats.put("warm-start-peak", inst.peak(out.solution()));
        }
      }
      if (offs == null) {
        return null;
      }
      for (int i = 0; i < offs.length; i++) {
        offs[i] = trivialOffset[i] >= 0 ? trivialOffset[i] : offs[i] - Math.floorMod(offs[i], g);
      }
      if (options.symmetry()) {
        for (int[] group : twinGroups()) {
          long[] at = new long[group.length];
          for (int t = 0; t < group.length; t++) {
            at[t] = offs[index[group[t]]];
          }
          Arrays.sort(at);
          for (int t = 0; t < group.length; t++) {
            offs[index[group[t]]] = at[t];
          }
        }
      }
      DsaSolution s = new DsaSolution(offs);
      return validator.isValid(inst.withCapacity(DsaInstance.UNBOUNDED), s) ? offs : null;
    }

    /** Classes of two or more twins (searched indices ascending), in order of first member. */
    private List<int[]> twinGroups() {
      Map<TwinKey, List<Integer>> byKey = new LinkedHashMap<>();
      for (int k = 0; k < n; k++) {
        if (fixedS[k] >= 0) {
          continue;
        }
        Buffer b = inst.buffer(index[k]);
        byKey
            .computeIfAbsent(
                new TwinKey(b.lower(), b.upper(), b.size(), b.alignment(), b.gaps()),
                key -> new ArrayList<>())
            .add(k);
      }
      List<int[]> out = new ArrayList<>();
      for (List<Integer> members : byKey.values()) {
        if (members.size() > 1) {
          out.add(members.stream().mapToInt(Integer::intValue).toArray());
        }
      }
      return out;
    }

    /** The hint if it fits, else nothing, with the bound {@code bound}. */
    private Outcome<DsaSolution> fallback(long[] hint, long hintPeak, long bound, String why) {
      stats.put("lower-bound", bound);
      if (hint != null && hintPeak <= inst.capacity()) {
        return hinted(hint, hintPeak, Status.FEASIBLE, bound, why + "; the hint returned");
      }
      return Outcome.noSolution(OptionalLong.of(bound), why);
    }

    /** The outcome for {@code offs}, validated: ERROR instead of an invalid placement. */
    private Outcome<DsaSolution> checked(long[] offs, Status status, long bound, String message) {
      DsaSolution sol = new DsaSolution(offs);
      List<Violation> violations = validator.validate(inst, sol);
      if (!violations.isEmpty()) {
        return Outcome.error(
            "cpsat produced an invalid placement ("
                + violations.size()
                + " violations): "
                + violations.get(0));
      }
      return outcome(sol, inst.peak(sol), status, bound, message);
    }

    /**
     * The outcome for the hint of peak {@code hintPeak} within the capacity: {@link #hint}
     * validated it already (a second validation takes a second at 100,000 buffers, after the greedy
     * start has used the budget).
     */
    private Outcome<DsaSolution> hinted(
        long[] hint, long hintPeak, Status status, long bound, String message) {
      return outcome(new DsaSolution(hint), hintPeak, status, bound, message);
    }

    private Outcome<DsaSolution> outcome(
        DsaSolution sol, long peak, Status status, long bound, String message) {
      stats.put("lower-bound", Math.min(bound, peak));
      Outcome<DsaSolution> out =
          status == Status.OPTIMAL || peak <= bound
              ? Outcome.optimal(sol, peak)
              : Outcome.feasible(sol, OptionalLong.of(bound));
      return out.withMessage(message);
    }

    private Outcome<DsaSolution> finish(Outcome<DsaSolution> out) {
      stats.put("millis", (System.nanoTime() - t0) / 1e6);
      if (refused != null) {
        out = out.withMessage(out.message().isEmpty() ? refused : out.message() + "; " + refused);
      }
      return out.withStats(stats);
    }

    /** The CP-SAT model and its solve. */
    private final class Cp {
      final long ubS;
      final long[] hint;
      final long hintPeak;
      final CpModel model = new CpModel();
      IntVar peak;
      IntVar[] k; // null entries for fixed buffers
      final List<BoolVar> pairLits = new ArrayList<>();
      final List<Long> pairLitHints = new ArrayList<>();

      Cp(long ubS, long[] hint, long hintPeak) {
        this.ubS = ubS;
        this.hint = hint;
        this.hintPeak = hintPeak;
      }

      /** {@code y_k} as an expression. */
      LinearExpr y(int b) {
        return fixedS[b] >= 0 ? LinearExpr.constant(fixedS[b]) : LinearExpr.term(k[b], stepS[b]);
      }

      LinearExpr yPlus(int b, long c) {
        return fixedS[b] >= 0
            ? LinearExpr.constant(fixedS[b] + c)
            : LinearExpr.affine(k[b], stepS[b], c);
      }

      long hintY(int b) {
        return hint[index[b]] / g;
      }

      Outcome<DsaSolution> run() {
        long lbS = lb / g;
        peak = model.newIntVar(lbS, ubS, "H");
        k = new IntVar[n];
        for (int b = 0; b < n; b++) {
          if ((b & 0x3FF) == 0 && budget.exhausted()) {
            return fallback(hint, hintPeak, lb, "budget exhausted while building the model");
          }
          if (fixedS[b] >= 0) {
            continue;
          }
          long maxY = ubS - sizeS[b];
          if (maxY < 0) {
            return fallback(hint, hintPeak, lb, "buffer larger than the capacity");
          }
          k[b] = model.newIntVar(0, maxY / stepS[b], "k" + b);
          model.addGreaterOrEqual(peak, yPlus(b, sizeS[b]));
        }
        String why = options.formulation() == Formulation.PAIRWISE ? pairwise() : noOverlap2d();
        if (why != null) {
          return why.startsWith("!")
              ? Outcome.infeasible(why.substring(1))
              : fallback(hint, hintPeak, lb, why);
        }
        if (budget.exhausted()) {
          return fallback(hint, hintPeak, lb, "budget exhausted while building the model");
        }
        if (options.symmetry()) {
          int groups = 0;
          for (int[] group : twinGroups()) {
            groups++;
            for (int t = 1; t < group.length; t++) {
              model.addLessOrEqual(y(group[t - 1]), y(group[t]));
            }
          }
          stats.put("twin-groups", groups);
        }
        model.minimize(peak);
        if (budget.exhausted()) {
          return fallback(hint, hintPeak, lb, "budget exhausted while building the model");
        }
        if (hint != null) {
          for (int b = 0; b < n; b++) {
            if ((b & 0x3FF) == 0 && budget.exhausted()) {
              return fallback(hint, hintPeak, lb, "budget exhausted while building the model");
            }
            if (k[b] != null) {
              model.addHint(k[b], hintY(b) / stepS[b]);
            }
          }
          model.addHint(peak, Math.max(lbS, Math.min(ubS, hintPeak / g)));
          for (int p = 0; p < pairLits.size(); p++) {
            model.addHint(pairLits.get(p), pairLitHints.get(p) != 0);
          }
        }
        if (budget.exhausted(0)) {
          return fallback(hint, hintPeak, lb, "budget exhausted while building the model");
        }
        return solveModel();
      }

      /**
       * Pairwise disjunctions; a reason to skip CP-SAT, a "!"-prefixed proof of infeasibility, or
       * null.
       */
      String pairwise() {
        Integer[] order = new Integer[n];
        for (int b = 0; b < n; b++) {
          order[b] = b;
        }
        int[] lower = new int[n];
        int[] upper = new int[n];
        for (int b = 0; b < n; b++) {
          lower[b] = pieces[b][0].lower();
          upper[b] = pieces[b][pieces[b].length - 1].upper();
        }
        Arrays.sort(order, (x, z) -> lower[x] != lower[z] ? lower[x] - lower[z] : x - z);
        long pairs = 0;
        long[] forbidLo = new long[16];
        long[] forbidHi = new long[16];
        for (int oi = 0; oi < n; oi++) {
          int a = order[oi];
          for (int oj = oi + 1; oj < n && lower[order[oj]] < upper[a]; oj++) {
            int c = order[oj];
            int i = Math.min(a, c);
            int j = Math.max(a, c);
            // d = y_j - y_i: co-active pieces p of i and q of j forbid from_p - to_q < d < to_p -
            // from_q
            int m = 0;
            for (Piece p : pieces[i]) {
              for (Piece q : pieces[j]) {
                if (p.lower() < q.upper() && q.lower() < p.upper()) {
                  if (m == forbidLo.length) {
                    forbidLo = Arrays.copyOf(forbidLo, 2 * m);
                    forbidHi = Arrays.copyOf(forbidHi, 2 * m);
                  }
                  forbidLo[m] = p.from() - q.to() + 1;
                  forbidHi[m] = p.to() - q.from() - 1;
                  m++;
                }
              }
            }
            if (m == 0) {
              continue;
            }
            if (++pairs > MAX_PAIRS) {
              return "more than " + MAX_PAIRS + " co-active pairs to model; CP-SAT not run";
            }
            if ((pairs & 0xFFF) == 0 && budget.exhausted()) {
              return "budget exhausted while building the model";
            }
            long[][] allowed = allowedSegments(forbidLo, forbidHi, m);
            String r = disjunction(i, j, allowed);
            if (r != null) {
              return r;
            }
          }
        }
        stats.put("pairs", pairs);
        return null;
      }

      /** Adds {@code y_j - y_i} in one of {@code allowed} (each {lo, hi}, bounds inclusive). */
      String disjunction(int i, int j, long[][] allowed) {
        if (fixedS[i] >= 0 && fixedS[j] >= 0) {
          long d = fixedS[j] - fixedS[i];
          for (long[] seg : allowed) {
            if (seg[0] <= d && d <= seg[1]) {
              return null;
            }
          }
          return "!buffers '"
              + inst.buffer(index[i]).id()
              + "' and '"
              + inst.buffer(index[j]).id()
              + "' have fixed offsets that overlap";
        }
        LinearExpr d = LinearExpr.newBuilder().add(y(j)).addTerm(y(i), -1).build(); // y_j - y_i
        long dHint = hint == null ? 0 : hintY(j) - hintY(i);
        if (allowed.length == 2) {
          BoolVar above = model.newBoolVar(""); // j above i
          model.addGreaterOrEqual(d, allowed[1][0]).onlyEnforceIf(above);
          model.addLessOrEqual(d, allowed[0][1]).onlyEnforceIf(above.not());
          pairLits.add(above);
          pairLitHints.add(dHint >= allowed[1][0] ? 1L : 0L);
          return null;
        }
        Literal[] lits = new Literal[allowed.length];
        for (int s = 0; s < allowed.length; s++) {
          BoolVar lit = model.newBoolVar("");
          lits[s] = lit;
          if (allowed[s][0] != Long.MIN_VALUE) {
            model.addGreaterOrEqual(d, allowed[s][0]).onlyEnforceIf(lit);
          }
          if (allowed[s][1] != Long.MAX_VALUE) {
            model.addLessOrEqual(d, allowed[s][1]).onlyEnforceIf(lit);
          }
          pairLits.add(lit);
          pairLitHints.add(allowed[s][0] <= dHint && dHint <= allowed[s][1] ? 1L : 0L);
        }
        model.addExactlyOne(lits);
        return null;
      }

      /** NoOverlap2D over every piece; never skips. */
      String noOverlap2d() {
        NoOverlap2dConstraint c = model.addNoOverlap2D();
        int rects = 0;
        for (int b = 0; b < n; b++) {
          if ((b & 0x3FF) == 0 && budget.exhausted()) {
            return "budget exhausted while building the model";
          }
          for (Piece p : pieces[b]) {
            IntervalVar x = model.newFixedInterval(p.lower(), p.upper() - p.lower(), "");
            IntervalVar yv =
                fixedS[b] >= 0
                    ? model.newFixedInterval(fixedS[b] + p.from(), p.to() - p.from(), "")
                    : model.newFixedSizeIntervalVar(yPlus(b, p.from()), p.to() - p.from(), "");
            c.addRectangle(x, yv);
            rects++;
          }
        }
        stats.put("rectangles", rects);
        return null;
      }

      Outcome<DsaSolution> solveModel() {
        // CP-SAT overruns its own time limit on large models (presolve, stopping its workers,
        // the response copied back): on 100,000 buffers by up to 1.7 s beyond a 5 s limit with
        // Budget.wrapUp's reserve alone. So keep back 20 us per buffer (2 s at 100,000), and run
        // CP-SAT only when at least twice that is left; else the hint is the answer.
        Duration keep = budget.wrapUp(n).plus(Duration.ofNanos(10_000L * n));
        if (budget.limit().isPresent() && budget.remaining().compareTo(keep.multipliedBy(2)) < 0) {
          return fallback(
              hint, hintPeak, lb, "too little time left to run CP-SAT on " + n + " buffers");
        }
        CpSolver solver = new CpSolver();
        int workers =
            BudgetedSolve.configure(
                solver, ctx, options.workers(), options.deterministicTime(), keep);
        stats.put("workers", workers);

        CpSolverStatus status = BudgetedSolve.solve(solver, model, budget, new Progress());
        stats.put("solver-seconds", solver.wallTime());
        stats.put("branches", solver.numBranches());
        stats.put("conflicts", solver.numConflicts());
        stats.put("cpsat-status", status.getNumber());
        String note = "CP-SAT " + status + " (model " + options.formulation().id() + ")";

        long bound = lb;
        double best = solver.bestObjectiveBound();
        if (status != CpSolverStatus.MODEL_INVALID
            && Double.isFinite(best)
            && Math.abs(best) < (double) MAX_SCALED) {
          bound = Math.max(bound, g * (long) Math.ceil(best - 1e-6));
        }
        switch (status) {
          case OPTIMAL, FEASIBLE -> {
            long[] offs = trivialOffset.clone();
            for (int b = 0; b < n; b++) {
              long yb = fixedS[b] >= 0 ? fixedS[b] : solver.value(k[b]) * stepS[b];
              offs[index[b]] = yb * g;
            }
            long found = inst.peak(new DsaSolution(offs));
            stats.put("cpsat-peak", found);
            if (status == CpSolverStatus.OPTIMAL) {
              return checked(offs, Status.OPTIMAL, found, note);
            }
            if (hint != null && hintPeak < found && hintPeak <= inst.capacity()) {
              return hinted(hint, hintPeak, Status.FEASIBLE, bound, note + "; the hint is better");
            }
            return checked(offs, Status.FEASIBLE, bound, note);
          }
          case INFEASIBLE -> {
            return Outcome.infeasible(
                "CP-SAT proved that no placement fits in the capacity " + inst.capacity());
          }
          case MODEL_INVALID -> {
            return Outcome.error("CP-SAT rejected the model: " + solver.getSolutionInfo());
          }
          default -> {
            return fallback(hint, hintPeak, bound, note);
          }
        }
      }

      /** Reports each improving solution to the progress listener. */
      private final class Progress extends CpSolverSolutionCallback {
        @Override
        public void onSolutionCallback() {
          ProgressListener listener = ctx.progress();
          if (listener == ProgressListener.NONE) {
            return;
          }
          long obj = Math.round(objectiveValue()) * g;
          long bnd = Math.max(lb, g * (long) Math.ceil(bestObjectiveBound() - 1e-6));
          listener.improved(obj, Math.min(bnd, obj), "cpsat");
        }
      }
    }
  }

  /**
   * The allowed segments of a difference, given {@code m} forbidden closed intervals (empty ones,
   * {@code lo > hi}, ignored): the complement, as {lo, hi} pairs with {@code Long.MIN_VALUE} and
   * {@code Long.MAX_VALUE} for unbounded ends.
   */
  static long[][] allowedSegments(long[] forbidLo, long[] forbidHi, int m) {
    long[][] f = new long[m][];
    int cnt = 0;
    for (int t = 0; t < m; t++) {
      if (forbidLo[t] <= forbidHi[t]) {
        f[cnt++] = new long[] {forbidLo[t], forbidHi[t]};
      }
    }
    f = Arrays.copyOf(f, cnt);
    Arrays.sort(f, (x, z) -> x[0] != z[0] ? Long.compare(x[0], z[0]) : Long.compare(x[1], z[1]));
    List<long[]> merged = new ArrayList<>();
    for (long[] iv : f) {
      if (!merged.isEmpty() && iv[0] <= merged.get(merged.size() - 1)[1] + 1) {
        long[] last = merged.get(merged.size() - 1);
        last[1] = Math.max(last[1], iv[1]);
      } else {
        merged.add(iv.clone());
      }
    }
    List<long[]> out = new ArrayList<>();
    long from = Long.MIN_VALUE;
    for (long[] iv : merged) {
      out.add(new long[] {from, iv[0] - 1});
      from = iv[1] + 1;
    }
    out.add(new long[] {from, Long.MAX_VALUE});
    return out.toArray(long[][]::new);
  }

  private static long roundUp(long v, long a) {
    long r = v % a;
    return r == 0 ? v : v + (a - r);
  }
}
