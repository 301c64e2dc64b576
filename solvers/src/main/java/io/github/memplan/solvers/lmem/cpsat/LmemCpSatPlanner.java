package io.github.memplan.solvers.lmem.cpsat;

import com.google.ortools.sat.BoolVar;
import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverStatus;
import com.google.ortools.sat.IntVar;
import com.google.ortools.sat.IntervalVar;
import com.google.ortools.sat.LinearExpr;
import com.google.ortools.sat.LinearExprBuilder;
import com.google.ortools.sat.NoOverlap2dConstraint;
import io.github.memplan.core.lmem.InPlace;
import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemLowerBounds;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.LmemValidator;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.core.solve.Violation;
import io.github.memplan.solvers.lmem.BankRule;
import io.github.memplan.solvers.lmem.LmemFirstFit;
import io.github.memplan.solvers.lmem.LmemRules;
import io.github.memplan.solvers.lmem.LmemScore;
import io.github.memplan.solvers.ortools.BudgetedSolve;
import io.github.memplan.solvers.ortools.Natives;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code lmem-exact}: the LMEM placement problem of one layer group ({@code reference/tpu-mlir.md}
 * §2.10, the rules of {@code LmemAllocator::assignLmemAddr}; §2.13, the v0 bank rule; §6.3, "exact
 * placement under hard or soft bank constraints, with lifetime wrap-around") as an OR-Tools CP-SAT
 * model, with the bank rules of {@link LmemBanks} each off, soft or hard ({@link LmemRules}) and
 * the lexicographic objective of {@link LmemScore}: conflicts, then straddles, then peak.
 *
 * <p><b>Model.</b> One integer {@code k_i} per buffer, its address {@code a_i = EU·k_i} (alignment
 * by construction), {@code 0 <= a_i}, {@code a_i + s_i <= C}. Buffers live in a common row never
 * share an address unless they are an {@link InPlace} pair at the same address ({@link
 * LmemValidator}): the buffers in no in-place pair are rectangles of one {@code AddNoOverlap2D}
 * with fixed time intervals ({@code [start, end]}; a wrapping lifetime is two pieces {@code [start,
 * T)} and {@code [0, end]} on the same address variable; a held buffer spans all rows); a pair
 * involving an in-place buffer gets a disjunction {@code a_i + s_i <= a_j or a_j + s_j <= a_i} of
 * its own, and the in-place pair itself {@code a_i + s_i <= a_j or a_j + s_j <= a_i or a_i = a_j}.
 * Bank indices {@code f_i} (first) and {@code l_i} (last) are linear: {@code B·f_i <= a_i <= B·f_i
 * + B - 1}, {@code B·l_i <= a_i + s_i - 1 <= B·l_i + B - 1}, only for buffers a bank rule can
 * concern.
 *
 * <ul>
 *   <li>Straddle (buffers of at most one bank {@code B}, where {@code l_i - f_i} is 0 or 1): hard
 *       {@code l_i = f_i}; soft, the 0/1 variable {@code l_i - f_i} is penalised.
 *   <li>Conflict (pairs for which {@link LmemBanks.Engines#conflicting} holds, the
 *       address-independent half of the rule, so the definition stays single): hard, {@code l_i <
 *       f_j or l_j < f_i}; soft, {@code l_i < f_j or l_j < f_i or c_ij} with {@code c_ij}
 *       penalised.
 * </ul>
 *
 * The objective minimises {@code W_c·Σc + W_s·Σst + P} with {@code P >= a_i + s_i}, {@code P >=}
 * max-live, {@code W_s = C + 1} (above any peak) and {@code W_c = W_s·(number of straddle variables
 * + 1)} (above all straddles and the peak together), so its minimum is the lexicographic minimum.
 * At an optimum every {@code c_ij} is 1 exactly when the pair shares a bank; the counts reported
 * are always recomputed with {@link LmemBanks#report}.
 *
 * <p>Redundant, under {@code conflict=hard} only: each greedy maximal clique of the conflict graph
 * (one grown from each buffer) gets an {@code AddNoOverlap} over the bank intervals {@code [f_i,
 * l_i + 1)} of its members, so that CP-SAT counts banks; the typical proof that a group has no
 * conflict-free placement is such a pigeonhole (an op's five operands and its result need six
 * banks, the GDMA's two buffers two more, and the next op a ninth), which pairwise disjunctions
 * alone reach only by search.
 *
 * <p><b>Warm start and fast path.</b> The better (by {@link LmemScore}) of a bank-aware and a plain
 * {@link LmemFirstFit} that obeys the hard rules is a complete hint. If it has no conflict and no
 * straddle under the rules that are on and its peak equals {@link LmemLowerBounds#maxLive}, it is
 * returned {@code OPTIMAL} without building a model: no valid placement has a negative count or a
 * peak below max-live, so nothing is lexicographically smaller. (This covers every instance with no
 * conflict-capable pair and no buffer that can straddle, whenever the first fit is peak-optimal.)
 *
 * <p><b>Stages.</b> With {@code goal=optimise}, a soft rule becomes hard as soon as a placement
 * breaking it nowhere is known (the hint, or a {@code goal=satisfy} run with the rule hard and the
 * other rule hard if it was, else off): then the lexicographic minimum has 0 of it, so the rule may
 * as well be a constraint, which lets the clique redundancy in and leaves CP-SAT only the rest of
 * the objective. Conflicts come first; straddles follow only once conflicts are no longer soft.
 * Each stage run gets the planner's deterministic time and what is left of the budget.
 *
 * <p><b>Outcome.</b> {@code OPTIMAL} when CP-SAT proves the lexicographic objective optimal (or the
 * fast path applies); {@code FEASIBLE} with the best placement otherwise; {@code INFEASIBLE} when
 * CP-SAT proves no placement obeys the capacity and the hard rules (the message names them; the
 * bound is {@code C + 1}, since the rules can always be met with more banks, so every placement
 * obeying them needs more than {@code C}); {@code NO_SOLUTION_IN_BUDGET} when nothing was found in
 * the budget; {@code ERROR} without OR-Tools' native library. The outcome's bound is a bound on the
 * peak of placements obeying the hard rules: max-live, or, when no rule is soft, CP-SAT's proven
 * bound (the optimum's peak when {@code OPTIMAL}). Statistics: {@code bank-conflicts}, {@code
 * bank-straddles}, {@code peak}, {@code objective}, CP-SAT's {@code objective-bound} and the
 * conflict and straddle counts it implies ({@code conflicts-bound}, {@code straddles-bound}). Every
 * returned placement passes {@link LmemValidator} and its hard bank rules are re-checked with
 * {@link LmemBanks#report}; a failure is an {@code ERROR}, never a solution.
 *
 * <p><b>Goal.</b> With {@code goal=satisfy} the planner is a feasibility oracle: it returns the
 * first placement obeying the capacity and the hard rules ({@code FEASIBLE}: the first fit when it
 * obeys them, else CP-SAT's first solution of the model without objective), or the proof that none
 * exists ({@code INFEASIBLE}); {@code OPTIMAL} only on the fast path.
 *
 * <p><b>Budget and determinism.</b> The remaining wall-clock time is CP-SAT's time limit, the step
 * cap its conflict limit, cancellation stops it ({@link BudgetedSolve}). The default is one worker
 * with the run's seed, so runs that end with a proof are byte-reproducible; {@code
 * deterministic-time} bounds the search in CP-SAT's deterministic time (forcing one worker) for
 * reproducible runs that stop early; {@code workers > 1} trades that for speed. Model building is
 * linear in the buffers plus the time-overlapping pairs, so the planner can serve as the
 * feasibility oracle of a group search.
 *
 * <p>Departures from TPU-MLIR: the bank rules may be hard (TPU-MLIR only prefers them), both rules
 * can be combined, and buffer sizes and holds come from the instance as they are (no {@code
 * allow_hold} decision, as in {@code lmem-tpumlir}).
 */
public final class LmemCpSatPlanner implements Planner<LmemInstance, LmemSolution> {

  /**
   * The planner's settings.
   *
   * @param rules the bank rules
   * @param workers CP-SAT's {@code num_workers}
   * @param deterministicTime CP-SAT's {@code max_deterministic_time}, 0 for none; when set, one
   *     worker
   * @param goal optimise the lexicographic objective, or stop at the first placement obeying the
   *     hard rules
   */
  public record Options(LmemRules rules, int workers, double deterministicTime, Goal goal) {
    public Options {
      Objects.requireNonNull(rules, "rules");
      Objects.requireNonNull(goal, "goal");
      BudgetedSolve.checkSettings(workers, deterministicTime);
    }

    /** Soft/soft rules, one worker, no deterministic limit, optimise. */
    public static Options defaults() {
      return new Options(LmemRules.defaults(), 1, 0, Goal.OPTIMISE);
    }

    public Options withRules(LmemRules r) {
      return new Options(r, workers, deterministicTime, goal);
    }

    public Options withDeterministicTime(double t) {
      return new Options(rules, workers, t, goal);
    }

    public Options withGoal(Goal g) {
      return new Options(rules, workers, deterministicTime, g);
    }
  }

  /** What the planner searches for (parameter {@code goal}). */
  public enum Goal {
    /** The lexicographic optimum: conflicts, then straddles, then peak. */
    OPTIMISE,
    /** Any placement obeying the capacity and the hard rules (a feasibility oracle). */
    SATISFY;

    public String id() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private static final LmemValidator VALIDATOR = new LmemValidator();

  private final Options options;

  public LmemCpSatPlanner(Options options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  /** Whether OR-Tools' native library loads on this platform. */
  public static boolean available() {
    return Natives.available();
  }

  @Override
  public Outcome<LmemSolution> solve(LmemInstance instance, SolveContext ctx) {
    if (!Natives.available()) {
      return Outcome.error(Natives.problem());
    }
    return new Run(instance, ctx).solve();
  }

  /** The state of one {@link #solve} call. */
  private final class Run {
    final LmemInstance inst;
    final SolveContext ctx;
    final Budget budget;
    final LmemRules asked = options.rules();
    LmemRules rules = options.rules(); // asked, with soft rules made hard once 0 is reachable
    final Map<String, Number> stats = new TreeMap<>();
    final List<LmemBuffer> buffers;
    final int n;
    final long cap;
    final long maxLive;
    final LmemBanks.Engines engines;
    final LmemFirstFit.Overlaps overlaps;
    final List<int[]> conflictPairs = new ArrayList<>();
    final List<Integer> straddlers = new ArrayList<>();

    Run(LmemInstance inst, SolveContext ctx) {
      this.inst = inst;
      this.ctx = ctx;
      this.budget = ctx.budget();
      this.buffers = inst.buffers();
      this.n = buffers.size();
      this.cap = inst.capacity();
      this.maxLive = LmemLowerBounds.maxLive(inst);
      this.engines = LmemBanks.Engines.of(inst);
      this.overlaps = LmemFirstFit.Overlaps.of(inst);
    }

    Outcome<LmemSolution> solve() {
      stats.put("max-live", maxLive);
      if (maxLive > cap) {
        return new Outcome<LmemSolution>(
                Status.INFEASIBLE,
                null,
                OptionalLong.of(maxLive),
                Map.of(),
                "the live bytes " + maxLive + " exceed the capacity " + cap)
            .withStats(stats);
      }
      if (rules.straddle() != BankRule.OFF) {
        for (int i = 0; i < n; i++) {
          if (buffers.get(i).bytes() <= inst.bankBytes()) {
            straddlers.add(i);
          }
        }
      }
      if (rules.conflict() != BankRule.OFF) {
        for (int i = 0; i < n; i++) {
          for (int j = i + 1; j < n; j++) {
            if (engines.conflicting(i, j)) {
              conflictPairs.add(new int[] {i, j});
            }
          }
        }
      }
      stats.put("straddle-buffers", straddlers.size());
      stats.put("conflict-pairs", conflictPairs.size());

      long[] hint = hint();
      if (hint != null) {
        LmemScore s = LmemScore.of(inst, new LmemSolution(hint)).under(rules);
        stats.put("hint-conflicts", s.conflicts());
        stats.put("hint-straddles", s.straddles());
        stats.put("hint-peak", s.peak());
        if (s.conflicts() == 0 && s.straddles() == 0 && s.peak() == maxLive) {
          stats.put("fast-path", 1);
          return checked(
              hint,
              Status.OPTIMAL,
              maxLive,
              "the first fit has no conflict or straddle and meets the max-live bound;"
                  + " CP-SAT not run");
        }
        if (options.goal() == Goal.SATISFY) {
          return checked(
              hint, Status.FEASIBLE, maxLive, "the first fit obeys the hard rules; CP-SAT not run");
        }
      }
      if (options.goal() == Goal.OPTIMISE) {
        hint = stages(hint);
      }
      if (budget.exhausted(0)) {
        return fallback(hint, "budget exhausted before CP-SAT ran");
      }
      return new Cp(hint).run();
    }

    /**
     * Makes a soft rule hard when a placement breaking it nowhere exists (the lexicographic minimum
     * then has 0 of it): conflicts first, from the hint or a {@code goal=satisfy} run with the rule
     * hard; then straddles, once conflicts are no longer soft. Returns the hint, replaced by the
     * satisfying placement when the hint breaks a rule made hard.
     */
    long[] stages(long[] hint) {
      if (rules.conflict() == BankRule.SOFT && !conflictPairs.isEmpty()) {
        long[] found = zeroOf(hint, true);
        if (found != null) {
          rules = new LmemRules(rules.straddle(), BankRule.HARD);
          hint = found;
        }
      }
      if (rules.conflict() != BankRule.SOFT
          && rules.straddle() == BankRule.SOFT
          && !straddlers.isEmpty()) {
        long[] found = zeroOf(hint, false);
        if (found != null) {
          rules = new LmemRules(BankRule.HARD, rules.conflict());
          hint = found;
        }
      }
      return hint;
    }

    /**
     * A placement obeying the current hard rules with no conflict ({@code conflicts}) or no
     * straddle: the hint if it has none, else a {@code goal=satisfy} run's; null if none is known.
     */
    long[] zeroOf(long[] hint, boolean conflicts) {
      String key = conflicts ? "stage-conflict-free" : "stage-straddle-free";
      if (hint != null) {
        LmemBanks.Report r = LmemBanks.report(inst, new LmemSolution(hint));
        if ((conflicts ? r.conflictCount() : r.straddleCount()) == 0) {
          stats.put(key, 1);
          return hint;
        }
      }
      if (budget.exhausted(0)) {
        return null;
      }
      BankRule other = conflicts ? rules.straddle() : rules.conflict();
      BankRule keep = other == BankRule.HARD ? BankRule.HARD : BankRule.OFF;
      LmemRules sub =
          conflicts ? new LmemRules(keep, BankRule.HARD) : new LmemRules(BankRule.HARD, keep);
      Outcome<LmemSolution> o =
          new LmemCpSatPlanner(
                  new Options(sub, options.workers(), options.deterministicTime(), Goal.SATISFY))
              .solve(inst, ctx);
      stats.put(key, o.status().hasSolution() ? 1 : o.status() == Status.INFEASIBLE ? 0 : -1);
      return o.status().hasSolution() ? o.solution().addresses() : null;
    }

    /** Whether the asked objective has soft terms: then the peak bound is only max-live. */
    boolean askedSoftTerms() {
      return (asked.conflict() == BankRule.SOFT && !conflictPairs.isEmpty())
          || (asked.straddle() == BankRule.SOFT && !straddlers.isEmpty());
    }

    /** The better first fit obeying the hard rules, or null. */
    long[] hint() {
      long[] aware = LmemFirstFit.place(inst, rules, true, engines, overlaps);
      long[] plain = LmemFirstFit.place(inst, rules, false, engines, overlaps);
      if (aware == null) {
        return plain;
      }
      if (plain == null) {
        return aware;
      }
      LmemScore sa = LmemScore.of(inst, new LmemSolution(aware)).under(rules);
      LmemScore sp = LmemScore.of(inst, new LmemSolution(plain)).under(rules);
      return sp.compareTo(sa) < 0 ? plain : aware;
    }

    /** The hint as a FEASIBLE outcome if there is one, else NO_SOLUTION_IN_BUDGET. */
    Outcome<LmemSolution> fallback(long[] hint, String why) {
      if (hint != null) {
        return checked(hint, Status.FEASIBLE, maxLive, why + "; the first fit returned");
      }
      return Outcome.<LmemSolution>noSolution(OptionalLong.of(maxLive), why).withStats(stats);
    }

    /** The placement checked by the validator and the hard bank rules, with its statistics. */
    Outcome<LmemSolution> checked(long[] addr, Status status, long bound, String note) {
      LmemSolution sol = new LmemSolution(addr);
      List<Violation> v = VALIDATOR.validate(inst, sol);
      if (!v.isEmpty()) {
        return Outcome.<LmemSolution>error(
                "lmem-exact produced an invalid placement of '"
                    + inst.name()
                    + "' ("
                    + v.size()
                    + " violations), first: "
                    + v.get(0))
            .withStats(stats);
      }
      LmemBanks.Report report = LmemBanks.report(inst, sol);
      String broken = asked.hardViolation(report);
      if (broken != null) {
        return Outcome.<LmemSolution>error(
                "lmem-exact produced a placement of '" + inst.name() + "' with " + broken)
            .withStats(stats);
      }
      long peak = sol.peak(inst);
      stats.put("bank-conflicts", report.conflictCount());
      stats.put("bank-straddles", report.straddleCount());
      stats.put("peak", peak);
      return new Outcome<>(status, sol, OptionalLong.of(Math.min(peak, bound)), Map.of(), note)
          .withStats(stats);
    }

    /** The CP-SAT model of this run. */
    private final class Cp {
      final long[] hint;
      final CpModel model = new CpModel();
      final long eu = inst.euBytes();
      final long bank = inst.bankBytes();
      IntVar[] k;
      IntVar peak;
      IntVar[] first;
      IntVar[] last;
      final List<BoolVar> lits = new ArrayList<>();
      final List<Boolean> litHints = new ArrayList<>();
      final LinearExprBuilder straddleSum = LinearExpr.newBuilder();
      final LinearExprBuilder conflictSum = LinearExpr.newBuilder();
      int straddleTerms;
      int conflictTerms;

      Cp(long[] hint) {
        this.hint = hint;
      }

      LinearExpr addr(int i) {
        return LinearExpr.term(k[i], eu);
      }

      LinearExpr end(int i, long minus) {
        return LinearExpr.affine(k[i], eu, buffers.get(i).bytes() - minus);
      }

      Outcome<LmemSolution> run() {
        k = new IntVar[n];
        long peakLo = maxLive;
        peak = model.newIntVar(peakLo, cap, "P");
        for (int i = 0; i < n; i++) {
          long s = buffers.get(i).bytes();
          k[i] = model.newIntVar(0, (cap - s) / eu, "k" + i);
          model.addGreaterOrEqual(peak, end(i, 0));
        }
        noOverlap();
        banks();
        if (budget.exhausted(0)) {
          return fallback(hint, "budget exhausted while building the model");
        }
        long ws = cap + 1;
        long wc = ws * (straddleTerms + 1);
        if (options.goal() == Goal.OPTIMISE) {
          model.minimize(
              LinearExpr.newBuilder()
                  .addTerm(conflictSum.build(), wc)
                  .addTerm(straddleSum.build(), ws)
                  .add(peak)
                  .build());
        }
        if (hint != null) {
          addHints();
        }
        return solveModel(ws, wc);
      }

      void noOverlap() {
        boolean[] inPlace = new boolean[n];
        for (InPlace p : inst.inPlace()) {
          inPlace[p.input()] = true;
          inPlace[p.output()] = true;
        }
        int t = inst.timestepCount();
        NoOverlap2dConstraint c = null;
        int rects = 0;
        for (int i = 0; i < n; i++) {
          if (inPlace[i]) {
            continue;
          }
          if (c == null) {
            c = model.addNoOverlap2D();
          }
          LmemBuffer b = buffers.get(i);
          IntervalVar y = model.newFixedSizeIntervalVar(addr(i), b.bytes(), "");
          if (b.held()) {
            c.addRectangle(model.newFixedInterval(0, t, ""), y);
            rects++;
          } else if (b.wraps()) {
            c.addRectangle(model.newFixedInterval(b.start(), t - b.start(), ""), y);
            c.addRectangle(model.newFixedInterval(0, b.end() + 1, ""), y);
            rects += 2;
          } else {
            c.addRectangle(model.newFixedInterval(b.start(), b.end() - b.start() + 1, ""), y);
            rects++;
          }
        }
        int pairs = 0;
        for (int i = 0; i < n; i++) {
          for (int j = i + 1; j < n; j++) {
            if ((inPlace[i] || inPlace[j]) && overlaps.clash(i, j)) {
              BoolVar below = model.newBoolVar(""); // i below j
              model.addLessOrEqual(end(i, 0), addr(j)).onlyEnforceIf(below);
              model.addLessOrEqual(end(j, 0), addr(i)).onlyEnforceIf(below.not());
              lits.add(below);
              litHints.add(hint != null && hint[i] < hint[j]);
              pairs++;
            }
          }
        }
        for (InPlace p : inst.inPlace()) {
          int i = p.input();
          int j = p.output();
          BoolVar below = model.newBoolVar(""); // i below j
          BoolVar above = model.newBoolVar(""); // j below i
          BoolVar same = model.newBoolVar(""); // written in place
          model.addLessOrEqual(end(i, 0), addr(j)).onlyEnforceIf(below);
          model.addLessOrEqual(end(j, 0), addr(i)).onlyEnforceIf(above);
          model.addEquality(k[i], k[j]).onlyEnforceIf(same);
          model.addBoolOr(new BoolVar[] {below, above, same});
          boolean hs = hint != null && hint[i] == hint[j];
          lits.add(below);
          litHints.add(hint != null && !hs && hint[i] + buffers.get(i).bytes() <= hint[j]);
          lits.add(above);
          litHints.add(hint != null && !hs && hint[j] + buffers.get(j).bytes() <= hint[i]);
          lits.add(same);
          litHints.add(hs);
          pairs++;
        }
        stats.put("rectangles", rects);
        stats.put("pairs", pairs);
      }

      IntVar firstBank(int i) {
        if (first[i] == null) {
          int banks = inst.banks();
          first[i] = model.newIntVar(0, banks - 1, "f" + i);
          last[i] = model.newIntVar(0, banks - 1, "l" + i);
          // B·f <= a <= B·f + B - 1 and B·l <= a + s - 1 <= B·l + B - 1
          model.addLessOrEqual(LinearExpr.term(first[i], bank), addr(i));
          model.addLessOrEqual(addr(i), LinearExpr.affine(first[i], bank, bank - 1));
          model.addLessOrEqual(LinearExpr.term(last[i], bank), end(i, 1));
          model.addLessOrEqual(end(i, 1), LinearExpr.affine(last[i], bank, bank - 1));
        }
        return first[i];
      }

      void banks() {
        first = new IntVar[n];
        last = new IntVar[n];
        for (int i : straddlers) {
          IntVar f = firstBank(i);
          if (rules.straddle() == BankRule.HARD) {
            model.addEquality(last[i], f);
          } else {
            // l - f is 0 or 1 for a buffer of at most one bank
            straddleSum.add(last[i]).addTerm(f, -1);
            straddleTerms++;
          }
        }
        for (int[] p : conflictPairs) {
          int i = p[0];
          int j = p[1];
          IntVar fi = firstBank(i);
          IntVar fj = firstBank(j);
          BoolVar below = model.newBoolVar(""); // i's banks all below j's
          BoolVar above = model.newBoolVar("");
          model.addLessOrEqual(LinearExpr.affine(last[i], 1, 1), fj).onlyEnforceIf(below);
          model.addLessOrEqual(LinearExpr.affine(last[j], 1, 1), fi).onlyEnforceIf(above);
          boolean hb = false;
          boolean ha = false;
          boolean shared = false;
          if (hint != null) {
            long si = buffers.get(i).bytes();
            long sj = buffers.get(j).bytes();
            hb = LmemBanks.lastBank(inst, hint[i], si) < LmemBanks.firstBank(inst, hint[j]);
            ha = LmemBanks.lastBank(inst, hint[j], sj) < LmemBanks.firstBank(inst, hint[i]);
            shared = !hb && !ha;
          }
          lits.add(below);
          litHints.add(hb);
          lits.add(above);
          litHints.add(ha);
          if (rules.conflict() == BankRule.HARD) {
            model.addBoolOr(new BoolVar[] {below, above});
          } else {
            BoolVar c = model.newBoolVar("c" + i + "_" + j);
            model.addBoolOr(new BoolVar[] {below, above, c});
            conflictSum.add(c);
            conflictTerms++;
            lits.add(c);
            litHints.add(shared);
          }
        }
        if (rules.conflict() == BankRule.HARD) {
          cliques();
        }
      }

      /**
       * Redundant for {@code conflict=hard}: the bank ranges of pairwise conflicting buffers never
       * overlap, so every clique of the conflict graph gets one {@code AddNoOverlap} over bank
       * intervals {@code [f_i, l_i + 1)}, which lets CP-SAT count banks (a pigeonhole the pairwise
       * disjunctions alone prove only by search). One greedy maximal clique per buffer (members
       * added by index among its conflict partners), duplicates and cliques of two dropped.
       */
      void cliques() {
        BitSet[] adj = new BitSet[n];
        for (int i = 0; i < n; i++) {
          adj[i] = new BitSet(n);
        }
        for (int[] p : conflictPairs) {
          adj[p[0]].set(p[1]);
          adj[p[1]].set(p[0]);
        }
        Set<BitSet> seen = new HashSet<>();
        IntervalVar[] bankInterval = new IntervalVar[n];
        int count = 0;
        for (int v = 0; v < n; v++) {
          BitSet clique = new BitSet(n);
          clique.set(v);
          BitSet cand = (BitSet) adj[v].clone();
          for (int u = cand.nextSetBit(0); u >= 0; u = cand.nextSetBit(u + 1)) {
            clique.set(u);
            cand.and(adj[u]);
          }
          if (clique.cardinality() < 3 || !seen.add(clique)) {
            continue;
          }
          List<IntervalVar> ivs = new ArrayList<>();
          for (int i = clique.nextSetBit(0); i >= 0; i = clique.nextSetBit(i + 1)) {
            if (bankInterval[i] == null) {
              IntVar size = model.newIntVar(1, inst.banks(), "");
              bankInterval[i] =
                  model.newIntervalVar(first[i], size, LinearExpr.affine(last[i], 1, 1), "");
            }
            ivs.add(bankInterval[i]);
          }
          model.addNoOverlap(ivs);
          count++;
        }
        stats.put("bank-cliques", count);
      }

      void addHints() {
        long hp = 0;
        for (int i = 0; i < n; i++) {
          model.addHint(k[i], hint[i] / eu);
          hp = Math.max(hp, hint[i] + buffers.get(i).bytes());
          if (first[i] != null) {
            model.addHint(first[i], LmemBanks.firstBank(inst, hint[i]));
            model.addHint(last[i], LmemBanks.lastBank(inst, hint[i], buffers.get(i).bytes()));
          }
        }
        model.addHint(peak, Math.max(maxLive, hp));
        for (int p = 0; p < lits.size(); p++) {
          model.addHint(lits.get(p), litHints.get(p));
        }
      }

      Outcome<LmemSolution> solveModel(long ws, long wc) {
        CpSolver solver = new CpSolver();
        int workers =
            BudgetedSolve.configure(solver, ctx, options.workers(), options.deterministicTime());
        stats.put("workers", workers);
        CpSolverStatus status = BudgetedSolve.solve(solver, model, budget, null);
        stats.put("solver-seconds", solver.wallTime());
        stats.put("cpsat-status", status.getNumber());
        String note = "CP-SAT " + status;
        double best = solver.bestObjectiveBound();
        long bound = maxLive;
        if (options.goal() == Goal.OPTIMISE
            && (status == CpSolverStatus.OPTIMAL
                || status == CpSolverStatus.FEASIBLE
                || status == CpSolverStatus.UNKNOWN)) {
          if (Double.isFinite(best) && best < 4e18) {
            long ob = (long) Math.ceil(best - 1e-6);
            stats.put("objective-bound", ob);
            stats.put("conflicts-bound", ob / wc);
            stats.put("straddles-bound", (ob % wc) / ws);
            if (!askedSoftTerms()) {
              bound = Math.max(bound, ob);
            }
          }
        }
        switch (status) {
          case OPTIMAL, FEASIBLE -> {
            long[] addr = new long[n];
            for (int i = 0; i < n; i++) {
              addr[i] = solver.value(k[i]) * eu;
            }
            boolean optimal = status == CpSolverStatus.OPTIMAL && options.goal() == Goal.OPTIMISE;
            if (options.goal() == Goal.OPTIMISE) {
              stats.put("objective", Math.round(solver.objectiveValue()));
            }
            if (!optimal && hint != null) {
              LmemScore found = LmemScore.of(inst, new LmemSolution(addr)).under(rules);
              LmemScore h = LmemScore.of(inst, new LmemSolution(hint)).under(rules);
              if (h.compareTo(found) < 0) {
                return checked(hint, Status.FEASIBLE, bound, note + "; the first fit is better");
              }
            }
            return checked(addr, optimal ? Status.OPTIMAL : Status.FEASIBLE, bound, note);
          }
          case INFEASIBLE -> {
            String hard = asked.hardRules();
            return new Outcome<LmemSolution>(
                    Status.INFEASIBLE,
                    null,
                    OptionalLong.of(Math.max(maxLive, cap + 1)),
                    Map.of(),
                    "CP-SAT proved that no placement fits in the capacity "
                        + cap
                        + (hard.isEmpty() ? "" : " under " + hard))
                .withStats(stats);
          }
          case MODEL_INVALID -> {
            return Outcome.<LmemSolution>error(
                    "CP-SAT rejected the model: " + solver.getSolutionInfo())
                .withStats(stats);
          }
          default -> {
            return fallback(hint, note);
          }
        }
      }
    }
  }
}
