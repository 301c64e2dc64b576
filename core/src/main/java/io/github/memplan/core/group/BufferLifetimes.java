package io.github.memplan.core.group;

import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.Timestep;
import java.util.ArrayList;
import java.util.List;

/**
 * Buffer lifetimes read off a timestep table, as {@code gen_all_mem_buffer_ts} derives them ({@code
 * reference/tpu-mlir.md} §2.8(e)): a loaded buffer (one the GDMA moves and no TIU op writes) starts
 * at its load row; a TIU op's results and scratch start at the op's row; a buffer ends at its last
 * TIU use or at its store row, whichever comes later going forward (cyclically) from its start, so
 * a transfer the software pipeline moved across the loop boundary wraps. Shared by {@link
 * Timesteps2026} and {@link TimestepMoves}, so a moved table gets its lifetimes by the very rule
 * the unmoved one does.
 */
final class BufferLifetimes {
  private BufferLifetimes() {}

  /**
   * {@code buffers} (ids, kinds, sizes and held flags kept) with the lifetimes of {@code rows};
   * fails naming a buffer that no row loads or computes.
   */
  static List<LmemBuffer> of(List<LmemBuffer> buffers, List<Timestep> rows) {
    int n = buffers.size();
    boolean[] written = new boolean[n];
    for (Timestep row : rows) {
      for (Timestep.TiuOp op : row.tiu()) {
        op.results().forEach(b -> written[b] = true);
      }
    }
    int[] start = new int[n];
    java.util.Arrays.fill(start, -1);
    List<List<Integer>> uses = new ArrayList<>();
    for (int b = 0; b < n; b++) {
      uses.add(new ArrayList<>());
    }
    for (int r = 0; r < rows.size(); r++) {
      for (int b : rows.get(r).gdma()) {
        if (written[b]) {
          uses.get(b).add(r);
        } else {
          start[b] = r;
        }
      }
    }
    for (int r = 0; r < rows.size(); r++) {
      for (Timestep.TiuOp op : rows.get(r).tiu()) {
        for (int b : op.operands()) {
          uses.get(b).add(r);
        }
        for (int b : op.results()) {
          start[b] = r;
          uses.get(b).add(r);
        }
        for (int b : op.scratch()) {
          start[b] = r;
          uses.get(b).add(r);
        }
      }
    }
    List<LmemBuffer> out = new ArrayList<>();
    for (int b = 0; b < n; b++) {
      LmemBuffer p = buffers.get(b);
      if (start[b] < 0) {
        throw new IllegalArgumentException(
            "buffer '" + p.id() + "' is neither loaded nor computed in any row");
      }
      int end = lastForward(start[b], uses.get(b), rows.size());
      out.add(new LmemBuffer(p.id(), p.kind(), start[b], end, p.bytes(), p.held()));
    }
    return out;
  }

  /** The use reached last going forward (cyclically) from {@code start}. */
  private static int lastForward(int start, List<Integer> uses, int rows) {
    int best = start;
    int bestDist = 0;
    for (int u : uses) {
      int d = Math.floorMod(u - start, rows);
      if (d > bestDist) {
        bestDist = d;
        best = u;
      }
    }
    return best;
  }
}
