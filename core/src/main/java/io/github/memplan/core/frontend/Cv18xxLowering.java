package io.github.memplan.core.frontend;

import io.github.memplan.core.frontend.Lowering.Quantize;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Shape;
import java.util.List;
import java.util.Map;

/**
 * TPU-MLIR's per-op lowering for the CV18xx chips (cv180x, cv181x, cv182x, cv183x): the rule table
 * {@link Lowering} uses on them in BF16 and INT8 mode. TPU-MLIR lowers CV18xx models with its own
 * patterns ({@code lib/Conversion/TopToTpu/CV18xx/*.cpp}, namespace {@code cv18xx}), not with the
 * BM1684X ones; each op's {@code LoweringINT8} decides whether it goes to INT8 or falls back to its
 * {@code LoweringBF16}. CV18xx has no F32 or F16 TIU path: {@code TopLowering::matchAndRewrite}
 * ({@code include/tpu_mlir/Conversion/TopToTpu/TopLowering.h} at 016639d101) sends F16 to {@code
 * LoweringBF16} there, and every CV18XX {@code LoweringBF16} gives BF16, so in BF16 mode every op
 * is BF16.
 *
 * <p>In INT8 mode, per memplan op kind (the CV18XX file, the function, the commit it was read at):
 *
 * <ul>
 *   <li><b>LayerNormalization</b>: BF16 ({@code LayerNorm.cpp} at 81727c2e1a, {@code
 *       LayerNormLowering::LoweringINT8} calls {@code LoweringBF16}: a BF16 lookup-table rsqrt).
 *   <li><b>Softmax</b>: BF16 on every axis ({@code Softmax.cpp} at ca0304abe6, {@code
 *       SoftmaxLowering::LoweringINT8} calls {@code LoweringBF16}: BF16 exp and reciprocal tables).
 *   <li><b>MatMul, Gemm</b>: INT8 (INT8 filter, INT32 bias) when the right operand is a weight,
 *       else BF16 ({@code MatMul.cpp} at ca0304abe6, {@code MatMulLowering::LoweringINT8}: {@code
 *       !isa<top::WeightOp>(op.getRight().getDefiningOp())} calls {@code LoweringBF16}); so
 *       attention's QKᵀ and PV products are BF16. The ONNX front end makes a Gemm a MatMul ({@code
 *       python/transform/OnnxConverter.py} at 0033e680e7, {@code convert_gemm_op}).
 *   <li><b>Conv</b>: INT8, BF16 when its filter is not a weight or its kernel is 3-D ({@code
 *       Conv.cpp} at ca0304abe6, {@code ConvLowering::LoweringINT8}).
 *   <li><b>Add</b>: INT8 between two activations; BF16 with a weight operand ({@code Add.cpp} at
 *       ca0304abe6, {@code AddLowering::LoweringINT8}: {@code isQuantBF16WhenConst = true}). A
 *       scalar weight first becomes an AddConst ({@code lib/Dialect/Top/Canonicalize/Add.cpp} at
 *       915dfb445c, {@code AddToAddConst}) and then, on CV18xx, an Add with a one-element weight
 *       again ({@code lib/Dialect/Top/Transforms/ProcessorOptimize/OptimizeCV18XX.cpp} at
 *       25f817f945, {@code ConvertAddConstOp}, run by {@code --processor-top-optimize} just before
 *       lowering): BF16. A per-channel weight ({@code AddToScale}: equal ranks, {@code w[1] ==
 *       x[1]}, {@code |w| == x[1]}, shapes unequal) becomes a Scale, which CV18xx lowers as a
 *       depthwise Conv ({@code Scale.cpp} at e3df3f7d35, {@code ConvertToDw}): INT8, BF16 when the
 *       operands are 5-D (a 3-D kernel).
 *   <li><b>Sub</b>: a scalar weight minus a tensor is a SubConst ({@code convert_sub_op}), an INT8
 *       lookup table ({@code SubConst.cpp} at ca0304abe6); two activations give an INT8 Add with
 *       coefficients or an INT8 Sub ({@code OptimizeCV18XX.cpp}, {@code ConvertSubOp}; {@code
 *       Sub.cpp} at ca0304abe6); any other weight operand gives BF16 (a scalar subtrahend becomes
 *       an AddConst, then an Add with a weight, above; {@code SubLowering::LoweringINT8} falls back
 *       to BF16 for a weight operand).
 *   <li><b>Mul</b>: INT8 between two activations; with a scalar weight a MulConst ({@code
 *       lib/Dialect/Top/Canonicalize/Mul.cpp} at ca0304abe6, {@code MulToMulConst}), an INT8 lookup
 *       table ({@code MulConst.cpp} at ca0304abe6); with a per-channel weight on 4-D operands a
 *       Scale ({@code MulToScale}), INT8 as above; with any other weight BF16 ({@code Mul.cpp} at
 *       81727c2e1a, {@code MulLowering::LoweringINT8}: operand 1 without a calibrated type, as a
 *       weight has none, falls back to BF16).
 *   <li><b>Div</b>: INT8 when the divisor is a weight (a MulConst: {@code convert_div_op}, and
 *       {@code OptimizeCV18XX.cpp}, {@code ConvertDivOp}) or the dividend a scalar weight (a
 *       Reciprocal with {@code const_val}, an INT8 table, {@code Reciprocal.cpp} at ca0304abe6);
 *       BF16 when the divisor is an activation ({@code ConvertDivOp} makes an uncalibrated
 *       Reciprocal and a Mul reading it, both of which {@code ReciprocalLowering::LoweringINT8} and
 *       {@code MulLowering::LoweringINT8} send to BF16).
 *   <li><b>Concat</b>: INT8, BF16 with a weight operand ({@code Concat.cpp} at ca0304abe6, {@code
 *       ConcatLowering::LoweringINT8}); it does not take its inputs' type.
 *   <li><b>Gather</b>: BF16 when it reads a table that is a weight, as an embedding does ({@code
 *       Gather.cpp} at ca0304abe6, {@code GatherLowering::LoweringINT8} calls {@code LoweringBF16},
 *       a CPU {@code embedding} op); a Gather of an activation at constant indices is a Slice
 *       ({@code OptimizeCV18XX.cpp}, {@code ConvertGatherOp}), INT8 as below.
 *   <li><b>Transpose, Slice, Split, Pad</b>: INT8 whatever their input's type, as their lowering
 *       quantizes the result ({@code lowering_common_int8}: {@code Permute.cpp} at 81727c2e1a,
 *       {@code Slice.cpp} at ca0304abe6, {@code Pad.cpp} at 5b899f571f; a Split becomes Slices,
 *       {@code lib/Dialect/Top/Canonicalize/Split.cpp} at c755a68c06, {@code SplitToSlice}).
 *   <li><b>Reshape, Flatten, Squeeze, Unsqueeze, Tile, Expand, Identity</b>: the type of their data
 *       input, INT8 when that is the graph input: after lowering, {@code
 *       ForwardTypePattern<tpu::ReshapeOp>} (and Unsqueeze, Squeeze, Tile) gives the result its
 *       input's element type except after an {@code InputOp} on CV18xx ({@code
 *       lib/Conversion/TopToTpu/TopToTpuPass.cpp} at 00b7154c8f, {@code
 *       ConvertTopToTpu::runOnOperation}); Squeeze and Unsqueeze become Reshapes ({@code
 *       OptimizeCV18XX.cpp}, {@code ConvertPattern}), an Expand a Tile ({@code
 *       lib/Dialect/Top/Canonicalize/Expand.cpp} at c755a68c06, {@code ConvertExpand}), an Identity
 *       is dropped ({@code convert_skip_op}).
 *   <li><b>AveragePool, GlobalAveragePool</b>: INT8, BF16 on a 5-D input (a 3-D kernel: {@code
 *       AvgPool.cpp} at ca0304abe6, {@code AvgPoolLowering::LoweringINT8}).
 *   <li><b>ReduceL2</b>: BF16; the other reductions INT8 ({@code Reduce.cpp} at 93a14bac28, {@code
 *       ReduceLowering::LoweringINT8}).
 *   <li><b>Every other op</b> INT8, among them those the zoo uses: GELU, Sigmoid, SiLU, Tanh and
 *       Pow as INT8 lookup tables ({@code tpu::LutOp}: {@code GELU.cpp} at 784aa6b5fc, {@code
 *       Sigmoid.cpp} at 8031d53684, {@code SiLU.cpp} at ca0304abe6, {@code Tanh.cpp} at ca0304abe6,
 *       {@code Pow.cpp} at ca0304abe6; a Pow by 2 is a Mul of two activations, {@code
 *       convert_pow_op}), LeakyRelu ({@code LeakyRelu.cpp} at dbd873f1c3), MaxPool ({@code
 *       MaxPool.cpp} at 119d682809), Resize (a nearest Interp by an integer factor becomes an
 *       Upsample and then a Deconv, {@code ConvertInterpOp} and {@code ConvertUpsampleOp}; {@code
 *       Deconv.cpp} at e0e6619ff7).
 * </ul>
 *
 * <p>Departures: TPU-MLIR rewrites a Div by an activation into a Reciprocal and a Mul, a Sub into
 * an Add with coefficients, a Mul or Add by a per-channel weight into a depthwise Conv; memplan
 * keeps the one op with the dtype the rewrite gets. memplan's constants carry no values, so a Pow
 * is taken as TPU-MLIR's INT8 lookup table whatever its exponent (a Pow by 2, a Mul, is INT8 too),
 * and the constant indices of a Gather of an activation as a Slice (TPU-MLIR makes a Slice of one
 * index or an arithmetic progression only). The ONNX front end drops a Cast of an activation
 * ({@code convert_cast_op}); memplan keeps its Cast ops, INT8 (no CV18XX file decides them). The
 * lowering of ops the zoo does not use (LSTM, GRU, the detection and ROI ops, ...) was not read;
 * they are INT8. Calibration-dependent cases are not modelled (no {@code --quantize_table}, no
 * uint8 [0, 255] Slice or Reshape of {@code fuse_preprocess}).
 */
final class Cv18xxLowering {
  private Cv18xxLowering() {}

  /**
   * The dtype of {@code op} on a CV18xx chip in BF16 or INT8 mode (see the class comment); {@code
   * lowered} holds the types of the tensors lowered so far.
   */
  static DType opDType(Graph graph, Op op, Quantize quantize, Map<String, DType> lowered) {
    if (quantize != Quantize.INT8) {
      return DType.BF16;
    }
    List<String> in = op.inputs();
    return switch (op.kind()) {
      case LAYER_NORMALIZATION, SOFTMAX, REDUCE_L2 -> DType.BF16;
      case MAT_MUL, GEMM -> int8If(Lowering.isStored(graph, in.get(1)));
      case CONV -> int8If(Lowering.isStored(graph, in.get(1)) && rank(graph, in.get(0)) <= 4);
      case AVERAGE_POOL, GLOBAL_AVERAGE_POOL -> int8If(rank(graph, in.get(0)) <= 4);
      case ADD -> add(graph, op);
      case SUB -> sub(graph, op);
      case MUL -> mul(graph, op);
      case DIV -> int8If(Lowering.isStored(graph, in.get(1)) || isStoredScalar(graph, in.get(0)));
      case CONCAT -> int8If(in.stream().noneMatch(t -> Lowering.isStored(graph, t)));
      case GATHER ->
          int8If(!Lowering.isStored(graph, in.get(0)) && Lowering.isStored(graph, in.get(1)));
      case TRANSPOSE, SLICE, SPLIT, PAD -> DType.I8;
      case RESHAPE, FLATTEN, SQUEEZE, UNSQUEEZE, TILE, EXPAND, IDENTITY ->
          Lowering.inputType(graph, op, DType.I8, lowered);
      default -> DType.I8;
    };
  }

  private static DType int8If(boolean int8) {
    return int8 ? DType.I8 : DType.BF16;
  }

  private static int rank(Graph graph, String tensor) {
    return graph.tensor(tensor).shape().rank();
  }

  private static boolean isStoredScalar(Graph graph, String tensor) {
    return Lowering.isStored(graph, tensor) && graph.tensor(tensor).shape().elements() == 1;
  }

  /** The stored operand of a binary op (the second when both are), or null. */
  private static String storedOperand(Graph graph, Op op) {
    String stored = null;
    for (String t : op.inputs()) {
      if (Lowering.isStored(graph, t)) {
        stored = t;
      }
    }
    return stored;
  }

  private static String other(Op op, String tensor) {
    return op.inputs().get(0).equals(tensor) ? op.inputs().get(1) : op.inputs().get(0);
  }

  /** AddLowering: INT8 between activations, a per-channel weight a Scale, another weight BF16. */
  private static DType add(Graph graph, Op op) {
    String w = storedOperand(graph, op);
    if (w == null) {
      return DType.I8;
    }
    Shape x = graph.tensor(other(op, w)).shape();
    Shape s = graph.tensor(w).shape();
    boolean toScale =
        s.elements() > 1
            && x.rank() >= 2
            && x.rank() == s.rank()
            && !x.equals(s)
            && s.dim(1) == x.dim(1)
            && s.elements() == x.dim(1);
    return int8If(toScale && x.rank() <= 4);
  }

  /** A SubConst (scalar weight minus a tensor) or two activations INT8, another weight BF16. */
  private static DType sub(Graph graph, Op op) {
    String w = storedOperand(graph, op);
    return int8If(w == null || (w.equals(op.inputs().get(0)) && isStoredScalar(graph, w)));
  }

  /** MulLowering: INT8 between activations, by a MulConst or a Scale; by another weight BF16. */
  private static DType mul(Graph graph, Op op) {
    String w = storedOperand(graph, op);
    if (w == null || graph.tensor(w).shape().elements() == 1) {
      return DType.I8;
    }
    Shape x = graph.tensor(other(op, w)).shape();
    Shape s = graph.tensor(w).shape();
    boolean toScale =
        x.rank() == 4 && s.rank() == 4 && s.dim(1) == x.dim(1) && s.elements() == x.dim(1);
    return int8If(toScale);
  }
}
