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

  /**
   * The lifetimes {@link #of} gives each buffer of a table when its GDMA transfer alone moves to
   * another row: one buffer's life depends on its own transfer and TIU uses only, so the TIU uses
   * are read once and each moved life costs one pass over them.
   */
  static final class Moved {
    private final List<LmemBuffer> buffers;
    private final int rows;
    private final boolean[] written;
    private final int[] computed; // the row a TIU op last writes or scratches the buffer, or -1
    private final List<List<Integer>> tiuUses = new ArrayList<>();

    Moved(List<LmemBuffer> buffers, List<Timestep> rows) {
      this.buffers = buffers;
      this.rows = rows.size();
      int n = buffers.size();
      written = new boolean[n];
      computed = new int[n];
      java.util.Arrays.fill(computed, -1);
      for (int b = 0; b < n; b++) {
        tiuUses.add(new ArrayList<>());
      }
      for (int r = 0; r < rows.size(); r++) {
        for (Timestep.TiuOp op : rows.get(r).tiu()) {
          for (int b : op.operands()) {
            tiuUses.get(b).add(r);
          }
          for (int b : op.results()) {
            written[b] = true;
            computed[b] = r;
            tiuUses.get(b).add(r);
          }
          for (int b : op.scratch()) {
            computed[b] = r;
            tiuUses.get(b).add(r);
          }
        }
      }
    }

    /** Buffer {@code b} with its GDMA transfer in row {@code transferRow}. */
    LmemBuffer life(int b, int transferRow) {
      LmemBuffer p = buffers.get(b);
      int start = computed[b] >= 0 ? computed[b] : transferRow;
      int end = lastForward(start, tiuUses.get(b), rows);
      if (written[b]
          && Math.floorMod(transferRow - start, rows) > Math.floorMod(end - start, rows)) {
        end = transferRow;
      }
      return new LmemBuffer(p.id(), p.kind(), start, end, p.bytes(), p.held());
    }
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
