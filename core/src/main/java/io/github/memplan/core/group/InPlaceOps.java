package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.lmem.InPlace;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.Timestep;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The in-place pairs of a group's LMEM instance: which op outputs TPU-MLIR's LMEM allocator lets
 * reuse the address of the op's operand 0 ({@code isInplaceOp} and {@code insert_inplace_local_mem}
 * in {@code lib/Dialect/Tpu/Transforms/LayerGroup/LmemAllocator.cpp} at commit 08951f713a; {@code
 * reference/tpu-mlir.md} §2.10, "In-place slots").
 *
 * <p>{@code isInplaceOp(op)}, condition for condition:
 *
 * <ul>
 *   <li>never on CV18xx;
 *   <li>operand 0 has at most one user ({@code getUsers()} counts uses, so an op reading it twice
 *       counts twice, and a graph output has the return as a user);
 *   <li>the op is Add, Sub, Mul, Div, Min or Max (with more than two operands, none repeated), a
 *       Reshape, or a Scale whose operand 0 is stored as F32;
 *   <li>operand 0 has at least as many bytes as result 0 ({@code module::getBytes}, whole tensors).
 * </ul>
 *
 * Then {@code insert_inplace_local_mem} offers the operand's buffer to the result's (and the other
 * way round) when the operand's life ends in the row where the result's starts and {@code
 * can_membuf_inplace_alloc} holds ({@link InPlace#lifetimesAllow}), and, for the operand's slot,
 * when the operand is not stored in that row ({@code need_store}). Both directions are one {@link
 * InPlace} pair; the allocator {@code lmem-tpumlir} keeps the source's asymmetries (a weight never
 * takes the result's slot).
 *
 * <p>Departures: memplan's IR has no {@code MulShift} (requantisation ops are not modelled), so
 * that case never arises. Flatten counts as a Reshape: TPU-MLIR's {@code
 * FlattenOp::shape_inference} replaces it with one ({@code
 * lib/Dialect/Top/Interfaces/Flatten.cpp}). A BatchNormalization that the front end did not fold is
 * TPU-MLIR's Scale on BM1684 only ({@code core.frontend}); on the other chips it is taken as the
 * depthwise Conv that {@code ConvertScaleOp} makes of it on BM1684X, which is not in place (not
 * checked for the chips after BM1684X). Held buffers (weights resident over the loop, §2.8(d)) are
 * never paired, since they live in every row; TPU-MLIR splits the weight operands of the eltwise
 * ops instead of holding them.
 */
public final class InPlaceOps {
  private InPlaceOps() {}

  /** {@code isInplaceOp(op)} on {@code chip}. */
  public static boolean isInPlaceOp(Graph graph, Op op, Chip chip) {
    if (chip.isCv18xx() || op.inputs().isEmpty() || op.inputs().get(0).isEmpty()) {
      return false;
    }
    String in = op.inputs().get(0);
    if (uses(graph, in) > 1) {
      return false;
    }
    boolean flag =
        switch (op.kind()) {
          case ADD, SUB, MUL, DIV, MIN, MAX -> {
            List<String> ins = op.inputs();
            yield ins.size() <= 2 || new HashSet<>(ins).size() == ins.size();
          }
          case RESHAPE, FLATTEN -> true;
          case BATCH_NORMALIZATION ->
              chip.name().equals("bm1684") && graph.tensor(in).dtype() == DType.F32;
          default -> false;
        };
    return flag && graph.tensor(in).bytes() >= graph.tensor(op.outputs().get(0)).bytes();
  }

  /**
   * Number of uses of {@code tensor}: one per operand slot that reads it, one more if an output.
   */
  static long uses(Graph graph, String tensor) {
    long n = graph.outputs().contains(tensor) ? 1 : 0;
    for (Op c : graph.consumers(tensor)) {
      n += c.inputs().stream().filter(tensor::equals).count();
    }
    return n;
  }

  /**
   * The in-place pairs of a group: for each op of {@code ops} that {@link #isInPlaceOp}, the buffer
   * of operand 0 and the buffer of result 0, when both are among {@code buffers} (found by {@code
   * index}, tensor name to buffer) and {@link #valid} holds on {@code table}.
   */
  public static List<InPlace> pairs(
      Graph graph,
      List<Op> ops,
      Chip chip,
      Map<String, Integer> index,
      List<LmemBuffer> buffers,
      List<Timestep> table) {
    List<InPlace> out = new ArrayList<>();
    for (Op op : ops) {
      if (!isInPlaceOp(graph, op, chip)) {
        continue;
      }
      Integer in = index.get(op.inputs().get(0));
      Integer res = index.get(op.outputs().get(0));
      if (in != null && res != null) {
        InPlace p = new InPlace(in, res);
        if (valid(p, buffers, table)) {
          out.add(p);
        }
      }
    }
    return out;
  }

  /**
   * Whether the pair's lifetimes on {@code table} allow sharing ({@link InPlace#lifetimesAllow})
   * and the input is not stored in its last row ({@code need_store}).
   */
  public static boolean valid(InPlace p, List<LmemBuffer> buffers, List<Timestep> table) {
    LmemBuffer in = buffers.get(p.input());
    return InPlace.lifetimesAllow(in, buffers.get(p.output()))
        && !table.get(in.end()).gdma().contains(p.input());
  }

  /** The pairs of {@code pairs} still {@link #valid} on a table whose lifetimes have changed. */
  public static List<InPlace> keepValid(
      List<InPlace> pairs, List<LmemBuffer> buffers, List<Timestep> table) {
    Set<InPlace> seen = new HashSet<>();
    List<InPlace> out = new ArrayList<>();
    for (InPlace p : pairs) {
      if (seen.add(p) && valid(p, buffers, table)) {
        out.add(p);
      }
    }
    return out;
  }
}
