package io.github.memplan.core.frontend;

import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import java.util.List;

/**
 * The requant that ends an INT8 attention block on BM1684X: {@code lowering_multi_attention_int}
 * ({@code lib/Conversion/TopToTpu/BM1684X/Attention.cpp} at 0050c8e5e3) lowers each head to a
 * {@code tpu.Attention} with an INT32 result, sums the heads with INT32 Adds named {@code
 * <out>_attention_out_fuse_<i>} for {@code i = 1 .. head - 1}, and requantises the sum to INT8 with
 * one {@code tpu.RequantIntOp} ({@code do_requant} at the block's location, so it takes the block's
 * name). {@link AttentionFusion}, which runs before the precision is known, names the last Add (a
 * single head: the Attention) as the block and gives it the block's output; in INT8 this pass
 * renames that op {@code <out>_attention_out_fuse_<head - 1>} ({@code <out>_head_0} for a single
 * head) and adds the requant after it as a {@link OpKind#CAST} producing the block's output, which
 * {@link Lowering} then types INT8 (a Cast is local on BM1684X, as {@code RequantIntOp} is).
 *
 * <p>Departure: the requant's multiplier and shift are not recorded (memplan carries no tensor
 * data).
 */
final class AttentionRequant {
  private AttentionRequant() {}

  /** Attribute set to 1 on the inserted requant. */
  static final String REQUANT = "attention_requant";

  /** {@code graph} with a requant after every fused attention block; itself when it has none. */
  static Graph apply(Graph graph) {
    GraphRewrite rw = new GraphRewrite(graph);
    for (Op op : graph.ops()) {
      if (!isBlockPart(op) || feedsSum(graph, op)) {
        continue;
      }
      String out = op.outputs().get(0);
      String renamed =
          op.kind() == OpKind.ATTENTION
              ? op.name() + "_head_0"
              : op.name() + "_attention_out_fuse_" + addsBefore(graph, op);
      Op sum = new Op(renamed, op.kind(), op.attributes(), op.inputs(), List.of(renamed));
      Op requant =
          new Op(
              op.name(),
              OpKind.CAST,
              Attributes.builder()
                  .put("to", graph.tensor(out).dtype().onnxCode())
                  .put(REQUANT, 1)
                  .build(),
              List.of(renamed),
              List.of(out));
      rw.replace(op, List.of(sum, requant));
    }
    return rw.build();
  }

  /** A head of a fused block, or an Add summing heads. */
  private static boolean isBlockPart(Op op) {
    return op.kind() == OpKind.ATTENTION
        || (op.kind() == OpKind.ADD && op.attributes().getInt(AttentionFusion.FUSE, 0) != 0);
  }

  /**
   * Whether an Add summing heads reads {@code op}'s result (so {@code op} does not end a block).
   */
  private static boolean feedsSum(Graph graph, Op op) {
    for (Op user : graph.consumers(op.outputs().get(0))) {
      if (user.kind() == OpKind.ADD && user.attributes().getInt(AttentionFusion.FUSE, 0) != 0) {
        return true;
      }
    }
    return false;
  }

  /** The number of summing Adds up to and including {@code last}: {@code head - 1}. */
  private static int addsBefore(Graph graph, Op last) {
    int n = 0;
    Op at = last;
    while (at != null && at.kind() == OpKind.ADD) {
      n++;
      at = graph.producer(at.inputs().get(0)).orElse(null);
    }
    return n;
  }
}
