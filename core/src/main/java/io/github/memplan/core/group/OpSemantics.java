package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import io.github.memplan.core.ir.Tensor;
import java.util.Optional;

/**
 * What LayerGroup needs to know about each op kind: whether it can join a group on a chip, which
 * axes may be sliced, the backward slice functions and the LMEM sizes of tensors, weights and
 * scratch buffers.
 *
 * <p>Sources ({@code reference/tpu-mlir.md}): §2.3 (LocalGenInterface ops and the {@code
 * LocalGenSupport} restrictions; {@code AllowDataSplit}), §4.1 (the {@code BackwardH/N/W} functions
 * of {@code lib/Dialect/Tpu/Interfaces/Common/*.cpp}), §4.2 ({@code get_buffer_size}, {@code
 * getBufferSize_*}). DepthToSpace is global on every chip, as in TPU-MLIR, whose {@code
 * tpu.Depth2SpaceOp} declares no {@code LocalGenInterface} ({@code
 * include/tpu_mlir/Dialect/Tpu/IR/TpuOps.td}, {@code Tpu_Depth2SpaceOp}, read at commit 0033e680e7;
 * its BM1684, BM1684X and CV18xx backends have global codegen only).
 *
 * <p>Departures, all because memplan's IR is ONNX-level rather than TPU-MLIR's quantised Tpu
 * dialect:
 *
 * <ul>
 *   <li>Squeeze, Unsqueeze, Reduce, Tile, Gather, Transpose, Split, Expand and LSTM stay global:
 *       TPU-MLIR lowers them to ops outside the local set or with closed backward rules.
 *   <li>Reshape, and Flatten, which TPU-MLIR turns into a Reshape ({@code
 *       FlattenOp::shape_inference}, {@code lib/Dialect/Top/Interfaces/Flatten.cpp}), follow {@code
 *       ReshapeOp::LocalGenSupport} and {@code ReshapeOp::AllowDataSplit} ({@code
 *       lib/Dialect/Tpu/Interfaces/Common/Reshape.cpp} at commit d50059d620): global on CV18xx and
 *       BM1684, local when input and output have rank 2 or more and keep dims 0 and 1; only N (and
 *       C) may be split, and on BM1688, SG2380, CV184X (MARS3) and SGTPUV8 nothing ("temp code for
 *       prevent not-inplace reshape"). {@link #allowSplit} has no chip, so there the refusal is
 *       {@link #backward}'s: a Reshape gives no input slice for a part of N, which makes the same
 *       groups invalid as a maximum of one N slice would. No scratch ({@code getBufferSize_bm1684x}
 *       is 0).
 *   <li>Only 4-D (or lower rank) tensors are grouped; GROUP_3D is not modelled. GROUP_SMALL_C and
 *       GROUP_MM are ({@link GroupType}): C is split only in them, and the backward rules and split
 *       axes take the group type ({@link #allowSplit(Graph, Op, Axis, GroupType)}, {@link
 *       #backward(Graph, Op, int, Axis, Range, Chip, GroupType)}); v0's rules know no group types.
 *   <li>MatMul's local shapes are {@code MatMulOp::LocalGenSupport}'s ({@link
 *       #matMulShapeWhyGlobal}); {@code hdim_is_batch} is never set, so a 4-D x 4-D MatMul stays
 *       global.
 *   <li>Weights keep their GROUP_NORMAL LMEM size in a GROUP_SMALL_C group ({@link
 *       #weightLmemBytes}); TPU-MLIR sizes them by the SMALL_C layout ({@code get_buffer_size}),
 *       which differs for 1-D weights (LayerNorm's gamma and beta: {@code align(len, EU)} on one
 *       lane instead of {@code ceil(len / NPU_NUM)}).
 *   <li>Upsample and Resize join only in nearest mode with integer H and W scales (Interp's linear
 *       rule is not a LocalGen op in §2.3's list).
 *   <li>Slice's backward rule takes exactly the rows it reads, {@code (start + o·step, (L-1)·step +
 *       1)}, not §4.1's {@code L·step + offset} over-approximation.
 *   <li>Cast (and DynamicQuantizeLinear, taken as Cast) is always local: {@code
 *       tpu::CastOp::LocalGenSupport}'s CV18xx type pairs (8-bit to BF16, BF16 to signed integer)
 *       and its BM1684 refusal of an INT32 input are not modelled.
 *   <li>Scratch sizes follow §4.2's BM1684X-family and CV18xx lists; the closed parts (3ic
 *       optimisation, f8 paths, MatMul's rearranged copies, BM1688 coefficient-merged cases) are
 *       left out; BM1684 uses the BM1684X list.
 * </ul>
 */
public final class OpSemantics {
  private OpSemantics() {}

  /** CV18xx's {@code MAX_TIU_CHL = 4095 - 32}. */
  static final long CV18XX_MAX_TIU_CHL = 4095 - 32;

  /**
   * The kind whose LayerGroup rules {@code op} follows: ONNX's integer ops of the zoo's int8 models
   * ({@code MatMulInteger}, {@code ConvInteger}, from dynamic quantization) are INT8 MatMul and
   * Conv; their zero-point operands are scalars, which every slice reads whole. {@code
   * DynamicQuantizeLinear}, which quantizes the activation those ops read, is TPU-MLIR's quantizing
   * {@code tpu.Cast} (F32/BF16/F16 to INT8/UINT8 at the scale and zero point of its result's
   * quantized type: {@code lib/Dialect/Tpu/Interfaces/Common/Cast.cpp}, {@code
   * tpu::CastOp::inference}, identity {@code getIndexingMaps}, read at commit 317af1a4b5), a
   * LocalGen op sliced like any elementwise op; its scale and zero point, scalars, are read whole.
   *
   * <p>This mapping is memplan's: TPU-MLIR's ONNX front end has no converter for these three ops
   * ({@code python/transform/OnnxConverter.py}, {@code onnxop_factory}, read at commit 0033e680e7),
   * so it cannot import these files; it quantizes a float model with calibrated, static scales, and
   * its INT8 lowering then quantizes activations with {@code tpu.Cast}. Departure: ONNX's
   * DynamicQuantizeLinear computes its scale from the whole tensor at run time, which no slice can
   * do alone; memplan takes the scale as TPU-MLIR's calibration fixes it.
   */
  static OpKind kind(Op op) {
    return switch (op.kind()) {
      case MAT_MUL_INTEGER -> OpKind.MAT_MUL;
      case CONV_INTEGER -> OpKind.CONV;
      case DYNAMIC_QUANTIZE_LINEAR -> OpKind.CAST;
      default -> op.kind();
    };
  }

  /** Whether the chip is in the BM1684X family for slicing rules (every BM168x but BM1684). */
  public static boolean bm1684xFamily(Chip chip) {
    return !chip.isCv18xx() && !chip.name().equals("bm1684");
  }

  /**
   * Why {@code op} must stay global on {@code chip}, or empty when it can join a group (§2.3,
   * {@code isLgSupport}).
   */
  public static Optional<String> whyGlobal(Graph graph, Op op, Chip chip) {
    for (String t : op.inputs()) {
      if (!t.isEmpty() && graph.tensor(t).shape().rank() > 4) {
        return Optional.of("tensor '" + t + "' has rank above 4");
      }
    }
    for (String t : op.outputs()) {
      if (graph.tensor(t).shape().rank() > 4) {
        return Optional.of("tensor '" + t + "' has rank above 4");
      }
    }
    String chipName = chip.name();
    boolean cv = chip.isCv18xx();
    Tensor out = graph.tensor(op.outputs().get(0));
    return Optional.ofNullable(
        switch (kind(op)) {
          case CONV -> {
            if (out.shape().rank() != 4) {
              yield "only 2-D convolutions are local";
            }
            Conv k = Conv.of(graph, op);
            if (cv) {
              long ic = in0(graph, op).shape().dim(1);
              long oc = out.shape().dim(1);
              if (ic > CV18XX_MAX_TIU_CHL
                  || oc > CV18XX_MAX_TIU_CHL
                  || in0(graph, op).shape().dim(3) > CV18XX_MAX_TIU_CHL
                  || out.shape().dim(3) > CV18XX_MAX_TIU_CHL) {
                yield "CV18xx: a channel or width above MAX_TIU_CHL";
              }
              if (k.group > 1
                  && k.group != ic
                  && ((oc / k.group) > chip.lanes() || (oc / k.group) % 2 != 0)) {
                yield "CV18xx: group conv with oc/g above NPU_NUM or odd";
              }
              if (!graph.tensor(op.inputs().get(1)).role().isStored()) {
                yield "CV18xx: filter is not a coefficient";
              }
            }
            if (chipName.equals("bm1684")
                && (k.sh > 15
                    || k.sw > 15
                    || k.dh > 15
                    || k.dw > 15
                    || in0(graph, op).shape().dim(1) >= 4096
                    || out.shape().dim(1) >= 4096)) {
              yield "BM1684: stride/dilation above 15 or channels >= 4096";
            }
            if (chipName.equals("cv184x") && (k.sh > 15 || k.sw > 15 || k.dh > 15 || k.dw > 15)) {
              yield "CV184X: stride/dilation above 15";
            }
            yield null;
          }
          case CONV_TRANSPOSE -> {
            if (out.shape().rank() != 4) {
              yield "only 2-D deconvolutions are local";
            }
            Conv k = Conv.of(graph, op);
            if ((k.kh - 1) * k.dh + 1 < k.sh || (k.kw - 1) * k.dw + 1 < k.sw) {
              yield "deconv kernel extent below its stride";
            }
            if (cv
                && (in0(graph, op).shape().dim(1) > CV18XX_MAX_TIU_CHL
                    || out.shape().dim(1) > CV18XX_MAX_TIU_CHL)) {
              yield "CV18xx: a channel above MAX_TIU_CHL";
            }
            yield null;
          }
          case MAX_POOL, AVERAGE_POOL -> {
            if (out.shape().rank() != 4) {
              yield "only 2-D pools are local";
            }
            Conv k = Conv.of(graph, op);
            yield k.sh > 15 || k.sw > 15 ? "pool stride above 15" : null;
          }
          case GLOBAL_AVERAGE_POOL, GLOBAL_MAX_POOL ->
              out.shape().rank() == 4 ? null : "only 2-D global pools are local";
          case ADD,
              SUB,
              MUL,
              DIV,
              MAX,
              MIN,
              EQUAL,
              LESS,
              LESS_OR_EQUAL,
              GREATER,
              GREATER_OR_EQUAL,
              WHERE ->
              null;
          case RELU,
              CLIP,
              LEAKY_RELU,
              SIGMOID,
              HARD_SIGMOID,
              HARD_SWISH,
              SILU,
              TANH,
              GELU,
              ERF,
              EXP,
              LOG,
              SQRT,
              NEG,
              ABS,
              RECIPROCAL,
              FLOOR,
              CEIL,
              ROUND,
              SIGN,
              IDENTITY,
              CAST,
              QUANTIZE_LINEAR,
              DEQUANTIZE_LINEAR,
              BATCH_NORMALIZATION ->
              null;
          case LAYER_NORMALIZATION -> {
            if (cv) {
              yield "CV18xx: LayerNorm is global";
            }
            yield null;
          }
          case SOFTMAX -> {
            if (cv || chipName.equals("bm1684")) {
              yield "Softmax is global on " + chipName;
            }
            int axis = normAxis(graph, op);
            yield out.shape().rank() == 4 && (axis == 2 || axis == 3)
                ? null
                : "Softmax is local only on 4-D tensors with axis 2 or 3";
          }
          case MAT_MUL, GEMM -> {
            if (cv) {
              yield "CV18xx: MatMul is global";
            }
            // MatMulOp::LocalGenSupport (lib/Dialect/Tpu/Interfaces/Common/MatMul.cpp): an FP32
            // left input fails; the result's type does not matter
            if (in0(graph, op).dtype() == DType.F32) {
              yield "fp32 MatMul is global";
            }
            yield matMulShapeWhyGlobal(
                in0(graph, op).shape(), graph.tensor(op.inputs().get(1)).shape());
          }
          // AttentionOp::LocalGenSupport (lib/Dialect/Tpu/Interfaces/Common/Attention.cpp at
          // 4f69186de2)
          case ATTENTION -> cv ? "CV18xx: Attention is global" : null;
          case CONCAT -> {
            int axis = concatAxis(graph, op);
            int rank = out.shape().rank();
            if (cv) {
              yield axis == 1 && (rank == 3 || rank == 4) ? null : "CV18xx: Concat only on axis 1";
            }
            if (chipName.equals("bm1684")) {
              yield axis <= 3 && (axis != 0 || out.dtype() == DType.I32)
                  ? null
                  : "BM1684: Concat axis";
            }
            yield axis >= 1 && axis <= 3 ? null : "Concat axis must be 1, 2 or 3";
          }
          case PAD -> {
            if (out.shape().rank() != 4
                || op.attributes().has("axes")
                || !op.attributes().getString("mode", "constant").equals("constant")) {
              yield "only constant 4-D Pad without axes is local";
            }
            yield null;
          }
          case SLICE -> {
            long[] steps = op.attributes().getInts("steps", null);
            if (steps != null) {
              for (long s : steps) {
                if (s < 1) {
                  yield "Slice with a non-positive step is global";
                }
              }
            }
            yield out.shape().rank() >= 3 ? null : "Slice on rank below 3 is global";
          }
          case RESHAPE, FLATTEN -> {
            if (cv || chipName.equals("bm1684")) {
              yield "Reshape is global on " + chipName;
            }
            Shape i = in0(graph, op).shape();
            Shape o = out.shape();
            yield i.rank() >= 2 && o.rank() >= 2 && i.dim(0) == o.dim(0) && i.dim(1) == o.dim(1)
                ? null
                : "Reshape is local only when it keeps dims 0 and 1";
          }
          case UPSAMPLE, RESIZE -> {
            if (!op.attributes().getString("mode", "nearest").equals("nearest")
                || out.shape().rank() != 4) {
              yield "only nearest 4-D Upsample/Resize is local";
            }
            Shape i = in0(graph, op).shape();
            Shape o = out.shape();
            if (i.dim(0) != o.dim(0)
                || i.dim(1) != o.dim(1)
                || o.dim(2) % i.dim(2) != 0
                || o.dim(3) % i.dim(3) != 0) {
              yield "Upsample scale on H and W must be an integer and 1 on N and C";
            }
            if (cv && (o.dim(2) / i.dim(2) >= 16 || o.dim(3) / i.dim(3) >= 16)) {
              yield "CV18xx: Upsample scale >= 16";
            }
            yield null;
          }
          // tpu.Depth2SpaceOp declares no LocalGenInterface: global on every chip
          case DEPTH_TO_SPACE -> "Depth2Space has no LocalGenInterface in TPU-MLIR";
          default -> op.kind() + " has no local (LayerGroup) implementation here";
        });
  }

  /**
   * {@code MatMulOp::LocalGenSupport}'s shape rules: a 4-D left operand whose C is below its H with
   * a 2-D right operand (local only in a GROUP_SMALL_C group: {@link GroupType#check}); a 3-D left
   * with a 3-D right operand ({@code (1, M, K) x (1, K, N)}, any batch, as the source checks only
   * the ranks); a 4-D x 4-D MatMul only with {@code hdim_is_batch}, which memplan's IR never sets
   * (TPU-MLIR sets it when it folds the permutes around an attention MatMul), so it stays global;
   * everything else (a 2-D left operand, Gemm, 3-D x 2-D) global.
   */
  static String matMulShapeWhyGlobal(Shape a, Shape b) {
    if (a.rank() == 4 && a.dim(1) < a.dim(2) && b.rank() == 2) {
      return null; // GROUP_SMALL_C
    }
    if (a.rank() == 3 && b.rank() == 3) {
      return null; // (1, M, K) x (1, K, N)
    }
    if (a.rank() == 4 && b.rank() == 4) {
      return "4-D x 4-D MatMul is local only with hdim_is_batch";
    }
    return "MatMul of a " + a.rank() + "-D by a " + b.rank() + "-D operand is global";
  }

  /** Whether {@code op} can join a group on {@code chip}. */
  public static boolean groupable(Graph graph, Op op, Chip chip) {
    return whyGlobal(graph, op, chip).isEmpty();
  }

  /**
   * {@link #whyGlobal(Graph, Op, Chip)} under {@code rules}: a Reshape or Flatten stays global when
   * the rules leave out the Reshape local rule ({@link SliceRules#reshapeLocal()}).
   */
  public static Optional<String> whyGlobal(Graph graph, Op op, Chip chip, SliceRules rules) {
    if (!rules.reshapeLocal() && (op.kind() == OpKind.RESHAPE || op.kind() == OpKind.FLATTEN)) {
      return Optional.of("Reshape is global without the Reshape local rule (piece reshape-local)");
    }
    return whyGlobal(graph, op, chip);
  }

  /** Whether {@code op} can join a group on {@code chip} under {@code rules}. */
  public static boolean groupable(Graph graph, Op op, Chip chip, SliceRules rules) {
    return whyGlobal(graph, op, chip, rules).isEmpty();
  }

  /** {@code AllowDataSplit(axis)} of §2.3 in a GROUP_NORMAL group, for the axes modelled here. */
  public static boolean allowSplit(Graph graph, Op op, Axis axis) {
    return allowSplit(graph, op, axis, GroupType.NORMAL);
  }

  /**
   * {@code AllowDataSplit(axis, group_type)} of §2.3, axes of the group type's layout ({@link
   * GroupType#view}). C only in GROUP_MM and GROUP_SMALL_C groups (where {@code get_group_max_secs}
   * asks every op for it): an op splits C unless it is a Concat on C, a LayerNorm or Softmax whose
   * axis is C, or a MatMul with a left operand of rank 2 or less. A MatMul splits N always and H
   * only with {@code hdim_is_batch} (never set here). In a SMALL_C group LayerNorm and Softmax take
   * axis 2 (the view's H, the tensor's last axis), so they split N and C only. A Reshape splits
   * axes 0 and 1 only ({@code ReshapeOp::AllowDataSplit}), which it keeps (its local rule itself is
   * {@link #whyGlobal}'s).
   */
  public static boolean allowSplit(Graph graph, Op op, Axis axis, GroupType type) {
    boolean c = type == GroupType.MM || type == GroupType.SMALL_C;
    return switch (kind(op)) {
      case GLOBAL_AVERAGE_POOL, GLOBAL_MAX_POOL -> axis == Axis.N;
      case CONCAT -> axisIndex(axis) != concatAxis(graph, op) && (axis != Axis.C || c);
      case SOFTMAX, LAYER_NORMALIZATION ->
          axisIndex(axis) < (type == GroupType.SMALL_C ? 2 : normAxis(graph, op))
              && (axis != Axis.C || c);
      case MAT_MUL, GEMM ->
          axis == Axis.N || axis == Axis.C && c && in0(graph, op).shape().rank() > 2;
      case RESHAPE, FLATTEN, SQUEEZE, UNSQUEEZE -> axis == Axis.N || axis == Axis.C && c;
      // AttentionOp::AllowDataSplit: N, and C only with a keys operand, which a self-attention
      // head has not (attention_reorder drops it)
      case ATTENTION -> axis == Axis.N;
      default -> axis != Axis.C || c;
    };
  }

  /**
   * The input range of operand {@code operand} of {@code op} needed for the output range {@code
   * out} along {@code axis} ({@code BackwardN/H/W}, §4.1), clamped to the input ({@code fixSlice});
   * empty when the op cannot produce that slice locally.
   */
  public static Optional<Range> backward(
      Graph graph, Op op, int operand, Axis axis, Range out, Chip chip) {
    return backward(graph, op, operand, axis, out, chip, GroupType.NORMAL);
  }

  /**
   * {@link #backward(Graph, Op, int, Axis, Range, Chip)} in a group of type {@code type}. In
   * GROUP_MM an op that splits C ({@link #allowSplit(Graph, Op, Axis, GroupType)}) needs the same
   * channels of its operands ({@code BackwardC} is the identity), except a MatMul's right operand,
   * which every C slice reads whole ({@code is_matmul_right_tensor} in {@code
   * get_backward_slice_info}). In GROUP_SMALL_C, whose ops are all element-wise or work on the last
   * axis (the view's H), every axis is the identity on the view ({@link GroupType#view}) where the
   * op splits it and whole where it does not; a MatMul's right operand is whole.
   */
  public static Optional<Range> backward(
      Graph graph, Op op, int operand, Axis axis, Range out, Chip chip, GroupType type) {
    boolean rightMatrix = operand == 1 && (kind(op) == OpKind.MAT_MUL || kind(op) == OpKind.GEMM);
    if (type == GroupType.SMALL_C) {
      long inSize = type.view(graph, op.inputs().get(operand), chip).dim(axis);
      long outSize = type.view(graph, op.outputs().get(0), chip).dim(axis);
      if (rightMatrix || inSize == 1 && outSize != 1) {
        return Optional.of(new Range(0, inSize));
      }
      if (!allowSplit(graph, op, axis, type)) {
        return out.idx() == 0 && out.len() == outSize
            ? Optional.of(new Range(0, inSize))
            : Optional.empty();
      }
      return fix(out.idx(), out.len(), inSize, false);
    }
    if (axis == Axis.C && type == GroupType.MM && allowSplit(graph, op, Axis.C, type)) {
      Tensor in = graph.tensor(op.inputs().get(operand));
      long inSize = dimOf(in.shape(), graph.tensor(op.outputs().get(0)).shape().rank(), axis);
      if (rightMatrix) {
        return Optional.of(new Range(0, inSize));
      }
      if (inSize == 1 && Nchw.of(graph.tensor(op.outputs().get(0)).shape()).c() != 1) {
        return Optional.of(new Range(0, 1)); // broadcast operand keeps (0, 1)
      }
      return fix(out.idx(), out.len(), inSize, false);
    }
    return backwardNormal(graph, op, operand, axis, out, chip);
  }

  private static Optional<Range> backwardNormal(
      Graph graph, Op op, int operand, Axis axis, Range out, Chip chip) {
    Tensor in = graph.tensor(op.inputs().get(operand));
    Tensor res = graph.tensor(op.outputs().get(0));
    if (op.kind() == OpKind.RESHAPE || op.kind() == OpKind.FLATTEN) {
      // dims 0 and 1 are kept: N and C slices pass through; H and W are never split
      long inSize = Nchw.of(in.shape()).dim(axis);
      if (out.idx() == 0 && out.len() == Nchw.of(res.shape()).dim(axis)) {
        return Optional.of(new Range(0, inSize));
      }
      boolean kept = axis == Axis.N || axis == Axis.C;
      return kept && !reshapeUnsplit(op, chip)
          ? fix(out.idx(), out.len(), inSize, false)
          : Optional.empty(); // AllowDataSplit fails on that axis (or chip)
    }
    long inSize = dimOf(in.shape(), res.shape().rank(), axis);
    long outSize = Nchw.of(res.shape()).dim(axis);
    if (inSize == 1 && outSize != 1) {
      return Optional.of(new Range(0, 1)); // broadcast operand keeps (0, 1)
    }
    if (axis == Axis.N || axis == Axis.C) {
      if (axis == Axis.C && !allowSplit(graph, op, Axis.C)) {
        return out.idx() == 0 && out.len() == outSize
            ? Optional.of(new Range(0, inSize))
            : Optional.empty();
      }
      return fix(out.idx(), out.len(), inSize, false);
    }
    boolean last = out.end() == outSize;
    boolean isH = axis == Axis.H;
    return switch (kind(op)) {
      case CONV, MAX_POOL, AVERAGE_POOL -> {
        Conv k = Conv.of(graph, op);
        long kext = isH ? (k.kh - 1) * k.dh + 1 : (k.kw - 1) * k.dw + 1;
        long s = isH ? k.sh : k.sw;
        long pad = isH ? k.padTop : k.padLeft;
        long len =
            kind(op) == OpKind.CONV
                ? (out.len() - 1) * s + Math.max(kext, s)
                : (out.len() - 1) * s + kext;
        yield fix(out.idx() * s - pad, len, inSize, last);
      }
      case GLOBAL_AVERAGE_POOL, GLOBAL_MAX_POOL ->
          out.idx() == 0 && out.len() == outSize
              ? Optional.of(new Range(0, inSize))
              : Optional.empty();
      case CONV_TRANSPOSE -> {
        Conv k = Conv.of(graph, op);
        long kext = isH ? (k.kh - 1) * k.dh + 1 : (k.kw - 1) * k.dw + 1;
        long s = isH ? k.sh : k.sw;
        long padTh = kext - (isH ? k.padTop : k.padLeft) - 1;
        long first = out.idx() - padTh <= 0 ? 0 : Math.floorDiv(out.idx() - padTh + s - 1, s);
        long e = out.idx() + out.len() + kext - 2 - padTh;
        long lastIdx = e <= 0 ? 0 : Math.floorDiv(e, s);
        first = Math.min(first, inSize - 1);
        lastIdx = Math.min(lastIdx, inSize - 1);
        yield lastIdx < first
            ? Optional.empty()
            : Optional.of(new Range(first, lastIdx - first + 1));
      }
      case UPSAMPLE, RESIZE -> {
        long s = outSize / inSize;
        if (bm1684xFamily(chip)) {
          long a = Math.floorDiv(out.idx(), s);
          long b = Math.floorDiv(out.end() - 1, s);
          yield Optional.of(new Range(a, b - a + 1));
        }
        yield out.idx() % s == 0 && out.len() % s == 0
            ? Optional.of(new Range(out.idx() / s, out.len() / s))
            : Optional.empty();
      }
      case PAD -> {
        long[] pads = op.attributes().getInts("pads", new long[8]);
        int a = axisIndex(axis);
        long before = pads[a];
        long from = Math.max(out.idx() - before, 0);
        long to = Math.min(out.end() - before, inSize);
        yield to <= from ? Optional.empty() : Optional.of(new Range(from, to - from));
      }
      case SLICE -> {
        long[] sl = sliceStartStep(graph, op, axisIndex(axis));
        yield fix(sl[0] + out.idx() * sl[1], (out.len() - 1) * sl[1] + 1, inSize, false);
      }
      case MAT_MUL, GEMM, SOFTMAX, LAYER_NORMALIZATION, ATTENTION -> {
        if (!allowSplit(graph, op, axis)) {
          yield out.idx() == 0 && out.len() == outSize
              ? Optional.of(new Range(0, inSize))
              : Optional.empty();
        }
        yield fix(out.idx(), out.len(), inSize, false);
      }
      default -> fix(out.idx(), out.len(), inSize, false);
    };
  }

  /** A Reshape on a chip where {@code ReshapeOp::AllowDataSplit} refuses every axis. */
  private static boolean reshapeUnsplit(Op op, Chip chip) {
    return (op.kind() == OpKind.RESHAPE || op.kind() == OpKind.FLATTEN)
        && switch (chip.name()) {
          case "bm1688", "sg2380", "cv184x", "sgtpuv8" -> true;
          default -> false;
        };
  }

  /** {@code fixSlice}: clamp to {@code [0, size)}; the last output slice extends to the end. */
  private static Optional<Range> fix(long idx, long len, long size, boolean lastSlice) {
    long from = Math.max(idx, 0);
    long to = Math.min(idx + len, size);
    if (lastSlice) {
      to = size;
    }
    return to <= from ? Optional.empty() : Optional.of(new Range(from, to - from));
  }

  /**
   * Per-lane LMEM bytes of a tensor slice (§4.2): {@code n · ceil(c / NPU_NUM) · (euAlign ?
   * align_up(h·w, EU_BYTES / dtype_bytes) : h·w) · dtype_bytes}; on BM1684 with 1-byte or 2-byte
   * data the 4N storage {@code ceil(n / (4/bytes)) · ceil(c / NPU) · align_up(h·w, 32) · 4}.
   * Sub-byte types count as one byte.
   */
  public static long lmemBytes(
      Chip chip, long n, long c, long h, long w, DType dtype, boolean euAlign) {
    long bytes = Math.max(1, dtype.bits() / 8);
    long cPerLane = ceilDiv(c, chip.lanes());
    long hw = h * w;
    if (chip.name().equals("bm1684") && bytes < 4) {
      return ceilDiv(n, 4 / bytes) * cPerLane * alignUp(hw, 32) * 4;
    }
    long eu = Math.max(1, chip.euBytes() / bytes);
    return n * cPerLane * (euAlign ? alignUp(hw, eu) : hw) * bytes;
  }

  /** {@link #lmemBytes} of the slice {@code s} of a tensor of type {@code dtype}. */
  public static long lmemBytes(Chip chip, Nchw s, DType dtype, boolean euAlign) {
    return lmemBytes(chip, s.n(), s.c(), s.h(), s.w(), dtype, euAlign);
  }

  /**
   * Per-lane LMEM bytes of a non-split weight loaded whole ({@code get_weight_lmem_bytes}, §4.2):
   * the reordered shape with the output channels on the lanes. Conv and deconv filters {@code [oc,
   * ic/g, kh, kw]} take {@code ceil(oc/NPU) · ic/g·kh·kw · bytes}; 1-D weights (bias, norm
   * gamma/beta, scales) {@code ceil(c/NPU) · bytes}; a MatMul right matrix {@code [K, N]} {@code
   * ceil(K/NPU) · align(N, EU) · bytes}; anything else its 4-D view with EU alignment. Filters,
   * biases and norm parameters are not EU-aligned, as §4.2 lists.
   */
  public static long weightLmemBytes(Graph graph, Op op, String weight, Chip chip) {
    Tensor t = graph.tensor(weight);
    long[] d = t.shape().dims();
    long bytes = Math.max(1, t.dtype().bits() / 8);
    return switch (kind(op)) {
      case CONV, CONV_TRANSPOSE, BATCH_NORMALIZATION, LAYER_NORMALIZATION -> {
        if (d.length == 0) {
          yield bytes;
        }
        long rest = 1;
        for (int i = 1; i < d.length; i++) {
          rest *= d[i];
        }
        yield ceilDiv(d[0], chip.lanes()) * rest * bytes;
      }
      case MAT_MUL, GEMM, ATTENTION -> {
        if (d.length == 2) {
          long eu = Math.max(1, chip.euBytes() / bytes);
          yield ceilDiv(d[0], chip.lanes()) * alignUp(d[1], eu) * bytes;
        }
        yield lmemBytes(chip, Nchw.of(t.shape()), t.dtype(), true);
      }
      default -> lmemBytes(chip, Nchw.of(t.shape()), t.dtype(), true);
    };
  }

  /**
   * Per-lane bytes of {@code op}'s scratch ("imm") buffer for an output slice of shape {@code out}
   * and an input slice {@code in} (§4.2; 0 when it needs none).
   *
   * <ul>
   *   <li>BM168x Conv: int8 and other sub-4-byte integer outputs keep int32 partial sums, {@code
   *       out_bytes · 4 / out_dtype_bytes}; group conv (not depthwise) adds an input copy {@code
   *       in_n · ceil(ic/g/NPU) · align(in_h·in_w, eu) · bytes + ceil(ic/g/NPU) · 2 · bytes};
   *       depthwise adds {@code ceil(oc/NPU) · kh · kw}.
   *   <li>BM168x Pool: global pool {@code out_n · eu · ceil(c/NPU) · bytes}; else 0.
   *   <li>BM168x Deconv: group > 1 {@code ceil(ic/g/NPU) · align(in_h·in_w, eu) · bytes}.
   *   <li>BM168x Add/Sub/Mul with an int8 output: {@code 2 · out_bytes · 2}.
   *   <li>BM168x Attention: {@code getBufferSize_bm1684x} (see {@code attentionBuffer}).
   *   <li>BM168x MatMul: the int32 accumulator {@code ceil(oc/NPU) · align(ow, eu/4) · 4}, with
   *       {@code oc} and {@code ow} the output's C and last dims.
   *   <li>CV18xx: Add with an int8 output takes an input-sized buffer; everything else 0 (no fused
   *       leaky-relu in this IR).
   * </ul>
   */
  public static long scratchBytes(Graph graph, Op op, Chip chip, Nchw in, Nchw out) {
    Tensor o = graph.tensor(op.outputs().get(0));
    Tensor x = in0(graph, op);
    long ob = Math.max(1, o.dtype().bits() / 8);
    long ib = Math.max(1, x.dtype().bits() / 8);
    boolean int8Out = !o.dtype().isFloatingPoint() && ob == 1;
    long outBytes = lmemBytes(chip, out, o.dtype(), true);
    if (chip.isCv18xx()) {
      return op.kind() == OpKind.ADD && int8Out ? lmemBytes(chip, in, x.dtype(), true) : 0;
    }
    long eu = Math.max(1, chip.euBytes() / ib);
    return switch (kind(op)) {
      case CONV -> {
        Conv k = Conv.of(graph, op);
        long s = !o.dtype().isFloatingPoint() && ob < 4 ? outBytes * 4 / ob : 0;
        long ic = x.shape().dim(1);
        long oc = o.shape().dim(1);
        boolean depthwise = k.group > 1 && k.group == ic;
        if (depthwise) {
          s += ceilDiv(oc, chip.lanes()) * k.kh * k.kw;
        } else if (k.group > 1) {
          long icg = ceilDiv(ic / k.group, chip.lanes());
          s += in.n() * icg * alignUp(in.h() * in.w(), eu) * ib + icg * 2 * ib;
        }
        yield s;
      }
      case GLOBAL_AVERAGE_POOL, GLOBAL_MAX_POOL ->
          out.n() * eu * ceilDiv(out.c(), chip.lanes()) * ib;
      case CONV_TRANSPOSE -> {
        Conv k = Conv.of(graph, op);
        long ic = x.shape().dim(1);
        yield k.group > 1
            ? ceilDiv(ic / k.group, chip.lanes()) * alignUp(in.h() * in.w(), eu) * ib
            : 0;
      }
      case ADD, SUB, MUL -> int8Out ? 2 * outBytes * 2 : 0;
      case ATTENTION -> attentionBuffer(graph, op, chip, in);
      case MAT_MUL, GEMM -> {
        long[] d = o.shape().dims();
        long ow = d[d.length - 1];
        long oc = d.length >= 2 ? d[d.length - 2] : 1;
        yield ceilDiv(oc, chip.lanes()) * alignUp(ow, Math.max(1, chip.euBytes() / 4)) * 4;
      }
      default -> 0;
    };
  }

  /**
   * {@code AttentionOp::getBufferSize_bm1684x} ({@code lib/Dialect/Tpu/Interfaces/BM1684X/
   * Attention.cpp} at 14341c03b1) for an input slice {@code in} ({@code M_q} its C, the sequence),
   * {@code M_k = M_v = M_q} (no keys operand), {@code d} the head dim. Float results: the softmax
   * buffer {@code c·eu32·4 + align(32, eu32)·4 + align(192, eu32)·4 + c·align(M_k, eu32)·4·4} with
   * {@code c = ceil(M_q / NPU)}, plus {@code d_size · (ceil(M_v/NPU) + ceil(M_k/NPU))}, {@code
   * d_size = align(d, eu16)·2} for BF16/F16 and {@code align(d, eu32)·4} otherwise, at most {@code
   * LMEM_BYTES / 3}. An INT32 result (INT8): {@code align(max(mat, softmax), BANK) + align(mat0 +
   * mat1 + k + v, BANK)}, at most {@code BANK · (BANKS / 3)}, the terms as in the source ({@code
   * mat_buffer_size0/1} count elements, not bytes, there too).
   */
  private static long attentionBuffer(Graph graph, Op op, Chip chip, Nchw in) {
    long npu = chip.lanes();
    long mq = in.c();
    long mk = mq;
    long d = op.attributes().getInt("dim", 1);
    long c = ceilDiv(mq, npu);
    long eu32 = Math.max(1, chip.euBytes() / 4);
    DType out = graph.tensor(op.outputs().get(0)).dtype();
    if (out == DType.I32) {
      long eu8 = chip.euBytes();
      long dSize = alignUp(d, eu8);
      long kv = 2 * dSize * ceilDiv(mk, npu);
      long mat0 = c * alignUp(mk, eu8);
      long mat1 = c * dSize;
      long softmax = c * 4 * (alignUp(1, eu32) + alignUp(mk, eu32));
      long mat = Math.max(ceilDiv(Math.max(mq, mk), npu) * alignUp(d, eu32), c * alignUp(mk, eu32));
      long bank = chip.bankBytes();
      long sum = alignUp(Math.max(mat, softmax), bank) + alignUp(mat0 + mat1 + kv, bank);
      return Math.min(sum, bank * (chip.banks() / 3));
    }
    long softmax =
        c * eu32 * 4 + alignUp(32, eu32) * 4 + alignUp(192, eu32) * 4 + c * alignUp(mk, eu32) * 16;
    boolean half = out == DType.F16 || out == DType.BF16;
    long dSize = half ? alignUp(d, Math.max(1, chip.euBytes() / 2)) * 2 : alignUp(d, eu32) * 4;
    long bufferIn = dSize * (ceilDiv(mk, npu) + ceilDiv(mk, npu));
    return Math.min(softmax + bufferIn, chip.lmemBytesPerLane() / 3);
  }

  /** Whether a weight operand is stored in LMEM without EU alignment (§4.2's list). */
  public static boolean weightEuAligned(Op op) {
    return switch (kind(op)) {
      case CONV, CONV_TRANSPOSE, BATCH_NORMALIZATION, LAYER_NORMALIZATION -> false;
      default -> true;
    };
  }

  public static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }

  static long alignUp(long a, long b) {
    return ceilDiv(a, b) * b;
  }

  private static Tensor in0(Graph graph, Op op) {
    return graph.tensor(op.inputs().get(0));
  }

  private static int axisIndex(Axis axis) {
    return axis.ordinal();
  }

  /**
   * {@code dim} of an operand of rank {@code r} broadcast against an output of rank {@code
   * outRank}.
   */
  private static long dimOf(Shape s, int outRank, Axis axis) {
    if (s.rank() < outRank) {
      long[] d = new long[outRank];
      java.util.Arrays.fill(d, 1);
      long[] sd = s.dims();
      System.arraycopy(sd, 0, d, outRank - sd.length, sd.length);
      return Nchw.of(Shape.of(d)).dim(axis);
    }
    return Nchw.of(s).dim(axis);
  }

  private static int concatAxis(Graph graph, Op op) {
    return graph
        .tensor(op.outputs().get(0))
        .shape()
        .normalizeAxis((int) op.attributes().getInt("axis", 1));
  }

  private static int normAxis(Graph graph, Op op) {
    long def = op.kind() == OpKind.SOFTMAX ? -1 : -1;
    return graph
        .tensor(op.outputs().get(0))
        .shape()
        .normalizeAxis((int) op.attributes().getInt("axis", def));
  }

  /** {start, step} of a Slice along {@code axis} (step 1, start 0 when the axis is not sliced). */
  private static long[] sliceStartStep(Graph graph, Op op, int axis) {
    long[] starts = op.attributes().getInts("starts", new long[0]);
    long[] axes = op.attributes().getInts("axes", null);
    long[] steps = op.attributes().getInts("steps", null);
    Shape in = in0(graph, op).shape();
    for (int i = 0; i < starts.length; i++) {
      int a = axes == null ? i : in.normalizeAxis((int) axes[i]);
      if (a == axis) {
        long dim = in.dim(a);
        long s = starts[i] < 0 ? starts[i] + dim : starts[i];
        s = Math.max(0, Math.min(s, dim));
        return new long[] {s, steps == null ? 1 : steps[i]};
      }
    }
    return new long[] {0, 1};
  }

  /** Kernel, stride, dilation and leading pads of a 2-D conv, deconv or pool. */
  /** {@link Conv#of}'s per-thread cache: the ops of one graph, by identity. */
  private static final class ConvCache {
    Graph graph;
    final java.util.IdentityHashMap<Op, Conv> convs = new java.util.IdentityHashMap<>();
  }

  private static final ThreadLocal<ConvCache> CONV_CACHE = ThreadLocal.withInitial(ConvCache::new);

  record Conv(
      long kh, long kw, long sh, long sw, long dh, long dw, long padTop, long padLeft, long group) {
    /**
     * The parameters of the conv or pool {@code op} of {@code graph}, parsed once per op of the
     * graph last asked about on this thread (slicing asks for them on every backward step).
     */
    static Conv of(Graph graph, Op op) {
      ConvCache cache = CONV_CACHE.get();
      if (cache.graph != graph || cache.convs.size() > 100_000) {
        cache.graph = graph;
        cache.convs.clear();
      }
      Conv c = cache.convs.get(op);
      if (c == null) {
        c = parse(graph, op);
        cache.convs.put(op, c);
      }
      return c;
    }

    private static Conv parse(Graph graph, Op op) {
      long[] ks;
      if (kind(op) == OpKind.CONV || op.kind() == OpKind.CONV_TRANSPOSE) {
        long[] wd = graph.tensor(op.inputs().get(1)).shape().dims();
        ks = new long[] {wd[2], wd[3]};
      } else {
        ks = op.attributes().getInts("kernel_shape", new long[] {1, 1});
      }
      long[] st = op.attributes().getInts("strides", new long[] {1, 1});
      long[] dl = op.attributes().getInts("dilations", new long[] {1, 1});
      long[] pads = op.attributes().getInts("pads", new long[] {0, 0, 0, 0});
      long[] pad = {pads[0], pads[1]};
      String auto = op.attributes().getString("auto_pad", "NOTSET");
      if (auto.startsWith("SAME") && op.kind() != OpKind.CONV_TRANSPOSE) {
        Shape in = graph.tensor(op.inputs().get(0)).shape();
        Shape out = graph.tensor(op.outputs().get(0)).shape();
        for (int i = 0; i < 2; i++) {
          long total =
              Math.max((out.dim(2 + i) - 1) * st[i] + (ks[i] - 1) * dl[i] + 1 - in.dim(2 + i), 0);
          pad[i] = auto.equals("SAME_UPPER") ? total / 2 : total - total / 2;
        }
      }
      return new Conv(
          ks[0],
          ks[1],
          st[0],
          st[1],
          dl[0],
          dl[1],
          pad[0],
          pad[1],
          op.attributes().getInt("group", 1));
    }
  }
}
