package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.Timestep;
import java.util.ArrayList;
import java.util.List;

/**
 * TPU-MLIR's memory-aware timestep rebalancing ({@code reference/tpu-mlir.md} §2.8(c)): functions
 * {@code memory_aware_timestep_assignment}, {@code get_timestep_cycle_slack}, {@code get_best_ts},
 * {@code get_next_ts}, {@code bubble_tensor_to_best_ts} and {@code is_tensor_accessed_by_npu} in
 * {@code lib/Dialect/Tpu/Transforms/LayerGroup/TimeStepMethod.cpp}, and {@code
 * BasicTimeStep::get_tensor_range_end} in {@code BasicTimeStep.cpp}. It runs on the table the
 * nearest assignment and the software pipeline produced (in the source {@code
 * memory_aware_timestep_assignment} calls {@code layer_nearest_timestep_assignment}, which ends
 * with {@code software_pipeline}), only for groups of more than one op; TIU ops never move,
 * transfers keep the stage the pipeline gave them.
 *
 * <p><b>Slack</b> of a row: the cycles of its TIU op minus the op's own GDMA cycles, minus the GDMA
 * cycles of every transfer in the row. <b>Ranges</b>: a load moves earlier, not before the row
 * after the last row at or before its own whose TIU op reads the value (row 0 when there is none);
 * a store moves later, not after the row before the first row at or after its own whose TIU op
 * writes the value (the last row when there is none), and never into a row whose TIU op reads or
 * writes it. <b>Main loop</b>: rows in order; a row with negative slack asks {@code get_best_ts}
 * for a transfer of the row and a destination in its range with positive slack, maximising {@code
 * profit = (min(s + c, 0) - s) + min(s_d - c, 0)} ({@code s} the row's slack, {@code s_d} the
 * destination's, {@code c} the transfer's cycles); only a positive profit counts; among equal
 * profits the smaller {@code area = bytes × (|d - row| + 1)} wins, then the first found (transfers
 * in row order, destinations nearest first). The transfer then bubbles row by row towards {@code
 * d}: after each step, in the row reached, the transfer of the same kind (itself included) whose
 * removal gains most ({@code min(s' + c, 0) - min(s', 0) + min(s_d - c, 0)}, with {@code s'} the
 * row's slack after the step) carries on, provided its own range still reaches {@code d} (and, for
 * a store, {@code d}'s TIU op does not access it); a tie at the best profit goes to the smaller
 * buffer; when nothing gains and no smaller buffer ties, bubbling stops there (so the moved
 * transfer may stay in a middle row). A store stepping through a row whose TIU op accesses it
 * carries on unchanged. The row is examined again until {@code get_best_ts} finds nothing, then the
 * loop moves on. It ends: every step moves one transfer one row in its one direction (loads
 * earlier, stores later) within its range.
 *
 * <p><b>Cycles</b> come from {@link RooflineCostModel} instead of the closed backend library
 * ({@code getLocalLayerCycle(op, ..., true)} and {@code getGdmaCycle}, §2.9): the TIU cycles of the
 * row's op on its largest slice (the largest over the loop's iterations of {@link
 * RooflineCostModel.Terms#tiu()}), and the GDMA cycles of the transfer's largest slice bytes (of
 * {@link RooflineCostModel.Terms#bytes()}; weights whole). Buffer sizes for the area are the
 * buffers' LMEM bytes ({@code get_buffer_size}).
 *
 * <p>Departures: our ops issue no GDMA of their own, so that term of the slack is 0; the source's
 * "Lut counts 0" has no counterpart (no Lut op in our IR); weights count their full load cycles, as
 * in the source where hold coefficients ({@code gen_hold_coeff}) are decided after this pass; the
 * source keys cycles and sizes by value and keeps one list element per transfer, as here, where
 * every value has one buffer moved at most once per row.
 */
final class MemoryAwareRebalance {
  private MemoryAwareRebalance() {}

  /**
   * The GDMA lists of {@code t}'s rows after rebalancing, with cycles from {@code model} on {@code
   * terms} (the terms of {@code t}).
   */
  static List<List<Integer>> of(
      GroupTimesteps t, RooflineCostModel.Terms terms, RooflineCostModel model, Chip chip) {
    List<Timestep> rows = t.lmem().timesteps();
    long[] tiu = new long[rows.size()];
    for (int r = 0; r < rows.size(); r++) {
      for (long c : terms.tiu()[r]) {
        tiu[r] = Math.max(tiu[r], c);
      }
    }
    List<LmemBuffer> buffers = t.lmem().buffers();
    long[] cycles = new long[buffers.size()];
    long[] bytes = new long[buffers.size()];
    for (int b = 0; b < buffers.size(); b++) {
      long max = 0;
      for (long x : terms.bytes()[b]) {
        max = Math.max(max, x);
      }
      cycles[b] = model.gdmaCycles(max, chip);
      bytes[b] = buffers.get(b).bytes();
    }
    return rebalance(rows, tiu, cycles, bytes);
  }

  /**
   * The rebalanced GDMA lists of {@code rows}: {@code tiu[r]} the slack contribution of row {@code
   * r}'s TIU work, {@code cycles[b]} and {@code bytes[b]} buffer {@code b}'s transfer cycles and
   * size.
   */
  static List<List<Integer>> rebalance(
      List<Timestep> rows, long[] tiu, long[] cycles, long[] bytes) {
    return new Run(rows, tiu, cycles, bytes).run();
  }

  private static final class Run {
    private final List<Timestep> rows;
    private final long[] cycles;
    private final long[] bytes;
    private final boolean[] load;
    private final long[] slack;
    private final List<List<Integer>> gdma = new ArrayList<>();

    /**
     * Per buffer, the rows whose TIU op reads it (resp. writes it), ascending; null until asked.
     */
    private final int[][] readRows;

    private final int[][] writeRows;

    Run(List<Timestep> rows, long[] tiu, long[] cycles, long[] bytes) {
      this.rows = rows;
      this.cycles = cycles;
      this.bytes = bytes;
      this.load = new boolean[cycles.length];
      java.util.Arrays.fill(load, true);
      this.slack = new long[rows.size()];
      for (int r = 0; r < rows.size(); r++) {
        for (Timestep.TiuOp op : rows.get(r).tiu()) {
          op.results().forEach(b -> load[b] = false);
        }
      }
      this.readRows = new int[cycles.length][];
      this.writeRows = new int[cycles.length][];
      for (int r = 0; r < rows.size(); r++) {
        gdma.add(new ArrayList<>(rows.get(r).gdma()));
        slack[r] = tiu[r];
        for (int b : rows.get(r).gdma()) {
          slack[r] -= cycles[b];
        }
      }
    }

    /**
     * The rows (ascending, once each) where {@code part} of a TIU op holds buffer {@code b}, found
     * on the first request and kept in {@code cache}.
     */
    private int[] rowsOf(
        int[][] cache, int b, java.util.function.Function<Timestep.TiuOp, List<Integer>> part) {
      if (cache[b] == null) {
        List<Integer> l = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
          for (Timestep.TiuOp op : rows.get(r).tiu()) {
            if (part.apply(op).contains(b)) {
              l.add(r);
              break;
            }
          }
        }
        cache[b] = l.stream().mapToInt(Integer::intValue).toArray();
      }
      return cache[b];
    }

    List<List<Integer>> run() {
      int n = rows.size();
      for (int cur = 0; cur < n; ) {
        if (slack[cur] >= 0) {
          cur++;
          continue;
        }
        int[] best = bestTs(cur);
        if (best == null) {
          cur++;
          continue;
        }
        bubble(best[0], cur, best[1]);
      }
      return gdma;
    }

    /**
     * {@code get_tensor_range_end}: how far the transfer of {@code b} in row {@code cur} may go.
     */
    private int rangeEnd(int b, int cur) {
      int n = rows.size();
      if (load[b]) {
        // the last row at or before cur whose TIU reads b (the TIU rows never change)
        int[] read = rowsOf(readRows, b, Timestep.TiuOp::operands);
        for (int k = read.length - 1; k >= 0; k--) {
          if (read[k] <= cur) {
            return read[k] + 1;
          }
        }
        return 0;
      }
      for (int ts : rowsOf(writeRows, b, Timestep.TiuOp::results)) {
        if (ts >= cur) {
          return Math.min(n - 1, ts - 1);
        }
      }
      return n - 1;
    }

    /**
     * {@code is_tensor_accessed_by_npu}, by {@link TimestepMoves#touches} (which also counts
     * scratch, never a transferred buffer).
     */
    private boolean accessed(int b, int ts) {
      return TimestepMoves.touches(rows.get(ts), b);
    }

    private static int step(boolean isLoad, int ts) {
      return isLoad ? ts - 1 : ts + 1;
    }

    private static boolean within(boolean isLoad, int ts, int end) {
      return isLoad ? ts >= end : ts <= end;
    }

    /** {@code get_best_ts}: {buffer, destination row} or null. */
    private int[] bestTs(int cur) {
      long s = slack[cur];
      long maxProfit = 0;
      long bestArea = 0;
      int[] best = null;
      for (int b : gdma.get(cur)) {
        long c = cycles[b];
        long src = Math.min(s + c, 0) - s;
        boolean ld = load[b];
        int end = rangeEnd(b, cur);
        for (int d = step(ld, cur); within(ld, d, end); d = step(ld, d)) {
          if (!ld && accessed(b, d)) {
            continue;
          }
          if (slack[d] > 0) {
            long profit = src + Math.min(slack[d] - c, 0);
            long area = bytes[b] * (Math.abs(d - cur) + 1);
            if (profit > maxProfit || (profit == maxProfit && best != null && area < bestArea)) {
              maxProfit = profit;
              bestArea = area;
              best = new int[] {b, d};
            }
          }
        }
      }
      return best;
    }

    /** {@code bubble_tensor_to_best_ts}. */
    private void bubble(int sel, int cur, int best) {
      boolean ld = load[sel];
      int pre = cur;
      for (int next = step(ld, cur); within(ld, next, best); next = step(ld, next)) {
        gdma.get(next).add(sel);
        slack[next] -= cycles[sel];
        gdma.get(pre).remove(Integer.valueOf(sel));
        slack[pre] += cycles[sel];
        if (next == best) {
          return;
        }
        if (ld || !accessed(sel, next)) {
          long maxProfit = 0;
          int pick = -1;
          int carried = sel;
          for (int b : gdma.get(next)) {
            if (load[b] != ld) {
              continue;
            }
            int end = rangeEnd(b, next);
            if ((ld && end > best) || (!ld && (end < best || accessed(b, best)))) {
              continue;
            }
            long profit =
                Math.min(slack[next] + cycles[b], 0)
                    - Math.min(slack[next], 0)
                    + Math.min(slack[best] - cycles[b], 0);
            if (profit > maxProfit || (profit == maxProfit && bytes[b] < bytes[carried])) {
              maxProfit = profit;
              carried = b;
              pick = b;
            }
          }
          if (pick < 0) {
            return;
          }
          sel = pick;
        }
        pre = next;
      }
    }
  }
}
