package io.github.memplan.core.frontend;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.frontend.Lowering.Quantize;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import io.github.memplan.core.ir.Tensor;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * TPU-MLIR's per-op lowering for the BM168x chips (bm1684x, bm1688, bm1690, bm1690e, bm1684x2,
 * sg2380, cv184x, sgtpuv8, and bm1684 by default): the rule table {@link Lowering} uses on them in
 * BF16, F16 and INT8 mode. TPU-MLIR lowers the BM1684X and BM1690 families with the patterns of
 * {@code lib/Conversion/TopToTpu/BM1684X/*.cpp} (namespace {@code bm1684x}); each op's {@code
 * LoweringINT8}, {@code LoweringBF16} and {@code LoweringF16} pick its type, often by calling
 * another mode's lowering. {@code TopLowering::matchAndRewrite} dispatches on {@code
 * getOpQuantMode} ({@code include/tpu_mlir/Conversion/TopToTpu/TopLowering.h} at c935aaf49c), which
 * sends F16 to {@code LoweringBF16} on MARS3 (memplan's cv184x): there every op of an F16 plan is
 * lowered as in BF16 mode.
 *
 * <p>Per memplan op kind (the BM1684X file, the function, the commit it was read at). "BF16 chips"
 * are MARS3 and SGTPUV8 (cv184x, sgtpuv8), where many fallbacks take {@code lowering_common_bf16}
 * instead of F16 or F32; bm1688 is TPU-MLIR's {@code isBM1688()}, bm1690 its {@code
 * isBM1690Family()} ({@code lib/Support/Module.cpp} at c611a10ebe: BM1690 only, so bm1690e and
 * bm1684x2 are outside it), bm1684x its {@code isBM1684X()}.
 *
 * <ul>
 *   <li><b>Reshape, Flatten, Squeeze, Unsqueeze, Tile, Expand, Identity</b>: the element type of
 *       their data input, F32 when that is the graph input: after the lowering patterns, {@code
 *       ForwardTypePattern<tpu::ReshapeOp>} (and Unsqueeze, Squeeze, Tile) gives the result its
 *       input's element type, after an {@code InputOp} too except on CV18xx ({@code
 *       lib/Conversion/TopToTpu/TopToTpuPass.cpp} at 00b7154c8f, {@code
 *       ConvertTopToTpu::runOnOperation}); the input's type is still F32 then ({@code cast_process}
 *       casts it afterwards). A Flatten becomes a Reshape ({@code
 *       lib/Dialect/Top/Interfaces/Flatten.cpp} at e9e119e20b, {@code FlattenOp::shape_inference}),
 *       an Expand a Tile ({@code lib/Dialect/Top/Canonicalize/Expand.cpp} at c755a68c06, {@code
 *       ConvertExpand}); an Identity is dropped ({@code python/transform/OnnxConverter.py} at
 *       b7d7db7de8, {@code convert_skip_op}).
 *   <li><b>Transpose, Slice, Split, Pad, DepthToSpace</b>: the mode's type whatever their input's:
 *       {@code lowering_common_int8/bf16/f16} ({@code Permute.cpp} at 7fae13f11d, {@code Slice.cpp}
 *       at ca0304abe6, {@code Pad.cpp} at fe451dfe7b, {@code Depth2Space.cpp} at 7fae13f11d; a
 *       Split becomes Slices, {@code lib/Dialect/Top/Canonicalize/Split.cpp} at c755a68c06, {@code
 *       SplitToSlice}).
 *   <li><b>Concat</b>: the mode's type; in INT8 F16 (BF16 on the BF16 chips) when an operand is a
 *       weight ({@code Concat.cpp} at d50059d620, {@code ConcatLowering::LoweringINT8} calls {@code
 *       LoweringF16}).
 *   <li><b>Gather</b>: in INT8 F16 (BF16 on the BF16 chips: {@code Gather.cpp} at d50059d620,
 *       {@code GatherLowering::LoweringINT8}), so an embedding lookup is F16; BF16 and F16 in those
 *       modes. A Gather at one constant index, or at a constant 1-D index list, is a Slice ({@code
 *       lib/Dialect/Top/Canonicalize/Gather.cpp} at 2e9be93b1a, {@code TopGatherToSlice}), the
 *       mode's type (BERT's first-token pooler, ViT's class token).
 *   <li><b>Conv</b>: the mode's type; in INT8 F32 (BF16 on the BF16 chips) when the filter is not a
 *       weight ({@code Conv.cpp} at 7fae13f11d, {@code ConvLowering::LoweringINT8}).
 *       <b>ConvTranspose</b>: in INT8 BF16 on the BF16 chips, F32 when the filter is not a weight,
 *       else INT8; in BF16 and F16 F32 when the filter is not a weight ({@code Deconv.cpp} at
 *       f3632a4c01).
 *   <li><b>MatMul, Gemm</b>: INT8 (INT8 filter, INT32 bias), F16 (BF16 on the BF16 chips) when the
 *       left operand is a weight ({@code MatMul.cpp} at 7fae13f11d, {@code
 *       MatMulLowering::LoweringINT8}); the mode's type in BF16 and F16.
 *   <li><b>LayerNormalization</b>: in INT8 F16 (BF16 on the BF16 chips); in BF16 F32 on bm1688 and
 *       sg2380 ({@code LayerNorm.cpp} at 7fae13f11d).
 *   <li><b>Softmax</b>: in INT8 INT8 only on axis 1 of a tensor of rank at most 4, else as in F16
 *       (BF16 on the BF16 chips); in BF16 and F16 F32 (BF16 on the BF16 chips, {@code LoweringF32})
 *       when the axis is longer than {@code LMEM_BANK_BYTES / 2} ({@code Softmax.cpp} at
 *       d50059d620, {@code axis_dim_too_large}).
 *   <li><b>AveragePool, GlobalAveragePool</b>: INT8 and BF16 in those modes; in F16 F32 ({@code
 *       AvgPool.cpp} at f3632a4c01, {@code AvgPoolLowering::LoweringF16} calls {@code
 *       LoweringF32}). The ONNX converter makes a GlobalAveragePool an AvgPool ({@code
 *       convert_global_avgpool_op}), not adaptive.
 *   <li><b>ReduceMean, ReduceMax, ReduceSum, ...</b>: in INT8 F16 (BF16 on the BF16 chips: {@code
 *       Reduce.cpp} at d50059d620, {@code ReduceLowering::LoweringINT8} calls {@code LoweringF16});
 *       except that a ReduceMean or ReduceMax of a 4-D tensor over its last two axes is an AvgPool
 *       or MaxPool, and a reduction that keeps the element count a Reshape ({@code
 *       lib/Dialect/Top/Canonicalize/Reduce.cpp} at c755a68c06, {@code ReduceToRPoolPattern},
 *       {@code ReduceToReshapePattern}).
 *   <li><b>GELU</b>: an INT8 lookup table; in BF16 and F16 F32 on bm1684x ({@code GELU.cpp} at
 *       16232af4db, {@code isBM1684X()}).
 *   <li><b>Sigmoid, Sqrt</b>: INT8 lookup tables; in BF16 and F16 F32, BF16 on the BF16 chips
 *       ({@code Sigmoid.cpp} at d50059d620, {@code Sqrt.cpp} at f3632a4c01).
 *   <li><b>SiLU</b>: an INT8 lookup table; in BF16 BF16 on bm1690 and the BF16 chips, else F32; in
 *       F16 F16 on bm1690, else {@code LoweringF32}: BF16 on the BF16 chips, else F32 ({@code
 *       SiLU.cpp} at 7fae13f11d).
 *   <li><b>Tanh</b>: an INT8 lookup table; in BF16 F32 (BF16 on the BF16 chips), in F16 F32 ({@code
 *       Tanh.cpp} at f3632a4c01).
 *   <li><b>HardSigmoid</b>: INT8 and BF16; in F16 F32 ({@code HardSigmoid.cpp} at ca0304abe6).
 *   <li><b>Div</b>: by a scalar weight a MulConst ({@code convert_div_op}), the mode's type ({@code
 *       MulConst.cpp} at ca0304abe6); a scalar weight divided by a tensor a Reciprocal, an INT8
 *       lookup table, in BF16 F32 (BF16 on cv184x), in F16 F32 ({@code Reciprocal.cpp} at
 *       1f3b1a6a6b), as is a Reciprocal; otherwise, in INT8 F32 (BF16 on the BF16 chips), in BF16
 *       F32 except BF16 on bm1688, sg2380 and the BF16 chips, in F16 F32 except F16 on bm1688 and
 *       sg2380 and BF16 on the BF16 chips ({@code Div.cpp} at f3632a4c01).
 *   <li><b>Clip</b>: a Clip to {@code [0, max]} is a ReLU ({@code convert_clip_op}), INT8 ({@code
 *       Relu.cpp} at ca0304abe6); any other Clip in INT8 F16 (BF16 on cv184x: {@code Clip.cpp} at
 *       b5571f488d, {@code ClipLowering::LoweringINT8}).
 *   <li><b>Resize</b>: the ONNX converter makes an Interp ({@code convert_resize_op}); a nearest
 *       one with one use whose H and W grow by one integer factor becomes an Upsample ({@code
 *       lib/Dialect/Top/Canonicalize/Interp.cpp} at ca0304abe6, {@code
 *       InterpToUpsampleMergePattern}), the mode's type ({@code Upsample.cpp} at 7fae13f11d);
 *       another Interp in INT8 F16 (BF16 on cv184x: {@code Interp.cpp} at 74242439e0).
 *   <li><b>LSTM</b>: F32 in every mode ({@code LSTM.cpp} at ca0304abe6).
 *   <li><b>Every other op</b> in the mode's type, among them those the zoo uses whose lowering was
 *       read: Add (two activations, or an activation and a weight quantised to INT8: {@code
 *       Add.cpp} at ca0304abe6), Sub and SubConst ({@code Sub.cpp}, {@code SubConst.cpp} at
 *       ca0304abe6; the converter makes a Sub from a scalar a SubConst and a Sub of a scalar an
 *       AddConst, {@code AddConst.cpp} at c935aaf49c), Mul ({@code Mul.cpp} at e2f5527a81) and
 *       MulConst (a Mul by a scalar, or a Neg), Pow (see below), LeakyRelu ({@code LeakyRelu.cpp}
 *       at ca0304abe6), Relu, HardSwish ({@code HardSwish.cpp} at ca0304abe6), Abs, Exp, Max, Min
 *       ({@code Abs.cpp}, {@code Exp.cpp}, {@code Max.cpp}, {@code Min.cpp} at ca0304abe6), Log
 *       ({@code Log.cpp} at 32a2ef6a05), MaxPool ({@code MaxPool.cpp} at ca0304abe6),
 *       BatchNormalization (a Scale, {@code Scale.cpp} at ca0304abe6); INT8 in INT8 mode, as
 *       TPU-MLIR's symmetric INT8 quantises them.
 * </ul>
 *
 * <p>Departures: memplan's constants carry no values, so a Pow is taken as the zoo's Pow by 2,
 * which the ONNX converter makes a Mul of the input by itself ({@code convert_pow_op}: the mode's
 * type; TPU-MLIR's {@code PowOp}, for another exponent, is F32 in BF16 and F16), the constant
 * indices of a 1-D Gather as an arithmetic progression (a Slice), a MulConst's constant as within
 * F16 and BF16 range ({@code MulConstLowering} falls back to F32 beyond it), and a Clip as a ReLU
 * only when its bounds are attributes. TPU-MLIR folds a Slice of a weight into a weight; memplan
 * keeps the op, in the mode's type. A 3-D Conv or ConvTranspose in INT8 is an INT32 op followed by
 * a requant in TPU-MLIR; memplan keeps one INT8 op. The ONNX converter drops a Cast of an
 * activation ({@code convert_cast_op}); memplan keeps its Cast ops, in the mode's type (as the INT8
 * requant of {@link AttentionRequant}). The bias of a BF16 or F16 Conv, and of a MatMul off bm1684x
 * and bm1690, stays F32 in TPU-MLIR ({@code ConvLowering::LoweringF16}, {@code
 * MatMulLowering::LoweringF16}, {@code bias_use_fp32}); memplan gives it the op's type. The
 * lowering of ops the zoo does not use, of the integer ops (Compare, ArgMax) and of memplan's
 * mappings of the ONNX quantisation ops (DynamicQuantizeLinear, DequantizeLinear, ConvInteger,
 * MatMulInteger) was not read or does not apply; they take the mode's type. Calibration-dependent
 * cases are not modelled: asymmetric INT8 (AvgPool's, LeakyRelu's, AddConst's and MatMul's F16 or
 * F32 fallbacks), {@code --quantize_table}, the {@code output_int16} Conv and MatMul before an F16
 * Add, a Compare whose operands' scales differ (F32). BM1684's own directory ({@code
 * lib/Conversion/TopToTpu/BM1684/}) is not followed: bm1684 takes these rules.
 */
final class Bm168xLowering {
  private Bm168xLowering() {}

  /**
   * The dtype of {@code op} on a BM168x chip in BF16, F16 or INT8 mode (see the class comment);
   * {@code lowered} holds the types of the tensors lowered so far.
   */
  static DType opDType(
      Graph graph, Op op, Chip chip, Quantize quantize, Map<String, DType> lowered) {
    Target t = new Target(chip);
    Quantize q = quantize == Quantize.F16 && t.mars3 ? Quantize.BF16 : quantize;
    DType mode = q.dtype();
    List<String> in = op.inputs();
    return switch (op.kind()) {
      case RESHAPE, FLATTEN, SQUEEZE, UNSQUEEZE, TILE, EXPAND, IDENTITY ->
          forwarded(graph, op, mode, lowered);
      case CONCAT ->
          q == Quantize.INT8 && in.stream().anyMatch(x -> Lowering.isStored(graph, x))
              ? t.half()
              : mode;
      case GATHER -> isSlice(graph, op) || q != Quantize.INT8 ? mode : t.half();
      case CONV -> q == Quantize.INT8 && !Lowering.isStored(graph, in.get(1)) ? t.full() : mode;
      case CONV_TRANSPOSE -> deconv(graph, op, t, q);
      case MAT_MUL, GEMM ->
          q == Quantize.INT8 && Lowering.isStored(graph, in.get(0)) ? t.half() : mode;
      case LAYER_NORMALIZATION ->
          switch (q) {
            case INT8 -> t.half();
            case BF16 -> t.bm1688 || t.sg2380 ? DType.F32 : mode;
            default -> mode;
          };
      case SOFTMAX -> softmax(graph, op, chip, t, q);
      case AVERAGE_POOL, GLOBAL_AVERAGE_POOL -> avgPool(q);
      case GELU -> q != Quantize.INT8 && t.bm1684x ? DType.F32 : mode;
      case SIGMOID, SQRT -> q == Quantize.INT8 ? mode : t.full();
      case SILU ->
          switch (q) {
            case INT8 -> mode;
            case BF16 -> t.bm1690 || t.bf16Chip ? mode : DType.F32;
            default -> t.bm1690 ? mode : t.full();
          };
      case TANH -> q == Quantize.BF16 ? t.full() : q == Quantize.F16 ? DType.F32 : mode;
      case HARD_SIGMOID -> q == Quantize.F16 ? DType.F32 : mode;
      case RECIPROCAL -> reciprocal(t, q);
      case DIV -> div(graph, op, t, q);
      case CLIP -> q == Quantize.INT8 && FuseRelu.reluLimit(op).isEmpty() ? t.halfOnMars3() : mode;
      case RESIZE -> q == Quantize.INT8 && !isUpsample(graph, op) ? t.halfOnMars3() : mode;
      case LSTM -> DType.F32;
      default ->
          op.kind().category() == OpKind.Category.REDUCE ? reduce(graph, op, t, q, lowered) : mode;
    };
  }

  /** The chip predicates TPU-MLIR's BM1684X lowering tests. */
  private static final class Target {
    final boolean mars3;
    final boolean bf16Chip;
    final boolean bm1684x;
    final boolean bm1688;
    final boolean sg2380;
    final boolean bm1690;

    Target(Chip chip) {
      String name = chip.name();
      mars3 = name.equals("cv184x");
      bf16Chip = mars3 || name.equals("sgtpuv8");
      bm1684x = name.equals("bm1684x");
      bm1688 = name.equals("bm1688");
      sg2380 = name.equals("sg2380");
      bm1690 = name.equals("bm1690");
    }

    /** The type of a fallback to {@code LoweringF16}: BF16 on MARS3 and SGTPUV8. */
    DType half() {
      return bf16Chip ? DType.BF16 : DType.F16;
    }

    /** The type of a fallback to {@code LoweringF16} that tests MARS3 only (Clip, Interp). */
    DType halfOnMars3() {
      return mars3 ? DType.BF16 : DType.F16;
    }

    /** The type of a fallback to {@code LoweringF32}: BF16 on MARS3 and SGTPUV8. */
    DType full() {
      return bf16Chip ? DType.BF16 : DType.F32;
    }
  }

  /**
   * The element type {@code ForwardTypePattern} gives a shape op: its data input's as lowered so
   * far, the imported type of a graph input, {@code mode} for a stored one.
   */
  private static DType forwarded(Graph graph, Op op, DType mode, Map<String, DType> lowered) {
    String in = op.inputs().get(0);
    Tensor t = graph.tensor(in);
    if (t.dtype().isFloatingPoint() && graph.producer(in).isEmpty() && !t.role().isStored()) {
      return t.dtype();
    }
    return Lowering.inputType(graph, op, mode, lowered);
  }

  /** {@code TopGatherToSlice}: constant indices, one of them or a 1-D list. */
  private static boolean isSlice(Graph graph, Op op) {
    String indices = op.inputs().get(1);
    if (!Lowering.isStored(graph, indices)) {
      return false;
    }
    Shape s = graph.tensor(indices).shape();
    return s.elements() == 1 || s.rank() == 1;
  }

  private static DType deconv(Graph graph, Op op, Target t, Quantize q) {
    boolean weightFilter = Lowering.isStored(graph, op.inputs().get(1));
    if (q == Quantize.INT8 && t.bf16Chip) {
      q = Quantize.BF16;
    }
    if (!weightFilter) {
      return DType.F32;
    }
    return q.dtype();
  }

  private static DType softmax(Graph graph, Op op, Chip chip, Target t, Quantize q) {
    Shape s = graph.tensor(op.outputs().get(0)).shape();
    int axis = s.normalizeAxis((int) op.attributes().getInt("axis", -1));
    DType half = q.dtype();
    if (q == Quantize.INT8) {
      if (s.rank() <= 4 && axis == 1) {
        return DType.I8;
      }
      half = t.half();
    }
    return s.dim(axis) > chip.bankBytes() / 2 ? t.full() : half;
  }

  /** {@code AvgPoolLowering::LoweringF16} calls {@code LoweringF32}. */
  private static DType avgPool(Quantize q) {
    return q == Quantize.F16 ? DType.F32 : q.dtype();
  }

  private static DType reduce(
      Graph graph, Op op, Target t, Quantize q, Map<String, DType> lowered) {
    Shape x = graph.tensor(op.inputs().get(0)).shape();
    Shape y = graph.tensor(op.outputs().get(0)).shape();
    if (x.elements() == y.elements()) {
      return forwarded(graph, op, q.dtype(), lowered);
    }
    boolean meanOrMax = op.kind() == OpKind.REDUCE_MEAN || op.kind() == OpKind.REDUCE_MAX;
    if (meanOrMax && x.rank() == 4) {
      long[] axes = op.attributes().getInts("axes", new long[0]);
      int[] norm = Arrays.stream(axes).mapToInt(a -> x.normalizeAxis((int) a)).sorted().toArray();
      if (Arrays.equals(norm, new int[] {2, 3})) {
        return op.kind() == OpKind.REDUCE_MEAN ? avgPool(q) : q.dtype();
      }
    }
    return q == Quantize.INT8 ? t.half() : q.dtype();
  }

  private static DType reciprocal(Target t, Quantize q) {
    return switch (q) {
      case BF16 -> t.mars3 ? DType.BF16 : DType.F32;
      case F16 -> DType.F32;
      default -> q.dtype();
    };
  }

  private static boolean isStoredScalar(Graph graph, String tensor) {
    return Lowering.isStored(graph, tensor) && graph.tensor(tensor).shape().elements() == 1;
  }

  /** {@code convert_div_op}: a MulConst, a Reciprocal or a {@code top.DivOp}. */
  private static DType div(Graph graph, Op op, Target t, Quantize q) {
    if (isStoredScalar(graph, op.inputs().get(1))) {
      return q.dtype();
    }
    if (isStoredScalar(graph, op.inputs().get(0))) {
      return reciprocal(t, q);
    }
    return switch (q) {
      case INT8 -> t.full();
      case BF16 -> t.bm1688 || t.sg2380 || t.bf16Chip ? DType.BF16 : DType.F32;
      default -> t.bm1688 || t.sg2380 ? DType.F16 : t.full();
    };
  }

  /** {@code InterpToUpsampleMergePattern}: nearest, one use, H and W by one integer factor. */
  private static boolean isUpsample(Graph graph, Op op) {
    if (!op.attributes().getString("mode", "nearest").equals("nearest")
        || !Uses.hasOneUse(graph, op)) {
      return false;
    }
    Shape x = graph.tensor(op.inputs().get(0)).shape();
    Shape y = graph.tensor(op.outputs().get(0)).shape();
    if (y.rank() <= 3 || y.dim(2) % x.dim(2) != 0) {
      return false;
    }
    return (double) y.dim(2) / x.dim(2) == (double) y.dim(3) / x.dim(3);
  }
}
