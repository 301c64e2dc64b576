package io.github.memplan.core.frontend;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Attr;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * ReLU fused into the op that produces its input: TPU-MLIR's canonicalization {@code TopFuseRelu}
 * ({@code lib/Dialect/Top/Canonicalize/Relu.cpp} at commit f3632a4c01). ReLU6 too: ONNX exports it
 * as {@code Clip(0, 6)}, which TPU-MLIR's ONNX front end turns into a ReLU with {@code relu_limit =
 * 6} ({@code python/transform/OnnxConverter.py}, {@code convert_clip_op}: {@code min == 0 and max >
 * min} gives {@code top.ReluOp(relu_limit = max, or 0.0 when max is infinite)}; index copy at
 * b7d7db7de8).
 *
 * <p>A ReLU (or such a Clip) is fused when
 *
 * <ul>
 *   <li>the op defining its input has one use (the ReLU; a graph output is a use),
 *   <li>that op has the trait {@code SupportFuseRelu} ({@code TopOps.td} at 0033e680e7: Conv,
 *       Deconv, the pools (Avg/MaxPool, which TPU-MLIR's global pools become), Add, Sub, Mul and
 *       their Const forms, MatMul (Gemm becomes one), BatchNorm and Scale, Reciprocal, Upsample,
 *       Einsum; a Div by or of a scalar constant, which becomes MulConst or Reciprocal; not another
 *       Div, Concat or the other activations),
 *   <li>and the ReLU's result is stored as F32 or F16.
 * </ul>
 *
 * The producer then gets {@code do_relu = 1} and {@code relu_limit} (the ReLU's, or the producer's
 * own when that is positive and smaller), takes the ReLU's name ({@code formerOp->setLoc(op
 * .getLoc())}) and defines the ReLU's output; the ReLU leaves the graph. Run to a fixed point, as
 * the greedy rewriter does, so ReLU after ReLU folds into one op.
 *
 * <p>Departures: producers with several results are left alone (TPU-MLIR tests result 0 only);
 * {@code TopMoveReluAheadConcatPattern} (a ReLU after a single-use Concat moved onto its inputs) is
 * not implemented; a Clip whose bounds are run-time inputs is not fused (their values are unknown).
 * The fused activation costs no TIU cycles in {@code core.group.RooflineCostModel}, as the conv,
 * eltwise and matmul instructions apply it on their results.
 */
final class FuseRelu implements FrontEndPass {
  /** memplan's kinds whose TPU-MLIR op has {@code SupportFuseRelu}. */
  static final Set<OpKind> SUPPORT_FUSE_RELU =
      EnumSet.of(
          OpKind.CONV,
          OpKind.CONV_TRANSPOSE,
          OpKind.MAX_POOL,
          OpKind.AVERAGE_POOL,
          OpKind.GLOBAL_AVERAGE_POOL,
          OpKind.GLOBAL_MAX_POOL,
          OpKind.ADD,
          OpKind.SUB,
          OpKind.MUL,
          OpKind.MAT_MUL,
          OpKind.GEMM,
          OpKind.BATCH_NORMALIZATION,
          OpKind.RECIPROCAL,
          OpKind.UPSAMPLE);

  @Override
  public Graph apply(Graph graph, Chip chip) {
    Graph g = graph;
    while (true) {
      Graph next = once(g);
      if (next == g) {
        return g;
      }
      g = next;
    }
  }

  private static Graph once(Graph graph) {
    GraphRewrite rw = new GraphRewrite(graph);
    for (Op relu : graph.ops()) {
      OptionalDouble limit = reluLimit(relu);
      if (limit.isEmpty() || relu.outputs().size() != 1) {
        continue;
      }
      Op former = graph.producer(relu.inputs().get(0)).orElse(null);
      if (former == null
          || rw.touched(former)
          || !Uses.hasOneUse(graph, former)
          || !supportsFuseRelu(graph, former)) {
        continue;
      }
      DType storage = graph.tensor(relu.outputs().get(0)).dtype();
      if (storage != DType.F32 && storage != DType.F16) {
        continue;
      }
      double reluLimit = limit.getAsDouble();
      double old = former.attributes().getFloat(FrontEnd.RELU_LIMIT, Double.NaN);
      if (!Double.isNaN(old) && old > 0 && reluLimit > old) {
        reluLimit = old;
      }
      Map<String, Attr> attrs = new LinkedHashMap<>(former.attributes().asMap());
      attrs.put(FrontEnd.DO_RELU, Attr.of(1L));
      attrs.put(FrontEnd.RELU_LIMIT, Attr.of(reluLimit));
      rw.replace(
          former,
          new Op(
              relu.name(), former.kind(), Attributes.of(attrs), former.inputs(), relu.outputs()));
      rw.remove(relu);
    }
    return rw.build();
  }

  /**
   * Whether {@code op}'s TPU-MLIR op has {@code SupportFuseRelu}: its kind is in {@link
   * #SUPPORT_FUSE_RELU}, or it is a Div with a one-element coefficient operand, which TPU-MLIR's
   * ONNX front end makes a MulConst (divisor constant) or a Reciprocal (dividend constant), both
   * with the trait ({@code OnnxConverter.py}, {@code convert_div_op}).
   */
  static boolean supportsFuseRelu(Graph graph, Op op) {
    if (SUPPORT_FUSE_RELU.contains(op.kind())) {
      return true;
    }
    if (op.kind() != OpKind.DIV || op.inputs().size() != 2) {
      return false;
    }
    for (String in : op.inputs()) {
      if (Uses.isWeight(graph, in) && graph.tensor(in).shape().elements() == 1) {
        return true;
      }
    }
    return false;
  }

  /**
   * The {@code relu_limit} of {@code op} as a TPU-MLIR ReLU: -1 (none) for Relu, the max for a Clip
   * to {@code [0, max]} with {@code max > 0} (0 when max is infinite); empty for anything else.
   */
  static OptionalDouble reluLimit(Op op) {
    if (op.kind() == OpKind.RELU && op.inputs().size() == 1) {
      return OptionalDouble.of(-1.0);
    }
    if (op.kind() != OpKind.CLIP || op.inputs().size() != 1) {
      return OptionalDouble.empty();
    }
    double min = op.attributes().getFloat("min", Double.NEGATIVE_INFINITY);
    double max = op.attributes().getFloat("max", Double.POSITIVE_INFINITY);
    if (min != 0.0 || !(max > min)) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(Double.isInfinite(max) ? 0.0 : max);
  }
}
