package io.github.memplan.core.ir;

/**
 * Multiply-accumulate counts, as papers report them ("MACs", "MAdds"): convolutions, transposed
 * convolutions, matrix products (their integer forms ConvInteger and MatMulInteger too) and the
 * gate products of LSTMs only. Elementwise ops, normalisation, pooling, softmax and the LSTM's gate
 * nonlinearities and cell updates count nothing, following the convention of the ResNet, MobileNet
 * and ViT papers' tables.
 */
public final class Macs {
  private Macs() {}

  /** The MACs of one op of {@code graph}. */
  public static long of(Graph graph, Op op) {
    return switch (op.kind()) {
      case CONV, CONV_INTEGER -> {
        Shape out = graph.tensor(op.outputs().get(0)).shape();
        Shape w = graph.tensor(op.inputs().get(1)).shape();
        // out elements x (C/group x kernel area)
        long perOutput = 1;
        for (int i = 1; i < w.rank(); i++) {
          perOutput = Math.multiplyExact(perOutput, w.dim(i));
        }
        yield Math.multiplyExact(out.elements(), perOutput);
      }
      case CONV_TRANSPOSE -> {
        // every input element is scattered through (M/group x kernel area) weights
        Shape in = graph.tensor(op.inputs().get(0)).shape();
        Shape w = graph.tensor(op.inputs().get(1)).shape();
        long perInput = 1;
        for (int i = 1; i < w.rank(); i++) {
          perInput = Math.multiplyExact(perInput, w.dim(i));
        }
        yield Math.multiplyExact(in.elements(), perInput);
      }
      case MAT_MUL, GEMM, MAT_MUL_INTEGER -> {
        // out elements x reduction length
        Shape a = graph.tensor(op.inputs().get(0)).shape();
        Shape out = graph.tensor(op.outputs().get(0)).shape();
        boolean transA = op.kind() == OpKind.GEMM && op.attributes().getInt("transA", 0) != 0;
        long k = a.rank() == 0 ? 1 : (transA ? a.dim(0) : a.dim(-1));
        yield Math.multiplyExact(out.elements(), k);
      }
      case ATTENTION -> {
        // one head: the q, k, v projections (M·N·d each), Q·K^T and P·V (M·M·d each), the output
        // projection (M·d·N_out), per batch row; keys and values are the input (self-attention)
        int[] at = ShapeInference.attentionOperands(op.attributes());
        Shape x = graph.tensor(op.inputs().get(0)).shape();
        Shape wo = graph.tensor(op.inputs().get(at[7])).shape();
        long m = x.dim(-2);
        long rows = x.elements() / x.dim(-1);
        long d = wo.dim(0);
        long perRow =
            Math.addExact(
                Math.addExact(
                    Math.multiplyExact(3, Math.multiplyExact(x.dim(-1), d)),
                    Math.multiplyExact(2, Math.multiplyExact(m, d))),
                Math.multiplyExact(d, wo.dim(1)));
        yield Math.multiplyExact(rows, perRow);
      }
      case LSTM -> {
        // per time step, batch row and direction: the four gates' W x_t and R h_{t-1}
        Shape x = graph.tensor(op.inputs().get(0)).shape();
        Shape w = graph.tensor(op.inputs().get(1)).shape();
        Shape r = graph.tensor(op.inputs().get(2)).shape();
        long steps = Math.multiplyExact(x.dim(0), x.dim(1));
        long perStep = Math.multiplyExact(w.dim(1), Math.addExact(w.dim(2), r.dim(2)));
        yield Math.multiplyExact(Math.multiplyExact(steps, w.dim(0)), perStep);
      }
      default -> 0L;
    };
  }

  /** The MACs of every op of {@code graph}. */
  public static long of(Graph graph) {
    long total = 0;
    for (Op op : graph.ops()) {
      total = Math.addExact(total, of(graph, op));
    }
    return total;
  }
}
