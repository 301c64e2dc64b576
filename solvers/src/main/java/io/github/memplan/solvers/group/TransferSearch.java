package io.github.memplan.solvers.group;

import com.google.ortools.sat.BoolVar;
import com.google.ortools.sat.CpModel;
import com.google.ortools.sat.CpSolver;
import com.google.ortools.sat.CpSolverStatus;
import com.google.ortools.sat.IntVar;
import com.google.ortools.sat.LinearExpr;
import com.google.ortools.sat.LinearExprBuilder;
import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupTimesteps;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.group.ShapeSecs;
import io.github.memplan.core.group.SliceInfo;
import io.github.memplan.core.group.TimestepMoves;
import io.github.memplan.core.group.TransferMove;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemLowerBounds;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.Timestep;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.solvers.ortools.BudgetedSolve;
import io.github.memplan.solvers.ortools.Natives;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Chooses the rows of a group's GDMA transfers to lower its cycles: the decision TPU-MLIR's opt=3
 * makes per group by a MIP over the timestep of every load and store ({@code
 * lib/Dialect/Tpu/Transforms/LayerGroup/opt3/IlpTimeStep.cpp}, {@code reference/tpu-mlir.md} §2.4
 * "opt=3": minimise {@code Σ_ts |slack_ts|} under an LMEM bound per timestep) and the memory-aware
 * rebalancing makes greedily (§2.8(c), {@code memory_aware_timestep_assignment}: a row whose GDMA
 * outlasts its TIU sends a transfer to a row with TIU slack).
 *
 * <p><b>Search.</b> Steepest descent over single-transfer moves ({@link TimestepMoves#legalRows}: a
 * load to any compute row before its first reader, a store to any compute row after its writer
 * whose op does not touch it, each within its stage's window), evaluated exactly under {@link
 * RooflineCostModel}: a row costs {@code Σ_step max(TIU, GDMA)} ({@link RooflineCostModel.Terms}),
 * and a move changes two rows only, so each candidate costs one pass over the pipeline steps of
 * those two rows. Each step takes the move that lowers the group's cycles most (ties: the lowest
 * buffer, then the lowest row), rejecting a move whose longer lifetimes make the live bytes of some
 * row exceed the LMEM ({@link LmemLowerBounds#maxLive}); it stops when no move lowers the cycles,
 * or the budget runs out.
 *
 * <p><b>LMEM.</b> The final table is given to the LMEM oracle. If it cannot place it, the search
 * backs off along the descent: every prefix of the accepted moves is a table no costlier than the
 * unmoved one (each step lowered the cost), and a bisection over the prefix length finds one the
 * oracle places (the empty prefix is the unmoved table, placed already). So the result is never
 * worse than the group it starts from and is always placed.
 *
 * <p><b>Fitting</b> ({@link #fit}): a table whose live bytes exceed the LMEM (today's rebalancing
 * moves loads early without looking at capacity) starts instead from each buffer's shortest life,
 * every load at the row before its first reader and every store at the first row after its writer,
 * and descends from there, rejecting the moves that overflow: the memory-aware rebalancing the
 * source's comment promises, under opt=3's per-timestep LMEM bound.
 *
 * <p><b>Exact assignment</b> ({@link #exact}): opt=3's MIP with the roofline cycles as its
 * objective, solved by CP-SAT. One Boolean per transfer and row it may take (its own row and {@link
 * TimestepMoves#legalRows}), exactly one per transfer. LMEM: in every row, the live bytes of the
 * transfers that cannot move (pairs in place sharing their larger size, as {@link
 * LmemLowerBounds#liveBytes} counts them) plus those of every movable buffer whose life at its
 * chosen row covers that row ({@link TimestepMoves#lives}, the rule of §2.8(e)) fit the capacity; a
 * movable buffer counts whole, so the model's live bytes bound the real ones from above and every
 * answer fits. Cycles: for every distinct pipeline step (identical steps are weighted by their
 * count) and row, {@code y ≥ TIU} and {@code y ≥ ⌈GDMA bytes · MHz / (GB/s · 1000)⌉} as an exact
 * rational; the sum of {@code y} is minimised, below an optional cutoff. Before CP-SAT is asked,
 * the choices that overflow a row even with every other buffer at its fewest live bytes are dropped
 * (they are infeasible in the model), and a cutoff the capacity-free bound of {@link #lowerBound}
 * reaches answers "none" at once. CP-SAT runs with one worker under a deterministic time limit per
 * call and per solve ({@link AssignmentBudget}), so a seed gives the same answer on every machine;
 * {@code optimal} reports its proof.
 *
 * <p>Departures: opt=3 optimises {@code Σ |slack|} with an exact MIP and a per-timestep LMEM bound;
 * here the roofline cycles themselves are minimised, by the exact assignment where its budget
 * allows (a proven optimum when CP-SAT says so) and by the local search otherwise, and LMEM is
 * checked by the oracle on the final table. The exact model does not let a moved buffer share its
 * bytes in place (conservative: it may miss a table that fits only by sharing). §2.8(c)'s profit
 * rule and bubbling are not reproduced. Transfers keep their stage ({@link TimestepMoves}).
 */
public final class TransferSearch {
  private TransferSearch() {}

  /** The improved group and the cycles it saves (0 and the same group when nothing moved). */
  record Result(Group group, long saved, int backoffs) {}

  /**
   * The group {@code g} of {@code ops} with its transfers moved to lower its cycles; {@code g}
   * itself when it records moves already, or when no move helps.
   *
   * @param place the LMEM oracle: a validated placement of an instance, or empty
   */
  static Result improve(
      Graph graph,
      Chip chip,
      List<Op> ops,
      Group g,
      GroupTimesteps base,
      RooflineCostModel model,
      Function<LmemInstance, Optional<LmemSolution>> place,
      SolveContext ctx) {
    Result none = new Result(g, 0, 0);
    Descent d = new Descent(graph, chip, ops, g.secs(), g.slices(), base, model);
    int[] basePos = d.basePos;
    int[] start = basePos.clone();
    for (TransferMove m : g.moves()) {
      start[m.buffer()] = m.row();
    }
    List<int[]> accepted = d.descend(start.clone(), ctx);
    if (accepted.isEmpty()) {
      return none;
    }
    // the longest prefix of the descent that the oracle places (the empty one is g itself)
    int backoffs = 0;
    Group found = placed(g, base, basePos, prefix(start, accepted, accepted.size()), place);
    int lo = 0;
    int hi = accepted.size();
    if (found == null) { // bisect: lo is placed (or empty), hi is not
      while (hi - lo > 1) {
        backoffs++;
        int mid = (lo + hi) / 2;
        Group got = placed(g, base, basePos, prefix(start, accepted, mid), place);
        if (got != null) {
          lo = mid;
          found = got;
        } else {
          hi = mid;
        }
      }
    }
    if (found == null) {
      return new Result(g, 0, backoffs);
    }
    long before = model.group(graph, ops, chip, g.secs(), g.slices(), g.timesteps()).cycles();
    long after = model.group(graph, ops, chip, g.secs(), g.slices(), found.timesteps()).cycles();
    if (after >= before) {
      return new Result(g, 0, backoffs);
    }
    return new Result(found, before - after, backoffs);
  }

  /** A table that fits the LMEM, reached by moves: the moves, the moved table and its terms. */
  record Fitted(List<TransferMove> moves, GroupTimesteps table) {}

  /**
   * A table of moves from {@code base} whose live bytes fit the LMEM in every row ({@link
   * LmemLowerBounds#maxLive}), for a table that does not: every movable load at the row before its
   * first reader and every movable store at the first legal row after its writer, each buffer's
   * shortest life (if that does not fit, nothing does, and the answer is empty). It is costed as it
   * is; {@link #improve} later descends from it within the LMEM for the groups a search keeps. The
   * oracle is not asked: fitting the live bytes is necessary, not sufficient.
   */
  static Optional<Fitted> fit(
      Graph graph,
      Chip chip,
      List<Op> ops,
      ShapeSecs secs,
      Map<String, SliceInfo> slices,
      GroupTimesteps base,
      RooflineCostModel model) {
    Descent d = new Descent(graph, chip, ops, secs, slices, base, model);
    int[] tight = d.basePos.clone();
    for (int b = 0; b < tight.length; b++) {
      List<Integer> legal = d.legal.get(b);
      if (legal.isEmpty()) {
        continue;
      }
      boolean load = TimestepMoves.isLoad(base, b);
      int best = tight[b];
      for (int r : legal) {
        best = load ? Math.max(best, r) : Math.min(best, r);
      }
      tight[b] = best;
    }
    if (!d.fits(tight)) {
      return Optional.empty();
    }
    return Optional.of(new Fitted(moves(d.basePos, tight), moved(base, d.basePos, tight)));
  }

  /**
   * The cheapest table of moves from {@code base} whose live bytes fit the LMEM in every row, found
   * by CP-SAT (see the class comment, "Exact assignment"), starting from the hint {@code hint}
   * (moves from {@code base}, or none); empty when it finds no table of fewer than {@code below}
   * cycles within its share of {@code budget}, or cannot run here. {@code optimal} says CP-SAT
   * proved it cheapest under the model's live bytes (which count a moved buffer whole, not sharing
   * in place).
   */
  static Optional<Assigned> exact(
      Graph graph,
      Chip chip,
      List<Op> ops,
      ShapeSecs secs,
      Map<String, SliceInfo> slices,
      GroupTimesteps base,
      RooflineCostModel model,
      List<TransferMove> hint,
      long below,
      SolveContext ctx,
      AssignmentBudget budget) {
    if (!Natives.available() || ctx.budget().exhausted() || budget.spent()) {
      return Optional.empty();
    }
    Descent d = new Descent(graph, chip, ops, secs, slices, base, model);
    int[] start = d.basePos.clone();
    for (TransferMove m : hint) {
      start[m.buffer()] = m.row();
    }
    return new AssignmentModel(d, start).solve(below, ctx, budget);
  }

  /**
   * The deterministic time (CP-SAT's work units, the same on every machine) that {@link #exact} may
   * spend over one solve, and per call: a solve stops asking once the total is spent, so its result
   * does not depend on the machine's speed. Not thread-safe: one per solve.
   */
  static final class AssignmentBudget {
    private final double perCall;
    private double left;

    AssignmentBudget(double total, double perCall) {
      this.left = total;
      this.perCall = perCall;
    }

    boolean spent() {
      return left <= 0;
    }

    double nextCall() {
      return Math.max(1e-6, Math.min(perCall, left));
    }

    void spend(double deterministicTime) {
      left -= deterministicTime;
    }
  }

  /** A table found by {@link #exact}: its moves, the moved table, and whether it is proven best. */
  record Assigned(List<TransferMove> moves, GroupTimesteps table, boolean optimal) {}

  /** The CP-SAT model of {@link #exact}. */
  private static final class AssignmentModel {
    final Descent d;
    final int[] hint;

    AssignmentModel(Descent d, int[] hint) {
      this.d = d;
      this.hint = hint;
    }

    Optional<Assigned> solve(long below, SolveContext ctx, AssignmentBudget budget) {
      LmemInstance inst = d.base.lmem();
      int rows = inst.timestepCount();
      int nb = d.nb;
      List<LmemBuffer> buffers = inst.buffers();
      boolean[] movable = new boolean[nb];
      List<List<Integer>> choices = new ArrayList<>();
      for (int b = 0; b < nb; b++) {
        movable[b] = !d.legal.get(b).isEmpty();
        choices.add(movable[b] ? candidates(d.legal.get(b), d.basePos[b]) : List.of());
      }
      if (below < Long.MAX_VALUE / 4 && lowerBound(d, movable, choices) >= below) {
        return Optional.empty();
      }
      // live rows of each movable buffer at each of its choices (its lifetime by §2.8(e))
      TimestepMoves.Lives moved = TimestepMoves.lives(d.base);
      List<List<LmemBuffer>> lives = new ArrayList<>();
      for (int b = 0; b < nb; b++) {
        List<LmemBuffer> at = new ArrayList<>();
        for (int r : choices.get(b)) {
          at.add(r == d.basePos[b] ? buffers.get(b) : moved.of(b, r));
        }
        lives.add(at);
      }
      long[] fixedAt = new long[rows];
      for (int t = 0; t < rows; t++) {
        fixedAt[t] = fixedLive(inst, movable, t);
      }
      if (!dropOverfull(inst.capacity(), fixedAt, movable, choices, lives)) {
        return Optional.empty();
      }
      if (below < Long.MAX_VALUE / 4 && lowerBound(d, movable, choices) >= below) {
        return Optional.empty();
      }
      CpModel cp = new CpModel();
      BoolVar[][] x = new BoolVar[nb][];
      for (int b = 0; b < nb; b++) {
        if (!movable[b]) {
          continue;
        }
        List<Integer> ch = choices.get(b);
        x[b] = new BoolVar[ch.size()];
        for (int i = 0; i < ch.size(); i++) {
          x[b][i] = cp.newBoolVar("");
          cp.addHint(x[b][i], ch.get(i) == hint[b] ? 1 : 0);
        }
        cp.addExactlyOne(x[b]);
      }
      // LMEM: the fixed buffers (sharing in place among themselves) plus every moved buffer whole
      for (int t = 0; t < rows; t++) {
        long fixed = fixedLive(inst, movable, t);
        LinearExprBuilder live = LinearExpr.newBuilder();
        for (int b = 0; b < nb; b++) {
          if (movable[b]) {
            for (int i = 0; i < x[b].length; i++) {
              if (lives.get(b).get(i).liveAt(t)) {
                live.addTerm(x[b][i], buffers.get(b).bytes());
              }
            }
          }
        }
        cp.addLessOrEqual(live, inst.capacity() - fixed);
      }
      // cycles: Σ_column weight · Σ_row max(tiu, ceil(num · bytes / den))
      long num = Math.round(RooflineCostModel.tiuMhz(d.chip) * 1000);
      long den = Math.round(RooflineCostModel.ddrGBps(d.chip) * 1_000_000);
      Map<String, long[]> columns = new LinkedHashMap<>(); // key -> {first step, weight}
      for (int s = 0; s < d.steps; s++) {
        StringBuilder key = new StringBuilder();
        for (int r = 0; r < rows; r++) {
          key.append(d.terms.tiu()[r][s]).append(',');
        }
        key.append('|');
        for (int b = 0; b < nb; b++) {
          key.append(d.terms.bytes()[b][s]).append(',');
        }
        columns.computeIfAbsent(key.toString(), k -> new long[] {0, 0});
        long[] c = columns.get(key.toString());
        if (c[1] == 0) {
          c[0] = s;
        }
        c[1]++;
      }
      LinearExprBuilder objective = LinearExpr.newBuilder();
      long constant = 0;
      for (long[] col : columns.values()) {
        int s = (int) col[0];
        long weight = col[1];
        for (int r = 0; r < rows; r++) {
          long tiu = d.terms.tiu()[r][s];
          long fixedBytes = 0;
          long maxBytes = 0;
          LinearExprBuilder bytes = LinearExpr.newBuilder();
          boolean varies = false;
          for (int b = 0; b < nb; b++) {
            long by = d.terms.bytes()[b][s];
            if (by == 0) {
              continue;
            }
            if (!movable[b]) {
              if (d.basePos[b] == r) {
                fixedBytes += by;
              }
              continue;
            }
            int i = choices.get(b).indexOf(r);
            if (i >= 0) {
              bytes.addTerm(x[b][i], by);
              maxBytes += by;
              varies = true;
            }
          }
          long low = Math.max(tiu, ceilDiv(num * fixedBytes, den));
          if (!varies) {
            constant += weight * low;
            continue;
          }
          long high = Math.max(low, ceilDiv(num * (fixedBytes + maxBytes), den));
          IntVar y = cp.newIntVar(low, high, "y" + r + "_" + s);
          bytes.add(fixedBytes);
          cp.addGreaterOrEqual(LinearExpr.term(y, den), LinearExpr.affine(bytes.build(), num, 0));
          objective.addTerm(y, weight);
        }
      }
      if (below < Long.MAX_VALUE / 4) {
        cp.addLessOrEqual(objective, below - 1 - constant);
      }
      cp.minimize(objective);
      CpSolver solver = new CpSolver();
      BudgetedSolve.configure(solver, ctx, 1, budget.nextCall());
      CpSolverStatus status = BudgetedSolve.solve(solver, cp, ctx.budget(), null);
      budget.spend(solver.response().getDeterministicTime());
      if (status != CpSolverStatus.OPTIMAL && status != CpSolverStatus.FEASIBLE) {
        return Optional.empty();
      }
      int[] pos = d.basePos.clone();
      for (int b = 0; b < nb; b++) {
        if (movable[b]) {
          for (int i = 0; i < x[b].length; i++) {
            if (solver.booleanValue(x[b][i])) {
              pos[b] = choices.get(b).get(i);
            }
          }
        }
      }
      if (!d.fits(pos)) { // cannot happen: the model's live bytes bound the real ones from above
        throw new IllegalStateException("transfer assignment overflowed the LMEM");
      }
      return Optional.of(
          new Assigned(
              moves(d.basePos, pos),
              moved(d.base, d.basePos, pos),
              status == CpSolverStatus.OPTIMAL));
    }
  }

  /**
   * A lower bound on the cycles of every assignment, capacity ignored: per step, each row costs at
   * least {@code max(TIU, GDMA of its fixed transfers)}, and the moved transfers' GDMA cycles
   * beyond the TIU slack left in the rows they may go to add on top ({@code Σ_r max(t_r, g_r) ≥ Σ_r
   * max(t_r, ⌈kF_r⌉) + max(0, k·M − Σ_r (max(t_r, ⌈kF_r⌉) − kF_r))}, {@code F_r} the fixed bytes of
   * row r, {@code M} the moved bytes of the step, {@code k} GDMA cycles per byte).
   */
  private static long lowerBound(Descent d, boolean[] movable, List<List<Integer>> choices) {
    int rows = d.base.lmem().timestepCount();
    double perByte = d.model.gdmaCycles(1_000_000_000L, d.chip) / 1e9;
    double total = 0;
    for (int s = 0; s < d.steps; s++) {
      long[] fixedBytes = new long[rows];
      boolean[] reach = new boolean[rows];
      long moved = 0;
      for (int b = 0; b < d.nb; b++) {
        long by = d.terms.bytes()[b][s];
        if (by == 0) {
          continue;
        }
        if (!movable[b]) {
          if (d.basePos[b] >= 0) {
            fixedBytes[d.basePos[b]] += by;
          }
        } else {
          moved += by;
          for (int r : choices.get(b)) {
            reach[r] = true;
          }
        }
      }
      double slack = 0;
      double[] rowSlack = new double[rows];
      for (int r = 0; r < rows; r++) {
        long row = Math.max(d.terms.tiu()[r][s], d.model.gdmaCycles(fixedBytes[r], d.chip));
        total += row;
        rowSlack[r] = row - perByte * fixedBytes[r];
        if (reach[r]) {
          slack += rowSlack[r];
        }
      }
      double each = 0; // every moved transfer on its own, in its row with the most slack
      for (int b = 0; b < d.nb; b++) {
        long by = d.terms.bytes()[b][s];
        if (movable[b] && by > 0) {
          double least = Double.MAX_VALUE;
          for (int r : choices.get(b)) {
            least = Math.min(least, Math.max(0, perByte * by - rowSlack[r]));
          }
          each += least;
        }
      }
      total += Math.max(each, Math.max(0, perByte * moved - slack));
    }
    return (long) Math.floor(total * (1 - 1e-9));
  }

  /**
   * Drops the choices that overflow the LMEM in some row even with every other moved buffer at its
   * least live bytes in that row, until none does; false when a buffer is left with none (no
   * assignment fits). A choice dropped here fails the model's LMEM rows in every assignment, so the
   * model's optimum is unchanged; its size and its bound ({@link #lowerBound}) shrink.
   */
  private static boolean dropOverfull(
      long capacity,
      long[] fixedAt,
      boolean[] movable,
      List<List<Integer>> choices,
      List<List<LmemBuffer>> lives) {
    int rows = fixedAt.length;
    int nb = movable.length;
    boolean changed = true;
    while (changed) {
      changed = false;
      // count[b][t]: choices of b live in row t; b's least bytes in t are its size when all are
      int[][] count = new int[nb][];
      long[] slack = new long[rows]; // capacity less the fixed and every buffer's least bytes
      long most = 0;
      for (int t = 0; t < rows; t++) {
        slack[t] = capacity - fixedAt[t];
      }
      for (int b = 0; b < nb; b++) {
        if (!movable[b]) {
          continue;
        }
        count[b] = liveCounts(lives.get(b), rows);
        int k = lives.get(b).size();
        long size = lives.get(b).get(0).bytes();
        for (int t = 0; t < rows; t++) {
          if (count[b][t] == k) {
            slack[t] -= size;
          }
        }
        most = Math.max(most, size);
      }
      long least = Long.MAX_VALUE;
      for (long v : slack) {
        least = Math.min(least, v);
      }
      if (least < 0) {
        return false; // over capacity whatever the choices
      }
      if (least >= most && !changed) {
        return true; // every choice fits whatever the others are (checked per buffer below too)
      }
      for (int b = 0; b < nb; b++) {
        if (!movable[b]) {
          continue;
        }
        int k = lives.get(b).size();
        long size = lives.get(b).get(0).bytes();
        // bad rows: b is not live there in every choice, and its bytes do not fit the slack
        int[] badPrefix = new int[rows + 1];
        for (int t = 0; t < rows; t++) {
          boolean bad = count[b][t] < k && slack[t] < size;
          badPrefix[t + 1] = badPrefix[t] + (bad ? 1 : 0);
        }
        if (badPrefix[rows] == 0) {
          continue;
        }
        List<Integer> keepRows = new ArrayList<>();
        List<LmemBuffer> keepLives = new ArrayList<>();
        for (int i = 0; i < k; i++) {
          LmemBuffer life = lives.get(b).get(i);
          if (!hits(life, badPrefix, rows)) {
            keepRows.add(choices.get(b).get(i));
            keepLives.add(life);
          }
        }
        if (keepRows.isEmpty()) {
          return false;
        }
        if (keepRows.size() < k) {
          choices.set(b, keepRows);
          lives.set(b, keepLives);
          changed = true;
        }
      }
    }
    return true;
  }

  /** For each row, how many of {@code lives} are live in it. */
  private static int[] liveCounts(List<LmemBuffer> lives, int rows) {
    int[] diff = new int[rows + 1];
    for (LmemBuffer life : lives) {
      if (life.held()) {
        diff[0]++;
        diff[rows]--;
      } else if (life.start() <= life.end()) {
        diff[life.start()]++;
        diff[life.end() + 1]--;
      } else {
        diff[life.start()]++;
        diff[rows]--;
        diff[0]++;
        diff[life.end() + 1]--;
      }
    }
    int[] count = new int[rows];
    int run = 0;
    for (int t = 0; t < rows; t++) {
      run += diff[t];
      count[t] = run;
    }
    return count;
  }

  /** Whether {@code life} is live in a row that {@code prefix} (running counts) marks. */
  private static boolean hits(LmemBuffer life, int[] prefix, int rows) {
    if (life.held()) {
      return prefix[rows] > 0;
    }
    if (life.start() <= life.end()) {
      return prefix[life.end() + 1] - prefix[life.start()] > 0;
    }
    return prefix[rows] - prefix[life.start()] + prefix[life.end() + 1] > 0;
  }

  private static long ceilDiv(long a, long b) {
    return Math.floorDiv(a + b - 1, b);
  }

  /**
   * Live bytes in row {@code t} of the buffers that do not move, as {@link
   * LmemLowerBounds#liveBytes} counts them (pairs in place sharing their larger size).
   */
  private static long fixedLive(LmemInstance inst, boolean[] movable, int t) {
    List<LmemBuffer> buffers = inst.buffers();
    int n = buffers.size();
    int[] parent = new int[n];
    for (int i = 0; i < n; i++) {
      parent[i] = i;
    }
    for (io.github.memplan.core.lmem.InPlace p : inst.inPlace()) {
      if (!movable[p.input()]
          && !movable[p.output()]
          && buffers.get(p.input()).liveAt(t)
          && buffers.get(p.output()).liveAt(t)) {
        parent[root(parent, p.input())] = root(parent, p.output());
      }
    }
    long[] max = new long[n];
    for (int i = 0; i < n; i++) {
      if (!movable[i] && buffers.get(i).liveAt(t)) {
        int r = root(parent, i);
        max[r] = Math.max(max[r], buffers.get(i).bytes());
      }
    }
    long sum = 0;
    for (long m : max) {
      sum += m;
    }
    return sum;
  }

  private static int root(int[] parent, int i) {
    while (parent[i] != i) {
      i = parent[i];
    }
    return i;
  }

  /**
   * Steepest descent over single-transfer moves of one table: the state of {@link #improve} and
   * {@link #fit}.
   */
  private static final class Descent {
    final GroupTimesteps base;
    final RooflineCostModel.Terms terms;
    final RooflineCostModel model;
    final Chip chip;
    final int nb;
    final int steps;
    final int[] basePos;
    final List<List<Integer>> legal;

    Descent(
        Graph graph,
        Chip chip,
        List<Op> ops,
        ShapeSecs secs,
        Map<String, SliceInfo> slices,
        GroupTimesteps base,
        RooflineCostModel model) {
      this.base = base;
      this.model = model;
      this.chip = chip;
      this.terms = model.terms(graph, ops, chip, secs, slices, base);
      this.nb = base.lmem().buffers().size();
      this.steps = terms.steps();
      this.basePos = new int[nb];
      java.util.Arrays.fill(basePos, -1);
      List<Timestep> rows = base.lmem().timesteps();
      for (int r = rows.size() - 1; r >= 0; r--) {
        for (int b : rows.get(r).gdma()) {
          basePos[b] = r;
        }
      }
      this.legal = TimestepMoves.legalRows(base);
    }

    /** Whether the table of {@code pos} fits the LMEM by its live bytes. */
    boolean fits(int[] pos) {
      LmemInstance inst = moved(base, basePos, pos).lmem();
      return LmemLowerBounds.maxLive(inst) <= inst.capacity();
    }

    /**
     * Descends from {@code pos} (updated in place): each step takes the move that lowers the cycles
     * most and keeps the table within the LMEM by its live bytes. Returns the accepted moves in
     * order, {buffer, row}.
     */
    List<int[]> descend(int[] pos, SolveContext ctx) {
      List<Timestep> rows = base.lmem().timesteps();
      long[][] rowBytes = new long[rows.size()][steps];
      for (int b = 0; b < nb; b++) {
        if (pos[b] >= 0) {
          for (int t = 0; t < steps; t++) {
            rowBytes[pos[b]][t] += terms.bytes()[b][t];
          }
        }
      }
      long[] rowCost = new long[rows.size()];
      for (int r = 0; r < rows.size(); r++) {
        rowCost[r] = rowCycles(terms, rowBytes, r, -1, 0, model, chip);
      }
      List<int[]> accepted = new ArrayList<>();
      Set<Long> banned = new HashSet<>();
      int maxSteps = 4 * nb + 4;
      while (accepted.size() < maxSteps && !ctx.budget().exhausted()) {
        long bestDelta = 0;
        int bestB = -1;
        int bestR = -1;
        for (int b = 0; b < nb; b++) {
          List<Integer> dest = legal.get(b);
          if (dest.isEmpty()) {
            continue;
          }
          for (int r : candidates(dest, basePos[b])) {
            if (r == pos[b] || banned.contains(key(b, r))) {
              continue;
            }
            int from = pos[b];
            long delta =
                rowCycles(terms, rowBytes, from, b, -1, model, chip)
                    + rowCycles(terms, rowBytes, r, b, +1, model, chip)
                    - rowCost[from]
                    - rowCost[r];
            if (delta < bestDelta) {
              bestDelta = delta;
              bestB = b;
              bestR = r;
            }
          }
        }
        if (bestB < 0) {
          break;
        }
        int[] trial = pos.clone();
        trial[bestB] = bestR;
        if (!fits(trial)) {
          banned.add(key(bestB, bestR));
          continue;
        }
        int from = pos[bestB];
        for (int t = 0; t < steps; t++) {
          rowBytes[from][t] -= terms.bytes()[bestB][t];
          rowBytes[bestR][t] += terms.bytes()[bestB][t];
        }
        pos[bestB] = bestR;
        rowCost[from] = rowCycles(terms, rowBytes, from, -1, 0, model, chip);
        rowCost[bestR] = rowCycles(terms, rowBytes, bestR, -1, 0, model, chip);
        accepted.add(new int[] {bestB, bestR});
      }
      return accepted;
    }
  }

  /** The destinations of a buffer: its legal rows and its own row in the unmoved table. */
  private static List<Integer> candidates(List<Integer> legal, int home) {
    List<Integer> out = new ArrayList<>(legal);
    out.add(home);
    out.sort(null);
    return out;
  }

  private static long key(int b, int r) {
    return ((long) b << 32) | r;
  }

  /**
   * Cycles of row {@code r} over all steps, with buffer {@code b}'s bytes added ({@code sign} +1)
   * or removed (-1) from it; {@code b < 0} for the row as it is.
   */
  private static long rowCycles(
      RooflineCostModel.Terms terms,
      long[][] rowBytes,
      int r,
      int b,
      int sign,
      RooflineCostModel model,
      Chip chip) {
    long sum = 0;
    long[] tiu = terms.tiu()[r];
    long[] bytes = rowBytes[r];
    for (int t = 0; t < tiu.length; t++) {
      long by = b < 0 ? bytes[t] : bytes[t] + sign * terms.bytes()[b][t];
      sum += Math.max(tiu[t], model.gdmaCycles(by, chip));
    }
    return sum;
  }

  private static int[] prefix(int[] basePos, List<int[]> accepted, int k) {
    int[] pos = basePos.clone();
    for (int i = 0; i < k; i++) {
      pos[accepted.get(i)[0]] = accepted.get(i)[1];
    }
    return pos;
  }

  private static List<TransferMove> moves(int[] basePos, int[] pos) {
    List<TransferMove> out = new ArrayList<>();
    for (int b = 0; b < pos.length; b++) {
      if (pos[b] != basePos[b]) {
        out.add(new TransferMove(b, pos[b]));
      }
    }
    return out;
  }

  private static GroupTimesteps moved(GroupTimesteps base, int[] basePos, int[] pos) {
    TimestepMoves.Result r = TimestepMoves.apply(base, moves(basePos, pos));
    if (r instanceof TimestepMoves.Illegal illegal) {
      throw new IllegalStateException("transfer search made an illegal move: " + illegal.reason());
    }
    return ((TimestepMoves.Moved) r).table();
  }

  /** The group with the moves of {@code pos}, placed by the oracle; null when it is not. */
  private static Group placed(
      Group g,
      GroupTimesteps base,
      int[] basePos,
      int[] pos,
      Function<LmemInstance, Optional<LmemSolution>> place) {
    List<TransferMove> moves = moves(basePos, pos);
    if (moves.isEmpty()) {
      return null;
    }
    GroupTimesteps table = moved(base, basePos, pos);
    Optional<LmemSolution> sol = place.apply(table.lmem());
    return sol.map(s -> new Group(g.first(), g.last(), g.secs(), g.slices(), table, s, moves))
        .orElse(null);
  }
}
