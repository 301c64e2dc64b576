package io.github.memplan.core.frontend;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import java.util.List;

/** MLIR's use counts on a memplan graph, as TPU-MLIR's patterns test them ({@code hasOneUse}). */
final class Uses {
  private Uses() {}

  /**
   * The uses of {@code tensor}: one per operand slot that reads it (an op reading it twice uses it
   * twice), and one more when it is a graph output (the function's return op uses it in MLIR).
   */
  static int of(Graph graph, String tensor) {
    int n = graph.outputs().contains(tensor) ? 1 : 0;
    for (Op op : graph.consumers(tensor)) {
      for (String in : op.inputs()) {
        if (in.equals(tensor)) {
          n++;
        }
      }
    }
    return n;
  }

  /** {@code hasOneUse} of {@code op}'s only result: false too for ops with several results. */
  static boolean hasOneUse(Graph graph, Op op) {
    return op.outputs().size() == 1 && of(graph, op.outputs().get(0)) == 1;
  }

  /** Whether {@code tensor} is a coefficient (TPU-MLIR's {@code top.WeightOp}). */
  static boolean isWeight(Graph graph, String tensor) {
    return !tensor.isEmpty() && graph.tensor(tensor).role().isStored();
  }

  /**
   * The single op reading {@code op}'s only result (call after {@link #hasOneUse}); null when the
   * one use is the graph's output.
   */
  static Op onlyUser(Graph graph, Op op) {
    List<Op> users = graph.consumers(op.outputs().get(0));
    return users.isEmpty() ? null : users.get(0);
  }
}
