package io.github.memplan.core.frontend;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Attr;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * BatchNorm folded into the Conv before it: TPU-MLIR's {@code TopBatchNormToScale} (BatchNorm
 * becomes a Scale with {@code scale = gamma / sqrt(var + eps)}, {@code bias = beta - mean · scale};
 * {@code lib/Dialect/Top/Canonicalize/BatchNorm.cpp} at commit ca0304abe6) followed by {@code
 * MergeScale2Conv} (the Scale is merged into the Conv: filter × scale per output channel, conv bias
 * × scale + scale bias, the Scale's {@code do_relu}/{@code relu_limit} move to the Conv, the Conv
 * takes the Scale's name; {@code lib/Dialect/Top/Transforms/ProcessorOptimize/Common.cpp} at commit
 * 1299aa25b1, registered for BM1684X in {@code OptimizeBM1684X.cpp} at 0446572f56 and for CV18xx in
 * {@code OptimizeCV18XX.cpp}). The older canonicalization {@code TopScaleMergeToConv} ({@code
 * Canonicalize/Scale.cpp} at 07eb769c7f) had the same conditions.
 *
 * <p>The merge applies when the BatchNorm's input is the result of a {@code Conv} that
 *
 * <ul>
 *   <li>has one use (the BatchNorm; a graph output is a use),
 *   <li>has no fused activation ({@code do_relu} unset),
 *   <li>reads its filter, and its bias if it has one, from coefficients;
 * </ul>
 *
 * and the BatchNorm's mean and variance are coefficients (TPU-MLIR casts them to {@code WeightOp})
 * and it has a single output. The folded op is a {@code Conv} named after the BatchNorm, defining
 * the BatchNorm's output, with the Conv's attributes and inputs; its bias is the Conv's own
 * (updated in place, as {@code cBiasOp.update}) or, when it had none, the BatchNorm's {@code B}
 * tensor, which carries the folded bias (TPU-MLIR creates a weight of the same shape, named after
 * the Scale's bias). The BatchNorm's scale, mean and variance leave the graph; the filter keeps its
 * name and shape (updated in place, {@code filterOp.update}).
 *
 * <p>On BM1684 the pass does nothing: {@code MergeScale2Conv} is not among BM1684's
 * processor-optimize patterns, so there the BatchNorm reaches LayerGroup as a Scale (a ReLU after
 * it is fused into it, see {@link FuseRelu}).
 *
 * <p>Departures: memplan has no weight values, so nothing is computed, only the graph's shape
 * changes; a BatchNorm that is not folded stays a BatchNorm, where TPU-MLIR makes it a Scale (and
 * on BM1684X and CV18xx then a depthwise 1x1 Conv, {@code ConvertScaleOp}): one op either way.
 */
final class BatchNormToConv implements FrontEndPass {
  @Override
  public Graph apply(Graph graph, Chip chip) {
    if (!mergesScaleIntoConv(chip)) {
      return graph;
    }
    GraphRewrite rw = new GraphRewrite(graph);
    for (Op bn : graph.ops()) {
      if (bn.kind() != OpKind.BATCH_NORMALIZATION || bn.outputs().size() != 1) {
        continue;
      }
      List<String> in = bn.inputs();
      if (in.size() != 5 || !Uses.isWeight(graph, in.get(3)) || !Uses.isWeight(graph, in.get(4))) {
        continue;
      }
      Op conv = graph.producer(in.get(0)).orElse(null);
      if (conv == null
          || conv.kind() != OpKind.CONV
          || rw.touched(conv)
          || !Uses.hasOneUse(graph, conv)
          || FrontEnd.doRelu(conv)
          || !Uses.isWeight(graph, conv.inputs().get(1))
          || (conv.inputs().size() > 2 && !Uses.isWeight(graph, conv.inputs().get(2)))
          || !Uses.isWeight(graph, in.get(2))) {
        continue;
      }
      List<String> inputs = new ArrayList<>(conv.inputs().subList(0, 2));
      inputs.add(conv.inputs().size() > 2 ? conv.inputs().get(2) : in.get(2));
      Map<String, Attr> attrs = new LinkedHashMap<>(conv.attributes().asMap());
      bn.attributes().get(FrontEnd.DO_RELU).ifPresent(a -> attrs.put(FrontEnd.DO_RELU, a));
      bn.attributes().get(FrontEnd.RELU_LIMIT).ifPresent(a -> attrs.put(FrontEnd.RELU_LIMIT, a));
      rw.replace(conv, new Op(bn.name(), OpKind.CONV, Attributes.of(attrs), inputs, bn.outputs()));
      rw.remove(bn);
      for (int k = 1; k < in.size(); k++) {
        rw.dropIfUnused(in.get(k));
      }
    }
    return rw.build();
  }

  /**
   * Whether TPU-MLIR's processor-optimize pass merges Scale into Conv on {@code chip}: {@code
   * MergeScale2Conv} is in the BM1684X pattern list (every BM168x-style chip but BM1684) and the
   * CV18xx list, not in BM1684's ({@code OptimizeBM1684.cpp} at 454a0a5c5a registers only
   * Squeeze/Unsqueeze to Reshape, ConvertMultiInputAdd, ConcatToSwapDimInner and
   * NoneZeroFixRowMajor).
   */
  static boolean mergesScaleIntoConv(Chip chip) {
    return !chip.name().equals("bm1684");
  }
}
