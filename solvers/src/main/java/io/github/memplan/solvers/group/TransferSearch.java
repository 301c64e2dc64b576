package io.github.memplan.solvers.group;

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
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemLowerBounds;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.Timestep;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.HashSet;
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
 * <p>Departures: opt=3 optimises {@code Σ |slack|} with an exact MIP and a per-timestep LMEM bound;
 * here the roofline cycles themselves are minimised by a local search (a local optimum, not a
 * proven one), and LMEM is checked by the oracle on the final table. §2.8(c)'s profit rule and
 * bubbling are not reproduced. Transfers keep their stage ({@link TimestepMoves}).
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
    final List<List<Integer>> legal = new ArrayList<>();

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
      for (int b = 0; b < nb; b++) {
        basePos[b] = TimestepMoves.transferRow(base, b).orElse(-1);
        legal.add(TimestepMoves.legalRows(base, b));
      }
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
