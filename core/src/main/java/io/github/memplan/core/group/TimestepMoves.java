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
 *       iteration 0 only) moves to an <em>earlier</em> row, not before the first row with a TIU op;
 *   <li>a store (a TIU op's result that the GDMA moves) moves to a <em>later</em> row, not after
 *       the last row with a TIU op, and not into a row whose TIU op reads or writes the buffer
 *       ({@code is_tensor_accessed_by_npu} in {@code TimeStepMethod.cpp}).
 * </ul>
 *
 * <p>§2.8(c) lets a load move earlier down to one row after the previous use of the same value and
 * a store later up to one row before its next producer ({@code get_tensor_range_end}); here every
 * value has one buffer, loaded or produced once per iteration, so those bounds are the first and
 * last compute rows, which keep the moved lifetimes from wrapping. §2.8(c) moves one row at a time
 * by a profit rule and may swap with other transfers; here any legal set of moves is allowed and a
 * search picks one. The lifetimes of the moved table are derived by the rule of §2.8(e) ({@link
 * BufferLifetimes}, shared with {@link Timesteps2026}): a load moved earlier starts earlier, a
 * store moved later ends later, so the LMEM placement sees the longer lives. The in-place pairs of
 * the table ({@link InPlaceOps}) are kept while the new lives still allow them.
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
   * ascending; empty when it does not move (no transfer, or not of stage 1).
   */
  public static List<Integer> legalRows(GroupTimesteps t, int b) {
    Optional<Integer> at = transferRow(t, b);
    List<Integer> out = new ArrayList<>();
    if (at.isEmpty() || t.stages().get(b) != 1) {
      return out;
    }
    List<Timestep> rows = t.lmem().timesteps();
    int firstCompute = -1;
    int lastCompute = -1;
    for (int r = 0; r < rows.size(); r++) {
      if (!rows.get(r).tiu().isEmpty()) {
        firstCompute = firstCompute < 0 ? r : firstCompute;
        lastCompute = r;
      }
    }
    int cur = at.get();
    if (isLoad(t, b)) {
      for (int r = firstCompute; r < cur; r++) {
        out.add(r);
      }
    } else {
      for (int r = cur + 1; r <= lastCompute; r++) {
        if (!touches(rows.get(r), b)) {
          out.add(r);
        }
      }
    }
    return out;
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
      if (base.stages().get(m.buffer()) != 1) {
        return new Illegal(
            id + ": its transfer has stage " + base.stages().get(m.buffer()) + ", only 1 moves");
      }
      if (!legalRows(base, m.buffer()).contains(m.row())) {
        boolean load = isLoad(base, m.buffer());
        return new Illegal(
            id
                + ": its "
                + (load ? "load" : "store")
                + " in row "
                + transferRow(base, m.buffer()).get()
                + " cannot move to row "
                + m.row()
                + (load
                    ? " (a load moves earlier, not before the first compute row)"
                    : " (a store moves later, not after the last compute row, not into a row"
                        + " whose TIU op touches it)"));
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
