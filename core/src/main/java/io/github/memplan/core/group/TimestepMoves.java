package io.github.memplan.core.group;

import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.Timestep;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * GDMA transfers of a group's timestep table moved to other rows: the decision TPU-MLIR's
 * memory-aware rebalancing makes greedily ({@code memory_aware_timestep_assignment} and {@code
 * get_best_ts} in {@code lib/Dialect/Tpu/Transforms/LayerGroup/TimeStepMethod.cpp}, {@code
 * reference/tpu-mlir.md} §2.8(c)) and opt=3 makes by a MIP ({@code opt3/IlpTimeStep.cpp}, §2.4
 * "opt=3"). This class only says which moves are legal and applies them; choosing them is a
 * search's job. Moves apply on top of the table the group's {@link TimestepMethod} builds, which
 * for {@code today} already contains §2.8(c)'s greedy moves ({@link MemoryAwareRebalance}).
 *
 * <p><b>Legal moves.</b> Only transfers of stage 1 move (the stage-0 loads and stage-2 stores that
 * the software pipeline folded across the loop boundary stay, so every transfer keeps the iteration
 * the cost model gives its stage, §2.8(b)); one move per buffer, rows counted in the unmoved table:
 *
 * <ul>
 *   <li>a load (a buffer the GDMA moves and no TIU op writes; held weights included, they matter in
 *       iteration 0 only) moves to any row with a TIU op before the first row whose TIU op reads
 *       it: earlier, or later again up to the row before its reader (back towards where the nearest
 *       assignment put it, undoing part of §2.8(c)'s rebalancing);
 *   <li>a store (a TIU op's result that the GDMA moves) moves to any row with a TIU op after the
 *       last row whose TIU op writes it, but not into a row whose TIU op reads or writes the buffer
 *       ({@code is_tensor_accessed_by_npu} in {@code TimeStepMethod.cpp}).
 * </ul>
 *
 * <p>These are opt=3's windows: its MIP places every load and store exactly once within its allowed
 * window, freely, under an LMEM bound per timestep (§2.4 "opt=3"); a table's transfers are not
 * bound to the side of their current row that §2.8(c)'s greedy moves them to. §2.8(c) lets a load
 * move earlier down to one row after the previous use of the same value and a store later up to one
 * row before its next producer ({@code get_tensor_range_end}); here every value has one buffer,
 * loaded or produced once per iteration, so those bounds are the first and last compute rows, which
 * keep the moved lifetimes from wrapping. §2.8(c) moves one row at a time by a profit rule and may
 * swap with other transfers; here any legal set of moves is allowed and a search picks one. The
 * lifetimes of the moved table are derived by the rule of §2.8(e) ({@link BufferLifetimes}, shared
 * with {@link Timesteps2026}): a load moved earlier starts earlier and one moved later starts
 * later, a store moved later ends later, so the LMEM placement sees the new lives. The in-place
 * pairs of the table ({@link InPlaceOps}) are kept while the new lives still allow them.
 *
 * <p>Moving loads later and stores earlier is what makes a table fit LMEM again when §2.8(c)'s
 * rebalancing (which does not look at capacity) made its lives too long: every load at the row
 * before its first reader and every store at the first legal row after its writer gives each buffer
 * its shortest life, so no set of moves needs less LMEM in any row ({@code TransferSearch} starts
 * there when a table does not fit).
 */
public final class TimestepMoves {
  private TimestepMoves() {}

  /** The moved table, or why the moves are illegal. */
  public sealed interface Result {}

  /** The table after the moves. */
  public record Moved(GroupTimesteps table) implements Result {}

  /** A move is illegal: one line naming the buffer. */
  public record Illegal(String reason) implements Result {}

  /** Whether buffer {@code b} of {@code t} is a load (moved by the GDMA, written by no TIU op). */
  public static boolean isLoad(GroupTimesteps t, int b) {
    for (Timestep row : t.lmem().timesteps()) {
      for (Timestep.TiuOp op : row.tiu()) {
        if (op.results().contains(b)) {
          return false;
        }
      }
    }
    return true;
  }

  /** The row whose GDMA moves buffer {@code b} in {@code t}, or empty when none does. */
  public static Optional<Integer> transferRow(GroupTimesteps t, int b) {
    List<Timestep> rows = t.lmem().timesteps();
    for (int r = 0; r < rows.size(); r++) {
      if (rows.get(r).gdma().contains(b)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /**
   * The rows buffer {@code b}'s transfer may move to in {@code t} (its own row excluded),
   * ascending; empty when it does not move (no transfer, or no other row in its window).
   */
  public static List<Integer> legalRows(GroupTimesteps t, int b) {
    return new Scan(t).legalRows(b);
  }

  /** {@link #legalRows} of every buffer of {@code t}, by buffer, reading the table once. */
  public static List<List<Integer>> legalRows(GroupTimesteps t) {
    Scan scan = new Scan(t);
    List<List<Integer>> out = new ArrayList<>();
    for (int b = 0; b < t.lmem().buffers().size(); b++) {
      out.add(scan.legalRows(b));
    }
    return out;
  }

  /** What {@link #legalRows} reads off a table, for every buffer at once. */
  private static final class Scan {
    final GroupTimesteps t;
    final List<Timestep> rows;
    int firstCompute = -1;
    int lastCompute = -1;
    final int[] at; // transfer row, or -1
    final boolean[] written;
    final int[] firstTouch;
    final int[] lastTouch;
    final int[] lastWrite;
    final List<java.util.BitSet> touched = new ArrayList<>();

    Scan(GroupTimesteps t) {
      this.t = t;
      this.rows = t.lmem().timesteps();
      int n = t.lmem().buffers().size();
      at = new int[n];
      written = new boolean[n];
      firstTouch = new int[n];
      lastTouch = new int[n];
      lastWrite = new int[n];
      java.util.Arrays.fill(at, -1);
      java.util.Arrays.fill(firstTouch, -1);
      java.util.Arrays.fill(lastTouch, -1);
      java.util.Arrays.fill(lastWrite, -1);
      for (int b = 0; b < n; b++) {
        touched.add(new java.util.BitSet());
      }
      for (int r = 0; r < rows.size(); r++) {
        Timestep row = rows.get(r);
        for (int b : row.gdma()) {
          if (at[b] < 0) {
            at[b] = r;
          }
        }
        if (!row.tiu().isEmpty()) {
          firstCompute = firstCompute < 0 ? r : firstCompute;
          lastCompute = r;
        }
        for (Timestep.TiuOp op : row.tiu()) {
          for (int b : op.operands()) {
            touch(b, r);
          }
          for (int b : op.results()) {
            touch(b, r);
            written[b] = true;
            lastWrite[b] = r;
          }
          for (int b : op.scratch()) {
            touch(b, r);
          }
        }
      }
    }

    private void touch(int b, int r) {
      firstTouch[b] = firstTouch[b] < 0 ? r : firstTouch[b];
      lastTouch[b] = r;
      touched.get(b).set(r);
    }

    List<Integer> legalRows(int b) {
      List<Integer> out = new ArrayList<>();
      if (at[b] < 0) {
        return out;
      }
      int cur = at[b];
      int stage = t.stages().get(b);
      boolean load = !written[b];
      int from;
      int to;
      if (stage == 1 && load) { // before its first reader (one no TIU op reads only moves earlier)
        from = firstCompute;
        to = firstTouch[b] > cur ? firstTouch[b] - 1 : cur;
      } else if (stage == 1) { // after its last writer (one no TIU op writes only moves later)
        from =
            Math.max(
                lastWrite[b] >= 0 && lastWrite[b] < cur ? lastWrite[b] + 1 : cur, firstCompute);
        to = lastCompute;
      } else if (stage == 0 && load) { // folded: after the last row that touches it
        from = Math.max(lastTouch[b] + 1, firstCompute);
        to = lastCompute;
      } else if (stage == 2 && !load) { // folded: before the first row that touches it
        from = firstCompute;
        to = firstTouch[b] >= 0 ? firstTouch[b] - 1 : cur;
      } else {
        return out;
      }
      for (int r = Math.max(from, 0); r <= to; r++) {
        if (r != cur && !touched.get(b).get(r)) {
          out.add(r);
        }
      }
      return out;
    }
  }

  /**
   * The lifetimes the buffers of {@code t} take when one transfer moves ({@link #apply} with that
   * one move gives the same), without building moved tables: {@code lives(t).of(b, row)}.
   */
  public static Lives lives(GroupTimesteps t) {
    return new Lives(new BufferLifetimes.Moved(t.lmem().buffers(), t.lmem().timesteps()));
  }

  /** See {@link #lives}. */
  public static final class Lives {
    private final BufferLifetimes.Moved moved;

    private Lives(BufferLifetimes.Moved moved) {
      this.moved = moved;
    }

    /** Buffer {@code b} with its lifetime once its transfer is in row {@code row}. */
    public LmemBuffer of(int b, int row) {
      return moved.life(b, row);
    }
  }

  /** The window of a transfer, in words, for {@link Illegal}'s message. */
  private static String window(boolean load, int stage) {
    if (load && stage == 1) {
      return "a load moves to a compute row before the first row whose TIU op reads it";
    }
    if (load && stage == 0) {
      return "a load folded into the previous iteration moves to a compute row after the last row"
          + " whose TIU op touches it";
    }
    if (!load && stage == 1) {
      return "a store moves to a compute row after the last row whose TIU op writes it, not into"
          + " a row whose TIU op touches it";
    }
    if (!load && stage == 2) {
      return "a store folded into the next iteration moves to a compute row before the first row"
          + " whose TIU op touches it";
    }
    return "a transfer of stage " + stage + " does not move";
  }

  /**
   * Whether a TIU op of {@code row} reads, writes or scratches buffer {@code b} ({@code
   * is_tensor_accessed_by_npu}); shared with {@link MemoryAwareRebalance}.
   */
  static boolean touches(Timestep row, int b) {
    for (Timestep.TiuOp op : row.tiu()) {
      if (op.operands().contains(b) || op.results().contains(b) || op.scratch().contains(b)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code base} with {@code moves} applied (sorted by buffer, one per buffer, rows of {@code
   * base}): each moved transfer leaves its row and is appended to its new row in the order of
   * {@code moves}; lifetimes are derived again. {@link Illegal} names the first move at fault.
   */
  public static Result apply(GroupTimesteps base, List<TransferMove> moves) {
    LmemInstance inst = base.lmem();
    List<LmemBuffer> buffers = inst.buffers();
    List<Timestep> rows = inst.timesteps();
    int prev = -1;
    Scan scan = new Scan(base);
    for (TransferMove m : moves) {
      if (m.buffer() >= buffers.size()) {
        return new Illegal("move of buffer " + m.buffer() + ": no such buffer");
      }
      String id = "buffer '" + buffers.get(m.buffer()).id() + "'";
      if (m.buffer() <= prev) {
        return new Illegal(id + ": moves not sorted by buffer, or two moves of one buffer");
      }
      prev = m.buffer();
      if (transferRow(base, m.buffer()).isEmpty()) {
        return new Illegal(id + ": no GDMA transfer to move");
      }
      if (!scan.legalRows(m.buffer()).contains(m.row())) {
        boolean load = isLoad(base, m.buffer());
        int stage = base.stages().get(m.buffer());
        return new Illegal(
            id
                + ": its "
                + (load ? "load" : "store")
                + " of stage "
                + stage
                + " in row "
                + transferRow(base, m.buffer()).get()
                + " cannot move to row "
                + m.row()
                + " ("
                + window(load, stage)
                + ")");
      }
    }
    List<List<Integer>> gdma = new ArrayList<>();
    for (Timestep row : rows) {
      List<Integer> keep = new ArrayList<>(row.gdma());
      for (TransferMove m : moves) {
        keep.remove(Integer.valueOf(m.buffer()));
      }
      gdma.add(keep);
    }
    for (TransferMove m : moves) {
      gdma.get(m.row()).add(m.buffer());
    }
    List<Timestep> moved = new ArrayList<>();
    for (int r = 0; r < rows.size(); r++) {
      moved.add(new Timestep(rows.get(r).tiu(), gdma.get(r)));
    }
    List<LmemBuffer> lives = BufferLifetimes.of(buffers, moved);
    LmemInstance out =
        new LmemInstance(
            inst.name(),
            inst.capacity(),
            inst.banks(),
            inst.bankBytes(),
            inst.euBytes(),
            lives,
            moved,
            InPlaceOps.keepValid(inst.inPlace(), lives, moved));
    return new Moved(new GroupTimesteps(out, base.tensors(), base.stages()));
  }
}
