package io.github.memplan.core.frontend;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * MatMul + Add(weight) becomes one MatMul with a bias: TPU-MLIR's canonicalization {@code
 * MatMulWithBias} ({@code lib/Dialect/Top/Canonicalize/MatMul.cpp} at commit 009410603c, first in
 * {@code MatMulOp::getCanonicalizationPatterns}). This is how an exported linear layer on 3-D
 * activations (ONNX MatMul then a separate bias Add, as BERT and ViT export) reaches LayerGroup as
 * one op.
 *
 * <p>It applies to a {@code MatMul} that
 *
 * <ul>
 *   <li>reads its right operand from a coefficient ({@code module::isWeight(filter)}),
 *   <li>has no bias yet,
 *   <li>has one use, an {@code Add} of exactly two operands, one of which is a coefficient (the
 *       first such operand is the bias),
 *   <li>is not a batched product ({@code p.batch > 1} fails: here, a right operand of rank above 2
 *       whose leading dims multiply to more than 1),
 *   <li>and the bias has as many elements as the output's last dim N.
 * </ul>
 *
 * The result is the MatMul with the bias as its third input, named after the Add and defining the
 * Add's output ({@code op->setLoc(add_op.getLoc())}). Gemm already carries its bias (TPU-MLIR
 * converts it to a MatMul with bias) and is left alone.
 */
final class MatMulWithBias implements FrontEndPass {
  @Override
  public Graph apply(Graph graph, Chip chip) {
    GraphRewrite rw = new GraphRewrite(graph);
    for (Op mm : graph.ops()) {
      if (mm.kind() != OpKind.MAT_MUL
          || mm.inputs().size() != 2
          || !Uses.isWeight(graph, mm.inputs().get(1))
          || !Uses.hasOneUse(graph, mm)) {
        continue;
      }
      Op add = Uses.onlyUser(graph, mm);
      if (add == null || add.kind() != OpKind.ADD || add.inputs().size() != 2 || rw.touched(add)) {
        continue;
      }
      String bias = null;
      for (String v : add.inputs()) {
        if (Uses.isWeight(graph, v)) {
          bias = v;
          break;
        }
      }
      if (bias == null || batch(graph.tensor(mm.inputs().get(1)).shape()) > 1) {
        continue;
      }
      Shape out = graph.tensor(mm.outputs().get(0)).shape();
      long n = out.rank() == 0 ? 1 : out.dim(-1);
      if (graph.tensor(bias).shape().elements() != n) {
        continue;
      }
      List<String> inputs = new ArrayList<>(mm.inputs());
      inputs.add(bias);
      rw.replace(mm, new Op(add.name(), OpKind.MAT_MUL, mm.attributes(), inputs, add.outputs()));
      rw.remove(add);
    }
    return rw.build();
  }

  /** The batch of TPU-MLIR's MatMul parameters for a coefficient right operand. */
  private static long batch(Shape right) {
    long b = 1;
    for (int i = 0; i < right.rank() - 2; i++) {
      b *= right.dim(i);
    }
    return b;
  }
}
