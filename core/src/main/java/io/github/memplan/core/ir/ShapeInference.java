package io.github.memplan.core.ir;

import io.github.memplan.core.io.InputText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Static shape and dtype inference for every {@link OpKind}, following the ONNX operator
 * specification (https://onnx.ai/onnx/operators/) and its attribute names.
 *
 * <p>Departures from ONNX, all deliberate:
 *
 * <ul>
 *   <li>Inputs that ONNX passes as constant tensors are attributes (see {@link OpKind}): Reshape
 *       {@code shape}, Slice {@code starts/ends/axes/steps}, Pad {@code pads/axes/constant_value},
 *       Resize/Upsample {@code scales} or {@code sizes}, Squeeze/Unsqueeze and the reductions'
 *       {@code axes}, Split {@code split}, Expand {@code shape}, Tile {@code repeats}. Clip takes
 *       {@code min}/{@code max} as attributes (opset 6) or as scalar inputs (opset 11+).
 *   <li>Outputs: Split defines as many as the op names, DynamicQuantizeLinear three (data, scale,
 *       zero point); MaxPool's optional indices and LayerNormalization's optional mean and inverse
 *       standard deviation are inferred when the op names them. Training-mode BatchNormalization's
 *       running statistics are not modelled: it is rejected.
 *   <li>LSTM's optional inputs are identified by position in ONNX, where an absent one is an empty
 *       name; here the operands after X, W and R are only those given, and attribute {@code
 *       optional_inputs} names their ONNX input indices when one is absent before a later one
 *       (PyTorch exports B, no sequence_lens, initial_h, initial_c: {@code [3, 5, 6]}); its outputs
 *       are those of Y, Y_h and Y_c the op defines, attribute {@code optional_outputs} naming their
 *       indices when one is left out before a later one (Y_h alone: {@code [1]}).
 *   <li>Conv and ConvTranspose accept an {@code I32} bias on {@code I8}/{@code U8} data, the
 *       convention of quantized graphs; ONNX's float Conv requires one type for all operands.
 *   <li>Pooling with {@code ceil_mode} drops a last window that would start in the end padding, as
 *       PyTorch does and ONNX shape inference does since onnx/onnx#5741.
 * </ul>
 *
 * <p>Every failure is an {@link IllegalArgumentException} whose message starts with {@link
 * Op#label()} and names the inconsistent operands or attributes.
 */
public final class ShapeInference {
  private static final Set<String> AUTO_PADS =
      Set.of("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID");

  private ShapeInference() {}

  /**
   * The output types of {@code op} given its input types, in output order: one for most kinds, as
   * many as {@code op} defines for Split, three for DynamicQuantizeLinear, and for MaxPool,
   * LayerNormalization and LSTM their optional outputs when {@code op} defines them. Every output
   * is checked against {@link TensorType#MAX_BYTES}.
   *
   * @throws IllegalArgumentException naming the op when inputs or attributes are inconsistent, or
   *     when an output is larger than memplan plans
   */
  public static List<TensorType> infer(Op op, List<TensorType> inputs) {
    List<TensorType> out = inferUnchecked(op, inputs);
    for (int k = 0; k < out.size(); k++) {
      String name = k < op.outputs().size() ? op.outputs().get(k) : "#" + k;
      TensorType.checkBytes(
          op.label() + ": output '" + name + "'", out.get(k).shape(), out.get(k).dtype());
    }
    return out;
  }

  private static List<TensorType> inferUnchecked(Op op, List<TensorType> inputs) {
    Ctx c = new Ctx(op, List.copyOf(inputs));
    try {
      return switch (op.kind()) {
        case SPLIT -> split(c);
        case DYNAMIC_QUANTIZE_LINEAR -> dynamicQuantizeLinear(c);
        case MAX_POOL -> withOptionalOutputs(c, 2);
        case LAYER_NORMALIZATION -> withOptionalOutputs(c, 3);
        case LSTM -> lstm(c);
        default -> List.of(single(c));
      };
    } catch (IllegalArgumentException | ArithmeticException e) {
      // Attribute getters and Shape name the attribute or axis but not the op.
      String msg = e.getMessage() == null ? e.toString() : e.getMessage();
      if (e instanceof IllegalArgumentException && msg.startsWith(op.label())) {
        throw e;
      }
      throw new IllegalArgumentException(op.label() + ": " + msg, e);
    }
  }

  /**
   * The first output and, when the op names them, up to {@code max - 1} optional ones: MaxPool's
   * Indices (I64, Y's shape); LayerNormalization's Mean and InvStdDev (X's shape with the
   * normalized dims 1, in attribute stash_type, default FLOAT).
   */
  private static List<TensorType> withOptionalOutputs(Ctx c, int max) {
    TensorType y = single(c);
    int n = Math.min(c.op.outputs().size(), max);
    List<TensorType> out = new ArrayList<>(List.of(y));
    if (n > 1 && c.op.kind() == OpKind.MAX_POOL) {
      out.add(new TensorType(y.shape(), DType.I64));
    } else if (n > 1) {
      long[] d = y.shape().dims();
      int a = c.axis(c.attrs().getInt("axis", -1), d.length, "axis");
      for (int i = a; i < d.length; i++) {
        d[i] = 1;
      }
      DType stash = DType.fromOnnxCode(c.attrs().getInt("stash_type", DType.F32.onnxCode()));
      for (int k = 1; k < n; k++) {
        out.add(new TensorType(Shape.of(d), stash));
      }
    }
    return out;
  }

  /** The output of a single-output kind. */
  private static TensorType single(Ctx c) {
    return switch (c.op.kind()) {
      case CONV -> conv(c);
      case CONV_TRANSPOSE -> convTranspose(c);
      case MAX_POOL, AVERAGE_POOL -> pool(c);
      case GLOBAL_AVERAGE_POOL, GLOBAL_MAX_POOL -> globalPool(c);
      case MAT_MUL -> matMul(c);
      case GEMM -> gemm(c);
      case ADD, SUB, MUL, DIV -> binary(c, false);
      case POW -> binary(c, true);
      case MOD -> mod(c);
      case MAX, MIN -> variadic(c);
      case EQUAL, LESS, LESS_OR_EQUAL, GREATER, GREATER_OR_EQUAL -> compare(c);
      case AND, OR, XOR -> logical(c);
      case NOT -> not(c);
      case WHERE -> where(c);
      case CLIP -> clip(c);
      case LEAKY_RELU, HARD_SIGMOID, GELU -> unaryWithAttrs(c);
      case RELU,
          SIGMOID,
          HARD_SWISH,
          SILU,
          TANH,
          ERF,
          EXP,
          LOG,
          SQRT,
          NEG,
          ABS,
          IDENTITY,
          RECIPROCAL,
          FLOOR,
          CEIL,
          ROUND,
          SIGN ->
          unary(c);
      case CAST -> cast(c);
      case BATCH_NORMALIZATION -> batchNorm(c);
      case LAYER_NORMALIZATION -> layerNorm(c);
      case SOFTMAX -> softmax(c);
      case REDUCE_MEAN,
          REDUCE_SUM,
          REDUCE_MAX,
          REDUCE_MIN,
          REDUCE_PROD,
          REDUCE_L1,
          REDUCE_L2,
          REDUCE_SUM_SQUARE,
          REDUCE_LOG_SUM,
          REDUCE_LOG_SUM_EXP ->
          reduce(c);
      case ARG_MAX, ARG_MIN -> argReduce(c);
      case CONCAT -> concat(c);
      case RESHAPE -> reshape(c);
      case FLATTEN -> flatten(c);
      case SQUEEZE -> squeeze(c);
      case UNSQUEEZE -> unsqueeze(c);
      case TRANSPOSE -> transpose(c);
      case DEPTH_TO_SPACE -> depthToSpace(c);
      case UPSAMPLE -> upsample(c);
      case RESIZE -> resize(c);
      case PAD -> pad(c);
      case SLICE -> slice(c);
      case GATHER -> gather(c);
      case EXPAND -> expand(c);
      case TILE -> tile(c);
      case QUANTIZE_LINEAR -> quantizeLinear(c);
      case DEQUANTIZE_LINEAR -> dequantizeLinear(c);
      case MAT_MUL_INTEGER -> matMulInteger(c);
      case CONV_INTEGER -> convInteger(c);
      case ATTENTION -> attention(c);
      case SPLIT, DYNAMIC_QUANTIZE_LINEAR, LSTM ->
          throw new AssertionError("multi-output kind " + c.op.kind());
    };
  }

  // ---------------------------------------------------------------- convolution and pooling

  /**
   * Conv: X[N, C, D1..Dk], W[M, C/group, k1..kk], optional B[M]; attributes kernel_shape, strides,
   * pads (begins then ends), dilations, group, auto_pad. Any k >= 1 (1-D, 2-D, 3-D).
   */
  private static TensorType conv(Ctx c) {
    c.arity(2, 3);
    c.sameDtype(0, 1);
    long[] out = convDims(c);
    if (c.inputs.size() == 3) {
      c.bias(2, out[1], c.in(0).dtype());
    }
    return new TensorType(Shape.of(out), c.in(0).dtype());
  }

  /**
   * ConvInteger: X and W of I8/U8 with Conv's attributes, optional zero points x_zero_point (a
   * scalar) and w_zero_point (a scalar or one per output channel); the result is I32.
   */
  private static TensorType convInteger(Ctx c) {
    c.arity(2, 4);
    c.requireByte(0);
    c.requireByte(1);
    long[] out = convDims(c);
    if (c.inputs.size() > 2) {
      c.zeroPoint(2, 0, 1);
    }
    if (c.inputs.size() > 3) {
      c.zeroPoint(3, 1, out[1]);
    }
    return new TensorType(Shape.of(out), DType.I32);
  }

  /** The output dims of Conv and ConvInteger: X is input 0, W input 1. */
  private static long[] convDims(Ctx c) {
    TensorType x = c.in(0);
    TensorType w = c.in(1);
    int spatial = c.spatialRank(x, "X");
    c.sameRank(w, x, "weight W", "X");
    long[] xd = x.shape().dims();
    long[] wd = w.shape().dims();
    long group = c.attrs().getInt("group", 1);
    if (group < 1) {
      throw c.fail("group " + group + " must be >= 1");
    }
    long channels = xd[1];
    if (channels != wd[1] * group) {
      throw c.fail(
          "input channels "
              + channels
              + " != weight channels*group "
              + wd[1] * group
              + " (W "
              + w.shape()
              + ", group "
              + group
              + ")");
    }
    long m = wd[0];
    if (m % group != 0) {
      throw c.fail("output channels " + m + " are not divisible by group " + group);
    }
    long[] kernel = Arrays.copyOfRange(wd, 2, wd.length);
    c.checkKernelShape(kernel);
    long[] strides = c.positiveInts("strides", spatial);
    long[] dilations = c.positiveInts("dilations", spatial);
    String autoPad = c.autoPad();
    long[] pads = c.pads(spatial, autoPad);
    long[] out = new long[xd.length];
    out[0] = xd[0];
    out[1] = m;
    for (int i = 0; i < spatial; i++) {
      out[2 + i] =
          window(
              c, i, xd[2 + i], kernel[i], strides[i], dilations[i], pads, spatial, autoPad, false);
    }
    return out;
  }

  /**
   * ConvTranspose: X[N, C, D1..Dk], W[C, M/group, k1..kk], optional B[M]; attributes kernel_shape,
   * strides, pads, dilations, group, output_padding, output_shape, auto_pad.
   */
  private static TensorType convTranspose(Ctx c) {
    c.arity(2, 3);
    TensorType x = c.in(0);
    TensorType w = c.in(1);
    int spatial = c.spatialRank(x, "X");
    c.sameRank(w, x, "weight W", "X");
    c.sameDtype(0, 1);
    long[] xd = x.shape().dims();
    long[] wd = w.shape().dims();
    long group = c.attrs().getInt("group", 1);
    if (group < 1) {
      throw c.fail("group " + group + " must be >= 1");
    }
    if (xd[1] != wd[0]) {
      throw c.fail(
          "input channels " + xd[1] + " != weight dim 0 " + wd[0] + " (W " + w.shape() + ")");
    }
    if (xd[1] % group != 0) {
      throw c.fail("input channels " + xd[1] + " are not divisible by group " + group);
    }
    long m = wd[1] * group;
    if (c.inputs.size() == 3) {
      c.bias(2, m, x.dtype());
    }
    long[] kernel = Arrays.copyOfRange(wd, 2, wd.length);
    c.checkKernelShape(kernel);
    long[] strides = c.positiveInts("strides", spatial);
    long[] dilations = c.positiveInts("dilations", spatial);
    long[] outputPadding = c.ints("output_padding", new long[spatial], spatial);
    for (long p : outputPadding) {
      if (p < 0) {
        throw c.fail("output_padding " + Arrays.toString(outputPadding) + " must be >= 0");
      }
    }
    String autoPad = c.autoPad();
    long[] out = new long[xd.length];
    out[0] = xd[0];
    out[1] = m;
    long[] outputShape = c.attrs().getInts("output_shape", null);
    if (outputShape != null) {
      long[] sp;
      if (outputShape.length == spatial) {
        sp = outputShape;
      } else if (outputShape.length == xd.length) {
        if (outputShape[0] != xd[0] || outputShape[1] != m) {
          throw c.fail(
              "output_shape "
                  + Arrays.toString(outputShape)
                  + " disagrees with batch "
                  + xd[0]
                  + " and output channels "
                  + m);
        }
        sp = Arrays.copyOfRange(outputShape, 2, outputShape.length);
      } else {
        throw c.fail(
            "output_shape has "
                + outputShape.length
                + " values, expected "
                + spatial
                + " (spatial) or "
                + xd.length);
      }
      for (int i = 0; i < spatial; i++) {
        if (sp[i] < 1) {
          throw c.fail("output_shape " + Arrays.toString(outputShape) + " must be positive");
        }
        out[2 + i] = sp[i];
      }
      return new TensorType(Shape.of(out), x.dtype());
    }
    long[] pads = c.pads(spatial, autoPad);
    for (int i = 0; i < spatial; i++) {
      long extent = (kernel[i] - 1) * dilations[i] + 1;
      long o;
      if (autoPad.startsWith("SAME")) {
        o = xd[2 + i] * strides[i];
      } else {
        o = strides[i] * (xd[2 + i] - 1) + outputPadding[i] + extent - pads[i] - pads[spatial + i];
      }
      if (o < 1) {
        throw c.fail(
            "spatial dim "
                + i
                + " has output size "
                + o
                + " (input "
                + xd[2 + i]
                + ", kernel extent "
                + extent
                + ", pads "
                + Arrays.toString(pads)
                + ")");
      }
      out[2 + i] = o;
    }
    return new TensorType(Shape.of(out), x.dtype());
  }

  /**
   * MaxPool, AveragePool: X[N, C, D1..Dk]; attributes kernel_shape (required), strides, pads,
   * dilations, ceil_mode, auto_pad.
   */
  private static TensorType pool(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    int spatial = c.spatialRank(x, "X");
    long[] kernel = c.attrs().getInts("kernel_shape", null);
    if (kernel == null) {
      throw c.fail("attribute kernel_shape is required");
    }
    if (kernel.length != spatial) {
      throw c.fail(
          "kernel_shape "
              + Arrays.toString(kernel)
              + " has "
              + kernel.length
              + " values but X "
              + x.shape()
              + " has "
              + spatial
              + " spatial dims");
    }
    for (long k : kernel) {
      if (k < 1) {
        throw c.fail("kernel_shape " + Arrays.toString(kernel) + " must be positive");
      }
    }
    long[] strides = c.positiveInts("strides", spatial);
    long[] dilations = c.positiveInts("dilations", spatial);
    long ceilMode = c.attrs().getInt("ceil_mode", 0);
    if (ceilMode != 0 && ceilMode != 1) {
      throw c.fail("ceil_mode " + ceilMode + " must be 0 or 1");
    }
    if (c.op.kind() == OpKind.AVERAGE_POOL) {
      long cip = c.attrs().getInt("count_include_pad", 0);
      if (cip != 0 && cip != 1) {
        throw c.fail("count_include_pad " + cip + " must be 0 or 1");
      }
    } else {
      long order = c.attrs().getInt("storage_order", 0);
      if (order != 0 && order != 1) {
        throw c.fail("storage_order " + order + " must be 0 or 1");
      }
    }
    String autoPad = c.autoPad();
    long[] pads = c.pads(spatial, autoPad);
    long[] xd = x.shape().dims();
    long[] out = xd.clone();
    for (int i = 0; i < spatial; i++) {
      out[2 + i] =
          window(
              c,
              i,
              xd[2 + i],
              kernel[i],
              strides[i],
              dilations[i],
              pads,
              spatial,
              autoPad,
              ceilMode == 1);
    }
    return new TensorType(Shape.of(out), x.dtype());
  }

  /** Output size of one spatial axis of a sliding window (Conv, pooling). */
  private static long window(
      Ctx c,
      int axis,
      long in,
      long kernel,
      long stride,
      long dilation,
      long[] pads,
      int spatial,
      String autoPad,
      boolean ceil) {
    long extent = Math.addExact(Math.multiplyExact(kernel - 1, dilation), 1);
    if (autoPad.startsWith("SAME")) {
      return ceilDiv(in, stride);
    }
    long begin = pads[axis];
    long end = pads[spatial + axis];
    long span = in + begin + end - extent;
    if (span < 0) {
      throw c.fail(
          "spatial dim "
              + axis
              + ": kernel extent "
              + extent
              + " (kernel "
              + kernel
              + ", dilation "
              + dilation
              + ") exceeds padded input "
              + (in + begin + end));
    }
    if (!ceil) {
      return span / stride + 1;
    }
    long out = ceilDiv(span, stride) + 1;
    // the last window must start inside the input or the begin padding
    if ((out - 1) * stride >= in + begin) {
      out--;
    }
    return out;
  }

  /** GlobalAveragePool, GlobalMaxPool: X[N, C, D1..Dk] -> [N, C, 1..1]. */
  private static TensorType globalPool(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    c.spatialRank(x, "X");
    long[] out = x.shape().dims();
    for (int i = 2; i < out.length; i++) {
      out[i] = 1;
    }
    return new TensorType(Shape.of(out), x.dtype());
  }

  // ---------------------------------------------------------------- matrix products

  /** MatMul: numpy matmul (1-D operands promoted and the promoted dim removed; batch broadcast). */
  /**
   * MatMul, and TPU-MLIR's MatMul with a bias (top.MatMulOp's operand 2, which ONNX's MatMul does
   * not have): an optional third input of N elements (N = the output's last dim), put there by the
   * front end ({@code core.frontend.MatMulWithBias}).
   */
  private static TensorType matMul(Ctx c) {
    c.arity(2, 3);
    c.sameDtype(0, 1);
    long[] out = matMulDims(c);
    if (c.inputs.size() == 3) {
      long n = out.length == 0 ? 1 : out[out.length - 1];
      if (c.in(2).shape().elements() != n) {
        throw c.fail(
            "bias " + c.in(2).shape() + " must have " + n + " elements (output's last dim)");
      }
      c.sameDtype(0, 2);
    }
    return new TensorType(Shape.of(out), c.in(0).dtype());
  }

  /**
   * MatMulInteger: A and B of I8/U8 multiplied as MatMul, optional zero points a_zero_point (a
   * scalar or one per row of A) and b_zero_point (a scalar or one per column of B); the result is
   * I32.
   */
  private static TensorType matMulInteger(Ctx c) {
    c.arity(2, 4);
    c.requireByte(0);
    c.requireByte(1);
    long[] out = matMulDims(c);
    Shape a = c.in(0).shape();
    Shape b = c.in(1).shape();
    if (c.inputs.size() > 2) {
      c.zeroPoint(2, 0, a.rank() == 1 ? 1 : a.dim(-2));
    }
    if (c.inputs.size() > 3) {
      c.zeroPoint(3, 1, b.rank() == 1 ? 1 : b.dim(-1));
    }
    return new TensorType(Shape.of(out), DType.I32);
  }

  /**
   * The operand positions of a {@link OpKind#ATTENTION}: input, Wq, bq?, Wk, bk?, Wv, bv?, Wo, bo?,
   * mask?, with the optional ones present as {@code has_bias} (bits 0 to 3) and {@code has_mask}
   * say; -1 for an absent one. Indices: 0 input, 1 Wq, 2 bq, 3 Wk, 4 bk, 5 Wv, 6 bv, 7 Wo, 8 bo, 9
   * mask.
   */
  public static int[] attentionOperands(Attributes attrs) {
    long bias = attrs.getInt("has_bias", 0);
    int[] at = new int[10];
    int k = 0;
    at[0] = k++;
    for (int w = 0; w < 4; w++) {
      at[1 + 2 * w] = k++;
      at[2 + 2 * w] = (bias >> w & 1) != 0 ? k++ : -1;
    }
    at[9] = attrs.getInt("has_mask", 0) != 0 ? k++ : -1;
    return at;
  }

  /**
   * Attention (one head of TPU-MLIR's {@code tpu.AttentionOp}): input {@code [.., M, N]}, Wq, Wk,
   * Wv {@code [N, d]}, Wo {@code [d, N_out]}, biases of {@code d} and {@code N_out} elements; the
   * result is the input's shape with its last dim {@code N_out}, in the input's type.
   */
  private static TensorType attention(Ctx c) {
    int[] at = attentionOperands(c.attrs());
    int n = 1;
    for (int i : at) {
      n = Math.max(n, i + 1);
    }
    c.arity(n, n);
    Shape x = c.in(0).shape();
    if (x.rank() < 2) {
      throw c.fail("input must have rank >= 2, got " + x);
    }
    long d = -1;
    for (int w = 1; w <= 5; w += 2) {
      Shape s = c.in(at[w]).shape();
      if (s.rank() != 2 || s.dim(0) != x.dim(-1) || (d >= 0 && s.dim(1) != d)) {
        throw c.fail("q/k/v weight " + s + " must be [" + x.dim(-1) + ", d] with one d");
      }
      d = s.dim(1);
    }
    Shape o = c.in(at[7]).shape();
    if (o.rank() != 2 || o.dim(0) != d) {
      throw c.fail("out weight " + o + " must be [" + d + ", N]");
    }
    for (int b = 2; b <= 8; b += 2) {
      long want = b == 8 ? o.dim(1) : d;
      if (at[b] >= 0 && c.in(at[b]).shape().elements() != want) {
        throw c.fail("bias " + c.in(at[b]).shape() + " must have " + want + " elements");
      }
    }
    long[] out = x.dims().clone();
    out[out.length - 1] = o.dim(1);
    return new TensorType(Shape.of(out), c.in(0).dtype());
  }

  /** The output dims of MatMul and MatMulInteger: A is input 0, B input 1. */
  private static long[] matMulDims(Ctx c) {
    TensorType a = c.in(0);
    TensorType b = c.in(1);
    long[] ad = a.shape().dims();
    long[] bd = b.shape().dims();
    if (ad.length == 0 || bd.length == 0) {
      throw c.fail("operands must have rank >= 1, got " + a.shape() + " and " + b.shape());
    }
    boolean aVec = ad.length == 1;
    boolean bVec = bd.length == 1;
    if (aVec) {
      ad = new long[] {1, ad[0]};
    }
    if (bVec) {
      bd = new long[] {bd[0], 1};
    }
    long k = ad[ad.length - 1];
    if (k != bd[bd.length - 2]) {
      throw c.fail(
          "inner dimensions differ: A "
              + a.shape()
              + " has "
              + k
              + " columns, B "
              + b.shape()
              + " has "
              + bd[bd.length - 2]
              + " rows");
    }
    long[] batch =
        broadcast(
            c,
            Arrays.copyOf(ad, ad.length - 2),
            Arrays.copyOf(bd, bd.length - 2),
            "batch dims of A " + a.shape() + " and B " + b.shape());
    long[] out = Arrays.copyOf(batch, batch.length + 2);
    out[batch.length] = ad[ad.length - 2];
    out[batch.length + 1] = bd[bd.length - 1];
    if (aVec && bVec) {
      out = Arrays.copyOf(out, out.length - 2);
    } else if (aVec) {
      out = remove(out, out.length - 2);
    } else if (bVec) {
      out = Arrays.copyOf(out, out.length - 1);
    }
    return out;
  }

  /** Gemm: A[M,K] (or [K,M] with transA), B[K,N] (or [N,K] with transB), optional C -> [M,N]. */
  private static TensorType gemm(Ctx c) {
    c.arity(2, 3);
    TensorType a = c.in(0);
    TensorType b = c.in(1);
    c.sameDtype(0, 1);
    if (a.shape().rank() != 2 || b.shape().rank() != 2) {
      throw c.fail("A and B must be 2-D, got " + a.shape() + " and " + b.shape());
    }
    long transA = c.flag("transA");
    long transB = c.flag("transB");
    long m = a.shape().dim(transA == 1 ? 1 : 0);
    long ka = a.shape().dim(transA == 1 ? 0 : 1);
    long kb = b.shape().dim(transB == 1 ? 1 : 0);
    long n = b.shape().dim(transB == 1 ? 0 : 1);
    if (ka != kb) {
      throw c.fail(
          "inner dimensions differ: A "
              + a.shape()
              + (transA == 1 ? " (transposed)" : "")
              + " gives K="
              + ka
              + ", B "
              + b.shape()
              + (transB == 1 ? " (transposed)" : "")
              + " gives K="
              + kb);
    }
    long[] out = {m, n};
    if (c.inputs.size() == 3) {
      c.sameDtype(0, 2);
      c.unidirectional(
          c.in(2).shape().dims(), out, "C " + c.in(2).shape(), "output " + m + "x" + n);
    }
    return new TensorType(Shape.of(out), a.dtype());
  }

  // ---------------------------------------------------------------- elementwise

  /** Add, Sub, Mul, Div, Pow: two operands, multidirectional broadcasting. */
  private static TensorType binary(Ctx c, boolean pow) {
    c.arity(2, 2);
    TensorType a = c.in(0);
    TensorType b = c.in(1);
    if (!pow) {
      c.sameDtype(0, 1);
    }
    long[] out =
        broadcast(
            c, a.shape().dims(), b.shape().dims(), "shapes " + a.shape() + " and " + b.shape());
    return new TensorType(Shape.of(out), a.dtype());
  }

  /** Mod: as Add, with attribute fmod (0 or 1), which must be 1 for floating-point operands. */
  private static TensorType mod(Ctx c) {
    long fmod = c.flag("fmod");
    if (c.inputs.size() > 0 && c.in(0).dtype().isFloatingPoint() && fmod != 1) {
      throw c.fail("fmod must be 1 for floating-point operands");
    }
    return binary(c, false);
  }

  /** Max, Min: one or more operands of one dtype, multidirectional broadcasting. */
  private static TensorType variadic(Ctx c) {
    c.arity(1, Integer.MAX_VALUE);
    long[] out = c.in(0).shape().dims();
    for (int i = 1; i < c.inputs.size(); i++) {
      c.sameDtype(0, i);
      out =
          broadcast(
              c,
              out,
              c.in(i).shape().dims(),
              "shapes " + Shape.of(out) + " and input " + i + " " + c.in(i).shape());
    }
    return new TensorType(Shape.of(out), c.in(0).dtype());
  }

  // ---------------------------------------------------------------- quantization

  /**
   * QuantizeLinear: x, y_scale, optional y_zero_point (whose dtype is the result's, U8 without it);
   * attribute axis (default 1) for per-axis scales. Blocked quantization (opset 21 block_size) is
   * rejected.
   */
  private static TensorType quantizeLinear(Ctx c) {
    c.arity(2, 3);
    TensorType x = c.in(0);
    checkQuantParams(c, x);
    DType out = c.inputs.size() == 3 ? c.in(2).dtype() : DType.U8;
    if (out.isFloatingPoint() || out == DType.BOOL) {
      throw c.fail("y_zero_point has dtype " + out + ", expected an integer type");
    }
    return new TensorType(x.shape(), out);
  }

  /**
   * DequantizeLinear: x (integer), x_scale, optional x_zero_point of x's dtype; attribute axis
   * (default 1). The result has the scale's dtype (F32, or F16 from opset 19).
   */
  private static TensorType dequantizeLinear(Ctx c) {
    c.arity(2, 3);
    TensorType x = c.in(0);
    if (x.dtype().isFloatingPoint() || x.dtype() == DType.BOOL) {
      throw c.fail("x has dtype " + x.dtype() + ", expected an integer type");
    }
    checkQuantParams(c, x);
    if (c.inputs.size() == 3) {
      c.sameDtype(0, 2);
    }
    return new TensorType(x.shape(), c.in(1).dtype());
  }

  /** Scale (input 1) and optional zero point (input 2): per tensor or one value per axis. */
  private static void checkQuantParams(Ctx c, TensorType x) {
    if (c.attrs().getInt("block_size", 0) != 0) {
      throw c.fail("blocked quantization (block_size) is not supported");
    }
    TensorType scale = c.in(1);
    if (!scale.dtype().isFloatingPoint()) {
      throw c.fail("scale has dtype " + scale.dtype() + ", expected a floating-point type");
    }
    for (int i = 1; i < c.inputs.size(); i++) {
      Shape s = c.in(i).shape();
      if (s.rank() > 1) {
        throw c.fail("input " + i + " " + s + " must be a scalar or 1-D");
      }
      if (s.rank() == 1 && s.dim(0) != 1) {
        int r = x.shape().rank();
        int a = c.axis(c.attrs().getInt("axis", 1), r, "axis");
        if (s.dim(0) != x.shape().dim(a)) {
          throw c.fail(
              "input " + i + " " + s + " must have one value per dim " + a + " of " + x.shape());
        }
      }
      if (i == 2 && !c.in(2).shape().equals(scale.shape())) {
        throw c.fail("zero point " + c.in(2).shape() + " and scale " + scale.shape() + " differ");
      }
    }
  }

  /**
   * DynamicQuantizeLinear: x (F32) to y (U8, x's shape), y_scale (F32 scalar) and y_zero_point (U8
   * scalar).
   */
  private static List<TensorType> dynamicQuantizeLinear(Ctx c) {
    c.arity(1, 1);
    c.requireDtype(0, DType.F32);
    return List.of(
        new TensorType(c.in(0).shape(), DType.U8),
        new TensorType(Shape.scalar(), DType.F32),
        new TensorType(Shape.scalar(), DType.U8));
  }

  /** Equal, Less, LessOrEqual, Greater, GreaterOrEqual: one dtype, broadcast, BOOL result. */
  private static TensorType compare(Ctx c) {
    c.arity(2, 2);
    c.sameDtype(0, 1);
    return new TensorType(broadcastInputs(c), DType.BOOL);
  }

  /** And, Or, Xor: BOOL operands, broadcast. */
  private static TensorType logical(Ctx c) {
    c.arity(2, 2);
    c.requireDtype(0, DType.BOOL);
    c.requireDtype(1, DType.BOOL);
    return new TensorType(broadcastInputs(c), DType.BOOL);
  }

  private static TensorType not(Ctx c) {
    c.arity(1, 1);
    c.requireDtype(0, DType.BOOL);
    return c.in(0);
  }

  /** Where: condition (BOOL), X, Y of one dtype; the three broadcast together. */
  private static TensorType where(Ctx c) {
    c.arity(3, 3);
    c.requireDtype(0, DType.BOOL);
    c.sameDtype(1, 2);
    return new TensorType(broadcastInputs(c), c.in(1).dtype());
  }

  /** The multidirectional broadcast of all inputs' shapes. */
  private static Shape broadcastInputs(Ctx c) {
    long[] out = c.in(0).shape().dims();
    for (int i = 1; i < c.inputs.size(); i++) {
      out =
          broadcast(
              c,
              out,
              c.in(i).shape().dims(),
              "shapes " + Shape.of(out) + " and input " + i + " " + c.in(i).shape());
    }
    return Shape.of(out);
  }

  private static TensorType unary(Ctx c) {
    c.arity(1, 1);
    return c.in(0);
  }

  /** Cast: attribute {@code to} (required), an ONNX element-type code; the shape is kept. */
  private static TensorType cast(Ctx c) {
    c.arity(1, 1);
    if (!c.attrs().has("to")) {
      throw c.fail("attribute to is required");
    }
    long to = c.attrs().getInt("to", 0);
    return new TensorType(c.in(0).shape(), DType.fromOnnxCode(to));
  }

  private static TensorType unaryWithAttrs(Ctx c) {
    c.arity(1, 1);
    switch (c.op.kind()) {
      case LEAKY_RELU -> c.attrs().getFloat("alpha", 0.01);
      case HARD_SIGMOID -> {
        c.attrs().getFloat("alpha", 0.2);
        c.attrs().getFloat("beta", 0.5);
      }
      case GELU -> {
        String approx = c.attrs().getString("approximate", "none");
        if (!approx.equals("none") && !approx.equals("tanh")) {
          throw c.fail("approximate '" + approx + "' must be 'none' or 'tanh'");
        }
      }
      default -> throw new AssertionError(c.op.kind());
    }
    return c.in(0);
  }

  /** Clip: bounds as attributes min/max (opset 6) or as optional scalar inputs (opset 11+). */
  private static TensorType clip(Ctx c) {
    c.arity(1, 3);
    boolean attrBounds = c.attrs().has("min") || c.attrs().has("max");
    if (attrBounds && c.inputs.size() > 1) {
      throw c.fail("bounds given both as attributes and as inputs");
    }
    if (attrBounds) {
      c.attrs().getFloat("min", Double.NEGATIVE_INFINITY);
      c.attrs().getFloat("max", Double.POSITIVE_INFINITY);
    }
    for (int i = 1; i < c.inputs.size(); i++) {
      if (c.in(i).shape().elements() != 1 || c.in(i).shape().rank() > 1) {
        throw c.fail("bound input " + i + " must be a scalar, got " + c.in(i).shape());
      }
      c.sameDtype(0, i);
    }
    return c.in(0);
  }

  // ---------------------------------------------------------------- normalization

  /** BatchNormalization (inference): X[N, C, ...], scale, B, mean, var each [C]. */
  private static TensorType batchNorm(Ctx c) {
    c.arity(5, 5);
    TensorType x = c.in(0);
    if (x.shape().rank() < 2) {
      throw c.fail("X must have rank >= 2 (N, C, ...), got " + x.shape());
    }
    if (c.attrs().getInt("training_mode", 0) != 0) {
      throw c.fail("training_mode is not supported (only inference BatchNormalization)");
    }
    c.attrs().getFloat("epsilon", 1e-5);
    c.attrs().getFloat("momentum", 0.9);
    long channels = x.shape().dim(1);
    String[] names = {"scale", "B", "mean", "var"};
    for (int i = 1; i < 5; i++) {
      Shape s = c.in(i).shape();
      if (s.rank() != 1 || s.dim(0) != channels) {
        throw c.fail(
            names[i - 1]
                + " "
                + s
                + " must be ["
                + channels
                + "] (channels of X "
                + x.shape()
                + ")");
      }
    }
    return x;
  }

  /**
   * LayerNormalization: X, Scale, optional B; attribute axis (default -1): X's dims from axis on
   * are normalized, and Scale and B must broadcast (unidirectionally) to them.
   */
  private static TensorType layerNorm(Ctx c) {
    // X alone is TPU-MLIR's LayerNorm without affine parameters (its weight and bias may be
    // none), which the front end makes of a decomposed torch LayerNorm (core.frontend.OnnxOpt)
    c.arity(1, 3);
    TensorType x = c.in(0);
    int r = x.shape().rank();
    long axis = c.attrs().getInt("axis", -1);
    int a = c.axis(axis, r, "axis");
    c.attrs().getFloat("epsilon", 1e-5);
    if (c.inputs.size() == 1) {
      return x;
    }
    long[] normalized = Arrays.copyOfRange(x.shape().dims(), a, r);
    String target = "normalized dims " + Shape.of(normalized) + " of X " + x.shape();
    c.sameDtype(0, 1);
    c.unidirectional(c.in(1).shape().dims(), normalized, "Scale " + c.in(1).shape(), target);
    if (c.inputs.size() == 3) {
      c.sameDtype(0, 2);
      c.unidirectional(c.in(2).shape().dims(), normalized, "B " + c.in(2).shape(), target);
    }
    return x;
  }

  /** Softmax: attribute axis (default -1, opset 13). */
  private static TensorType softmax(Ctx c) {
    c.arity(1, 1);
    c.axis(c.attrs().getInt("axis", -1), c.in(0).shape().rank(), "axis");
    return c.in(0);
  }

  // ---------------------------------------------------------------- reductions

  /**
   * ReduceMean and the other reductions: attribute axes (optional, moved from the opset-18 input),
   * keepdims (default 1), noop_with_empty_axes (default 0). Without axes every dim is reduced, or
   * none when noop_with_empty_axes is 1. The dtype is kept.
   */
  private static TensorType reduce(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    long[] d = x.shape().dims();
    long keepDims = c.flag("keepdims", 1);
    long noop = c.flag("noop_with_empty_axes", 0);
    long[] axes = c.attrs().getInts("axes", new long[0]);
    boolean[] reduced = new boolean[d.length];
    if (axes.length == 0) {
      if (noop == 1) {
        return x;
      }
      Arrays.fill(reduced, true);
    } else {
      for (int a : c.uniqueAxes(axes, d.length, "axes")) {
        reduced[a] = true;
      }
    }
    return new TensorType(Shape.of(reducedDims(d, reduced, keepDims == 1)), x.dtype());
  }

  /** ArgMax, ArgMin: attributes axis (default 0), keepdims (default 1); I64 indices. */
  private static TensorType argReduce(Ctx c) {
    c.arity(1, 1);
    long[] d = c.in(0).shape().dims();
    long keepDims = c.flag("keepdims", 1);
    c.flag("select_last_index", 0);
    if (d.length == 0) {
      throw c.fail("X must have rank >= 1, got a scalar");
    }
    boolean[] reduced = new boolean[d.length];
    reduced[c.axis(c.attrs().getInt("axis", 0), d.length, "axis")] = true;
    return new TensorType(Shape.of(reducedDims(d, reduced, keepDims == 1)), DType.I64);
  }

  private static long[] reducedDims(long[] d, boolean[] reduced, boolean keepDims) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < d.length; i++) {
      if (!reduced[i]) {
        out.add(d[i]);
      } else if (keepDims) {
        out.add(1L);
      }
    }
    return out.stream().mapToLong(Long::longValue).toArray();
  }

  // ---------------------------------------------------------------- shape and data movement

  /** Concat: attribute axis (required); all other dims equal. */
  private static TensorType concat(Ctx c) {
    c.arity(1, Integer.MAX_VALUE);
    if (!c.attrs().has("axis")) {
      throw c.fail("attribute axis is required");
    }
    TensorType first = c.in(0);
    int r = first.shape().rank();
    int a = c.axis(c.attrs().getInt("axis", 0), r, "axis");
    long[] out = first.shape().dims();
    for (int i = 1; i < c.inputs.size(); i++) {
      TensorType t = c.in(i);
      c.sameDtype(0, i);
      if (t.shape().rank() != r) {
        throw c.fail(
            "input "
                + i
                + " "
                + t.shape()
                + " has rank "
                + t.shape().rank()
                + ", input 0 "
                + first.shape()
                + " has rank "
                + r);
      }
      for (int d = 0; d < r; d++) {
        if (d != a && t.shape().dim(d) != out[d]) {
          throw c.fail(
              "input "
                  + i
                  + " "
                  + t.shape()
                  + " differs from input 0 "
                  + first.shape()
                  + " in dim "
                  + d
                  + " (concat axis "
                  + a
                  + ")");
        }
      }
      out[a] = Math.addExact(out[a], t.shape().dim(a));
    }
    return new TensorType(Shape.of(out), first.dtype());
  }

  /**
   * Expand: attribute shape (required, moved from the input); the input and shape broadcast
   * multidirectionally, so a 1 in shape keeps the input's dim.
   */
  private static TensorType expand(Ctx c) {
    c.arity(1, 1);
    long[] shape = c.attrs().getInts("shape", null);
    if (shape == null) {
      throw c.fail("attribute shape is required");
    }
    for (long s : shape) {
      if (s < 0) {
        throw c.fail("shape " + Arrays.toString(shape) + " must be >= 0");
      }
    }
    TensorType x = c.in(0);
    long[] out =
        broadcast(
            c,
            x.shape().dims(),
            shape,
            "input " + x.shape() + " and shape " + Arrays.toString(shape));
    return new TensorType(Shape.of(out), x.dtype());
  }

  /** Tile: attribute repeats (required, moved from the input), one non-negative value per dim. */
  private static TensorType tile(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    long[] d = x.shape().dims();
    long[] repeats = c.attrs().getInts("repeats", null);
    if (repeats == null) {
      throw c.fail("attribute repeats is required");
    }
    if (repeats.length != d.length) {
      throw c.fail(
          "repeats "
              + Arrays.toString(repeats)
              + " has "
              + repeats.length
              + " values, input "
              + x.shape()
              + " has rank "
              + d.length);
    }
    for (int i = 0; i < d.length; i++) {
      if (repeats[i] < 0) {
        throw c.fail("repeats " + Arrays.toString(repeats) + " must be >= 0");
      }
      d[i] = Math.multiplyExact(d[i], repeats[i]);
    }
    return new TensorType(Shape.of(d), x.dtype());
  }

  /**
   * Split: attribute axis (default 0) and either split (the piece sizes, moved from the opset-13
   * input) or num_outputs (opset 18: pieces of ceil(dim / n), the last one smaller); with neither,
   * the dim must divide evenly into one piece per output.
   */
  private static List<TensorType> split(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    long[] d = x.shape().dims();
    if (d.length == 0) {
      throw c.fail("input must have rank >= 1, got a scalar");
    }
    int a = c.axis(c.attrs().getInt("axis", 0), d.length, "axis");
    int n = c.op.outputs().size();
    long dim = d[a];
    long[] split = c.attrs().getInts("split", null);
    long numOutputs = c.attrs().getInt("num_outputs", n);
    if (numOutputs != n) {
      throw c.fail("num_outputs " + numOutputs + " but the op defines " + n + " outputs");
    }
    long[] sizes = new long[n];
    if (split != null) {
      if (split.length != n) {
        throw c.fail(
            "split "
                + Arrays.toString(split)
                + " has "
                + split.length
                + " values but the op defines "
                + n
                + " outputs");
      }
      long sum = 0;
      for (long s : split) {
        if (s < 0) {
          throw c.fail("split " + Arrays.toString(split) + " must be >= 0");
        }
        sum = Math.addExact(sum, s);
      }
      if (sum != dim) {
        throw c.fail(
            "split "
                + Arrays.toString(split)
                + " sums to "
                + sum
                + " but dim "
                + a
                + " of "
                + x.shape()
                + " is "
                + dim);
      }
      sizes = split;
    } else if (c.attrs().has("num_outputs")) {
      long chunk = ceilDiv(dim, n);
      for (int i = 0; i < n; i++) {
        sizes[i] = Math.max(0, Math.min(chunk, dim - i * chunk));
      }
    } else {
      if (dim % n != 0) {
        throw c.fail(
            "dim "
                + a
                + " of "
                + x.shape()
                + " does not split evenly into "
                + n
                + " outputs (give split or num_outputs)");
      }
      Arrays.fill(sizes, dim / n);
    }
    List<TensorType> out = new ArrayList<>();
    for (long s : sizes) {
      d[a] = s;
      out.add(new TensorType(Shape.of(d), x.dtype()));
    }
    return out;
  }

  /**
   * Reshape: attribute shape; 0 copies the input dim at the same index (unless allowzero=1, when it
   * is a literal 0), one -1 is inferred from the element count.
   */
  private static TensorType reshape(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    long[] shape = c.attrs().getInts("shape", null);
    if (shape == null) {
      throw c.fail("attribute shape is required");
    }
    long allowZero = c.flag("allowzero");
    long[] in = x.shape().dims();
    long[] out = shape.clone();
    int inferred = -1;
    boolean hasZero = false;
    long known = 1;
    for (int i = 0; i < out.length; i++) {
      long d = out[i];
      if (d == -1) {
        if (inferred >= 0) {
          throw c.fail("shape " + Arrays.toString(shape) + " has more than one -1");
        }
        inferred = i;
        continue;
      }
      if (d < -1) {
        throw c.fail("shape " + Arrays.toString(shape) + " has invalid dim " + d);
      }
      if (d == 0) {
        hasZero = true;
        if (allowZero == 0) {
          if (i >= in.length) {
            throw c.fail(
                "shape "
                    + Arrays.toString(shape)
                    + " copies dim "
                    + i
                    + " (0) but X "
                    + x.shape()
                    + " has rank "
                    + in.length);
          }
          out[i] = in[i];
        }
      }
      known = Math.multiplyExact(known, out[i]);
    }
    if (allowZero == 1 && hasZero && inferred >= 0) {
      throw c.fail("shape " + Arrays.toString(shape) + " has both 0 and -1 with allowzero=1");
    }
    long elements = x.shape().elements();
    if (inferred >= 0) {
      if (known == 0 || elements % known != 0) {
        throw c.fail(
            "cannot infer the -1 of shape "
                + Arrays.toString(shape)
                + " from X "
                + x.shape()
                + " ("
                + elements
                + " elements)");
      }
      out[inferred] = elements / known;
    } else if (known != elements) {
      throw c.fail(
          "shape "
              + Arrays.toString(shape)
              + " resolves to "
              + Shape.of(out)
              + " ("
              + known
              + " elements) but X "
              + x.shape()
              + " has "
              + elements);
    }
    return new TensorType(Shape.of(out), x.dtype());
  }

  /** Flatten: attribute axis in [-r, r] (default 1) -> [prod(d[:axis]), prod(d[axis:])]. */
  private static TensorType flatten(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    int r = x.shape().rank();
    long axis = c.attrs().getInt("axis", 1);
    if (axis < -r || axis > r) {
      throw c.fail("axis " + axis + " out of range [" + -r + ", " + r + "] for X " + x.shape());
    }
    int a = (int) (axis < 0 ? axis + r : axis);
    long[] d = x.shape().dims();
    long outer = 1;
    long inner = 1;
    for (int i = 0; i < r; i++) {
      if (i < a) {
        outer = Math.multiplyExact(outer, d[i]);
      } else {
        inner = Math.multiplyExact(inner, d[i]);
      }
    }
    return new TensorType(Shape.of(outer, inner), x.dtype());
  }

  /**
   * Squeeze: attribute axes (optional; all size-1 dims when absent); each squeezed dim must be 1.
   */
  private static TensorType squeeze(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    long[] d = x.shape().dims();
    long[] axes = c.attrs().getInts("axes", null);
    boolean[] drop = new boolean[d.length];
    if (axes == null) {
      for (int i = 0; i < d.length; i++) {
        drop[i] = d[i] == 1;
      }
    } else {
      for (int i : c.uniqueAxes(axes, d.length, "axes")) {
        if (d[i] != 1) {
          throw c.fail("cannot squeeze dim " + i + " of size " + d[i] + " (X " + x.shape() + ")");
        }
        drop[i] = true;
      }
    }
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < d.length; i++) {
      if (!drop[i]) {
        out.add(d[i]);
      }
    }
    return new TensorType(Shape.of(out.stream().mapToLong(Long::longValue).toArray()), x.dtype());
  }

  /** Unsqueeze: attribute axes (required), indices into the output. */
  private static TensorType unsqueeze(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    long[] axes = c.attrs().getInts("axes", null);
    if (axes == null || axes.length == 0) {
      throw c.fail("attribute axes is required and non-empty");
    }
    long[] d = x.shape().dims();
    int outRank = d.length + axes.length;
    boolean[] inserted = new boolean[outRank];
    for (int i : c.uniqueAxes(axes, outRank, "axes")) {
      inserted[i] = true;
    }
    long[] out = new long[outRank];
    int k = 0;
    for (int i = 0; i < outRank; i++) {
      out[i] = inserted[i] ? 1 : d[k++];
    }
    return new TensorType(Shape.of(out), x.dtype());
  }

  /** Transpose: attribute perm (default: reversed dims), a permutation of 0..r-1. */
  private static TensorType transpose(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    long[] d = x.shape().dims();
    long[] perm = c.attrs().getInts("perm", null);
    if (perm == null) {
      perm = new long[d.length];
      for (int i = 0; i < d.length; i++) {
        perm[i] = d.length - 1 - i;
      }
    }
    if (perm.length != d.length) {
      throw c.fail(
          "perm "
              + Arrays.toString(perm)
              + " has "
              + perm.length
              + " values, X "
              + x.shape()
              + " has rank "
              + d.length);
    }
    boolean[] seen = new boolean[d.length];
    long[] out = new long[d.length];
    for (int i = 0; i < perm.length; i++) {
      long p = perm[i];
      if (p < 0 || p >= d.length || seen[(int) p]) {
        throw c.fail(
            "perm " + Arrays.toString(perm) + " is not a permutation of 0.." + (d.length - 1));
      }
      seen[(int) p] = true;
      out[i] = d[(int) p];
    }
    return new TensorType(Shape.of(out), x.dtype());
  }

  /**
   * DepthToSpace: X {@code [N, C, H, W]} (rank 4, as ONNX's shape inference requires), attribute
   * blocksize b (required, >= 1, C divisible by b²) and mode DCR (default) or CRD; Y {@code [N, C /
   * b², H·b, W·b]} in either mode, the modes differing only in which channel each element leaves.
   */
  private static TensorType depthToSpace(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    if (x.shape().rank() != 4) {
      throw c.fail("X " + x.shape() + " must be [N, C, H, W] (rank 4)");
    }
    String mode = c.attrs().getString("mode", "DCR");
    if (!mode.equals("DCR") && !mode.equals("CRD")) {
      throw c.fail("mode " + InputText.quote(mode) + " must be DCR or CRD");
    }
    if (!c.attrs().has("blocksize")) {
      throw c.fail("attribute blocksize is required");
    }
    long b = c.attrs().getInt("blocksize", 0);
    if (b < 1) {
      throw c.fail("blocksize " + b + " must be >= 1");
    }
    long[] d = x.shape().dims();
    long area = Math.multiplyExact(b, b);
    if (d[1] % area != 0) {
      throw c.fail(
          "X "
              + x.shape()
              + " has "
              + d[1]
              + " channels, not a multiple of blocksize² = "
              + area
              + " (blocksize "
              + b
              + ")");
    }
    long[] out = {d[0], d[1] / area, Math.multiplyExact(d[2], b), Math.multiplyExact(d[3], b)};
    return new TensorType(Shape.of(out), x.dtype());
  }

  /** Upsample (opset 9): attribute scales (one per dim, each >= 1); output dim floor(d * scale). */
  private static TensorType upsample(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    String mode = c.attrs().getString("mode", "nearest");
    if (!Set.of("nearest", "linear", "bilinear").contains(mode)) {
      throw c.fail("mode " + InputText.quote(mode) + " must be nearest, linear or bilinear");
    }
    double[] scales = c.attrs().getFloats("scales", null);
    if (scales == null) {
      throw c.fail("attribute scales is required");
    }
    for (double s : scales) {
      if (!(s >= 1)) {
        throw c.fail("scales " + Arrays.toString(scales) + " must all be >= 1");
      }
    }
    return new TensorType(Shape.of(scaled(c, x.shape().dims(), scales, null)), x.dtype());
  }

  /**
   * Resize: exactly one of the attributes scales (floats, output dim floor(d * scale)) or sizes
   * (ints), optionally restricted to attribute axes; keep_aspect_ratio_policy applies to sizes.
   */
  private static TensorType resize(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    String mode = c.attrs().getString("mode", "nearest");
    if (!Set.of("nearest", "linear", "cubic").contains(mode)) {
      throw c.fail("mode " + InputText.quote(mode) + " must be nearest, linear or cubic");
    }
    long[] d = x.shape().dims();
    long[] axesAttr = c.attrs().getInts("axes", null);
    int[] axes;
    if (axesAttr == null) {
      axes = new int[d.length];
      for (int i = 0; i < d.length; i++) {
        axes[i] = i;
      }
    } else {
      axes = c.uniqueAxes(axesAttr, d.length, "axes");
    }
    double[] scales = c.attrs().getFloats("scales", null);
    long[] sizes = c.attrs().getInts("sizes", null);
    if ((scales == null) == (sizes == null)) {
      throw c.fail("exactly one of the attributes scales and sizes is required");
    }
    if (scales != null) {
      if (scales.length != axes.length) {
        throw c.fail(
            "scales "
                + Arrays.toString(scales)
                + " has "
                + scales.length
                + " values, expected "
                + axes.length);
      }
      for (double s : scales) {
        if (!(s > 0)) {
          throw c.fail("scales " + Arrays.toString(scales) + " must all be > 0");
        }
      }
      return new TensorType(Shape.of(scaled(c, d, scales, axes)), x.dtype());
    }
    if (sizes.length != axes.length) {
      throw c.fail(
          "sizes "
              + Arrays.toString(sizes)
              + " has "
              + sizes.length
              + " values, expected "
              + axes.length);
    }
    for (long s : sizes) {
      if (s < 1) {
        throw c.fail("sizes " + Arrays.toString(sizes) + " must all be >= 1");
      }
    }
    String policy = c.attrs().getString("keep_aspect_ratio_policy", "stretch");
    long[] out = d.clone();
    switch (policy) {
      case "stretch" -> {
        for (int i = 0; i < axes.length; i++) {
          out[axes[i]] = sizes[i];
        }
      }
      case "not_larger", "not_smaller" -> {
        double scale = policy.equals("not_larger") ? Double.POSITIVE_INFINITY : 0;
        for (int i = 0; i < axes.length; i++) {
          double s = (double) sizes[i] / d[axes[i]];
          scale = policy.equals("not_larger") ? Math.min(scale, s) : Math.max(scale, s);
        }
        for (int axis : axes) {
          out[axis] = (long) Math.floor(scale * d[axis] + 0.5);
        }
      }
      default ->
          throw c.fail(
              "keep_aspect_ratio_policy '"
                  + policy
                  + "' must be stretch, not_larger or not_smaller");
    }
    return new TensorType(Shape.of(out), x.dtype());
  }

  private static long[] scaled(Ctx c, long[] d, double[] scales, int[] axes) {
    if (axes == null && scales.length != d.length) {
      throw c.fail(
          "scales "
              + Arrays.toString(scales)
              + " has "
              + scales.length
              + " values, X has rank "
              + d.length);
    }
    long[] out = d.clone();
    for (int i = 0; i < scales.length; i++) {
      int axis = axes == null ? i : axes[i];
      out[axis] = (long) Math.floor(d[axis] * scales[i]);
    }
    return out;
  }

  /**
   * Pad: attribute pads [x1_begin, x2_begin, ..., x1_end, x2_end, ...] (negative values crop),
   * optional axes, mode constant/reflect/edge/wrap.
   */
  private static TensorType pad(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    String mode = c.attrs().getString("mode", "constant");
    if (!Set.of("constant", "reflect", "edge", "wrap").contains(mode)) {
      throw c.fail("mode " + InputText.quote(mode) + " must be constant, reflect, edge or wrap");
    }
    c.attrs().getFloat("constant_value", 0);
    long[] d = x.shape().dims();
    long[] pads = c.attrs().getInts("pads", null);
    if (pads == null) {
      throw c.fail("attribute pads is required");
    }
    long[] axesAttr = c.attrs().getInts("axes", null);
    int[] axes;
    if (axesAttr == null) {
      axes = new int[d.length];
      for (int i = 0; i < d.length; i++) {
        axes[i] = i;
      }
    } else {
      axes = c.uniqueAxes(axesAttr, d.length, "axes");
    }
    if (pads.length != 2 * axes.length) {
      throw c.fail(
          "pads "
              + Arrays.toString(pads)
              + " has "
              + pads.length
              + " values, expected "
              + 2 * axes.length
              + " for X "
              + x.shape());
    }
    long[] out = d.clone();
    for (int i = 0; i < axes.length; i++) {
      int a = axes[i];
      long o = d[a] + pads[i] + pads[axes.length + i];
      if (o < 0) {
        throw c.fail(
            "pads "
                + Arrays.toString(pads)
                + " crop dim "
                + a
                + " of size "
                + d[a]
                + " below zero");
      }
      if (!mode.equals("constant") && d[a] == 0 && o > 0) {
        throw c.fail("mode " + mode + " cannot pad empty dim " + a);
      }
      out[a] = o;
    }
    return new TensorType(Shape.of(out), x.dtype());
  }

  /**
   * Slice: attributes starts, ends (required), axes, steps, with ONNX's clamping: negative indices
   * count from the end; for a positive step start and end are clamped to [0, dim], for a negative
   * step start to [0, dim-1] and end to [-1, dim-1]; the size is max(0, ceil((end-start)/step)).
   */
  private static TensorType slice(Ctx c) {
    c.arity(1, 1);
    TensorType x = c.in(0);
    long[] d = x.shape().dims();
    long[] starts = c.attrs().getInts("starts", null);
    long[] ends = c.attrs().getInts("ends", null);
    if (starts == null || ends == null) {
      throw c.fail("attributes starts and ends are required");
    }
    if (starts.length != ends.length) {
      throw c.fail(
          "starts "
              + Arrays.toString(starts)
              + " and ends "
              + Arrays.toString(ends)
              + " differ in length");
    }
    int n = starts.length;
    long[] axesAttr = c.attrs().getInts("axes", null);
    int[] axes;
    if (axesAttr == null) {
      if (n > d.length) {
        throw c.fail("starts has " + n + " values but X " + x.shape() + " has rank " + d.length);
      }
      axes = new int[n];
      for (int i = 0; i < n; i++) {
        axes[i] = i;
      }
    } else {
      if (axesAttr.length != n) {
        throw c.fail(
            "axes "
                + Arrays.toString(axesAttr)
                + " has "
                + axesAttr.length
                + " values, starts has "
                + n);
      }
      axes = c.uniqueAxes(axesAttr, d.length, "axes");
    }
    long[] steps = c.attrs().getInts("steps", null);
    if (steps == null) {
      steps = new long[n];
      Arrays.fill(steps, 1);
    } else if (steps.length != n) {
      throw c.fail(
          "steps " + Arrays.toString(steps) + " has " + steps.length + " values, starts has " + n);
    }
    long[] out = d.clone();
    for (int i = 0; i < n; i++) {
      long dim = d[axes[i]];
      long step = steps[i];
      if (step == 0) {
        throw c.fail("steps " + Arrays.toString(steps) + " contains 0");
      }
      long start = starts[i] < 0 ? starts[i] + dim : starts[i];
      long end = ends[i] < 0 ? ends[i] + dim : ends[i];
      long size;
      if (step > 0) {
        start = clamp(start, 0, dim);
        end = clamp(end, 0, dim);
        size = Math.max(0, ceilDiv(end - start, step));
      } else if (dim == 0) {
        size = 0;
      } else {
        start = clamp(start, 0, dim - 1);
        end = clamp(end, -1, dim - 1);
        size = Math.max(0, ceilDiv(start - end, -step));
      }
      out[axes[i]] = size;
    }
    return new TensorType(Shape.of(out), x.dtype());
  }

  /** Gather: data, indices (I32/I64); attribute axis -> d[:axis] + indices + d[axis+1:]. */
  private static TensorType gather(Ctx c) {
    c.arity(2, 2);
    TensorType data = c.in(0);
    TensorType indices = c.in(1);
    if (indices.dtype() != DType.I32 && indices.dtype() != DType.I64) {
      throw c.fail("indices must be I32 or I64, got " + indices.dtype());
    }
    long[] d = data.shape().dims();
    if (d.length == 0) {
      throw c.fail("data must have rank >= 1, got a scalar");
    }
    int a = c.axis(c.attrs().getInt("axis", 0), d.length, "axis");
    long[] idx = indices.shape().dims();
    long[] out = new long[d.length - 1 + idx.length];
    System.arraycopy(d, 0, out, 0, a);
    System.arraycopy(idx, 0, out, a, idx.length);
    System.arraycopy(d, a + 1, out, a + idx.length, d.length - a - 1);
    return new TensorType(Shape.of(out), data.dtype());
  }

  // ---------------------------------------------------------------- recurrent

  /** ONNX LSTM's optional inputs after X, W and R, by input index. */
  private static final String[] LSTM_OPTIONAL = {
    "B", "sequence_lens", "initial_h", "initial_c", "P"
  };

  /**
   * LSTM: X [seq, batch, input] (layout 0, the default) or [batch, seq, input] (layout 1), W [dirs,
   * 4*hidden, input], R [dirs, 4*hidden, hidden], then the optional B [dirs, 8*hidden],
   * sequence_lens (I32 [batch]), initial_h and initial_c ([dirs, batch, hidden], layout 1 [batch,
   * dirs, hidden]) and P [dirs, 3*hidden] that are given, in that order; attribute {@code
   * optional_inputs} names the ONNX input index (3 to 7) of each operand after R when one is absent
   * before a later one (default: 3, 4, ... in order); hidden_size (taken from R when absent),
   * direction forward, reverse or bidirectional (dirs 1 or 2), layout, input_forget. Outputs: those
   * of Y [seq, dirs, batch, hidden] (layout 1: [batch, seq, dirs, hidden]), Y_h and Y_c
   * (initial_h's shape) the op defines, in that order; attribute {@code optional_outputs} names
   * their ONNX output indices (0 to 2) when one is left out before a later one (default: 0, 1, ...
   * in order).
   */
  private static List<TensorType> lstm(Ctx c) {
    c.arity(3, 8);
    TensorType x = c.in(0);
    TensorType w = c.in(1);
    TensorType r = c.in(2);
    c.sameDtype(0, 1);
    c.sameDtype(0, 2);
    long layout = c.flag("layout");
    c.flag("input_forget");
    String direction = c.attrs().getString("direction", "forward");
    long dirs =
        switch (direction) {
          case "forward", "reverse" -> 1;
          case "bidirectional" -> 2;
          default ->
              throw c.fail(
                  "direction '" + direction + "' must be forward, reverse or bidirectional");
        };
    if (x.shape().rank() != 3) {
      throw c.fail(
          "X "
              + x.shape()
              + " must be "
              + (layout == 0 ? "[seq, batch, input]" : "[batch, seq, input]"));
    }
    if (r.shape().rank() != 3) {
      throw c.fail("R " + r.shape() + " must be [dirs, 4*hidden, hidden]");
    }
    long hidden = c.attrs().getInt("hidden_size", r.shape().dim(2));
    if (hidden < 1) {
      throw c.fail("hidden_size " + hidden + " must be >= 1");
    }
    long seq = x.shape().dim(layout == 0 ? 0 : 1);
    long batch = x.shape().dim(layout == 0 ? 1 : 0);
    long input = x.shape().dim(2);
    long gates = Math.multiplyExact(4, hidden);
    Shape wantW = Shape.of(dirs, gates, input);
    if (!w.shape().equals(wantW)) {
      throw c.fail(
          "W "
              + w.shape()
              + " must be "
              + wantW
              + " (dirs "
              + dirs
              + " for "
              + direction
              + ", 4*hidden_size, input size of X "
              + x.shape()
              + ")");
    }
    Shape wantR = Shape.of(dirs, gates, hidden);
    if (!r.shape().equals(wantR)) {
      throw c.fail(
          "R "
              + r.shape()
              + " must be "
              + wantR
              + " (dirs, 4*hidden_size, hidden_size "
              + hidden
              + ")");
    }
    Shape state = layout == 0 ? Shape.of(dirs, batch, hidden) : Shape.of(batch, dirs, hidden);
    long[] slots = lstmSlots(c);
    for (int k = 0; k < slots.length; k++) {
      int i = 3 + k;
      TensorType t = c.in(i);
      String name = LSTM_OPTIONAL[(int) slots[k] - 3];
      Shape want =
          switch (name) {
            case "B" -> Shape.of(dirs, Math.multiplyExact(8, hidden));
            case "sequence_lens" -> Shape.of(batch);
            case "P" -> Shape.of(dirs, Math.multiplyExact(3, hidden));
            default -> state;
          };
      if (name.equals("sequence_lens")) {
        if (t.dtype() != DType.I32) {
          throw c.fail("sequence_lens must be I32, got " + t.dtype());
        }
      } else if (t.dtype() != x.dtype()) {
        throw c.fail(name + " has dtype " + t.dtype() + " but X has " + x.dtype());
      }
      if (!t.shape().equals(want)) {
        throw c.fail(name + " " + t.shape() + " must be " + want + lstmShapeNote(name, layout));
      }
    }
    Shape y = layout == 0 ? Shape.of(seq, dirs, batch, hidden) : Shape.of(batch, seq, dirs, hidden);
    List<TensorType> out = new ArrayList<>();
    for (long slot : lstmOutputSlots(c)) {
      out.add(new TensorType(slot == 0 ? y : state, x.dtype()));
    }
    return out;
  }

  /** The ONNX input index of each LSTM operand after R (attribute {@code optional_inputs}). */
  private static long[] lstmSlots(Ctx c) {
    return slots(c, "optional_inputs", c.inputs.size() - 3, 3, 7, "inputs", " after R", "B", "P");
  }

  /** The ONNX output index of each LSTM output (attribute {@code optional_outputs}). */
  private static long[] lstmOutputSlots(Ctx c) {
    int n = c.op.outputs().size();
    if (n < 1 || n > 3) {
      throw c.fail("defines " + n + " outputs; LSTM has Y, Y_h and Y_c");
    }
    return slots(c, "optional_outputs", n, 0, 2, "outputs", "", "Y", "Y_c");
  }

  /**
   * Ints attribute {@code name}: {@code n} strictly increasing indices in [{@code lo}, {@code hi}]
   * ({@code first} to {@code last}), by default {@code lo, lo + 1, ...}.
   */
  private static long[] slots(
      Ctx c,
      String name,
      int n,
      long lo,
      long hi,
      String what,
      String where,
      String first,
      String last) {
    long[] consecutive = new long[n];
    for (int k = 0; k < n; k++) {
      consecutive[k] = lo + k;
    }
    long[] slots = c.attrs().getInts(name, consecutive);
    if (slots.length != n) {
      throw c.fail(
          name
              + " "
              + Arrays.toString(slots)
              + " names "
              + slots.length
              + " "
              + what
              + " but the op has "
              + n
              + where);
    }
    for (int k = 0; k < n; k++) {
      if (slots[k] < lo || slots[k] > hi || (k > 0 && slots[k] <= slots[k - 1])) {
        throw c.fail(
            name
                + " "
                + Arrays.toString(slots)
                + " must be increasing ONNX "
                + what.substring(0, what.length() - 1)
                + " indices from "
                + lo
                + " ("
                + first
                + ") to "
                + hi
                + " ("
                + last
                + ")");
      }
    }
    return slots;
  }

  private static String lstmShapeNote(String name, long layout) {
    return switch (name) {
      case "B" -> " (dirs, 8*hidden_size)";
      case "sequence_lens" -> " (batch)";
      case "P" -> " (dirs, 3*hidden_size)";
      default -> layout == 0 ? " (dirs, batch, hidden_size)" : " (batch, dirs, hidden_size)";
    };
  }

  // ---------------------------------------------------------------- helpers

  /** Multidirectional (numpy) broadcasting of two shapes. */
  private static long[] broadcast(Ctx c, long[] a, long[] b, String what) {
    int r = Math.max(a.length, b.length);
    long[] out = new long[r];
    for (int i = 0; i < r; i++) {
      long x = i < r - a.length ? 1 : a[i - (r - a.length)];
      long y = i < r - b.length ? 1 : b[i - (r - b.length)];
      if (x == y || y == 1) {
        out[i] = x;
      } else if (x == 1) {
        out[i] = y;
      } else {
        throw c.fail(what + " do not broadcast: " + x + " vs " + y + " in output dim " + i);
      }
    }
    return out;
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  private static long clamp(long v, long lo, long hi) {
    return Math.max(lo, Math.min(hi, v));
  }

  private static long[] remove(long[] a, int index) {
    long[] out = new long[a.length - 1];
    System.arraycopy(a, 0, out, 0, index);
    System.arraycopy(a, index + 1, out, index, a.length - index - 1);
    return out;
  }

  /** The op being inferred and its inputs, with checks that fail naming the op. */
  private record Ctx(Op op, List<TensorType> inputs) {
    Attributes attrs() {
      return op.attributes();
    }

    IllegalArgumentException fail(String message) {
      return new IllegalArgumentException(op.label() + ": " + message);
    }

    TensorType in(int i) {
      return inputs.get(i);
    }

    void arity(int min, int max) {
      int n = inputs.size();
      if (n < min || n > max) {
        String expected =
            min == max
                ? Integer.toString(min)
                : max == Integer.MAX_VALUE ? "at least " + min : min + " to " + max;
        throw fail("expects " + expected + " inputs, got " + n);
      }
    }

    void sameDtype(int i, int j) {
      if (in(i).dtype() != in(j).dtype()) {
        throw fail(
            "input "
                + j
                + " has dtype "
                + in(j).dtype()
                + " but input "
                + i
                + " has "
                + in(i).dtype());
      }
    }

    void requireDtype(int i, DType dtype) {
      if (in(i).dtype() != dtype) {
        throw fail("input " + i + " must be " + dtype + ", got " + in(i).dtype());
      }
    }

    void requireByte(int i) {
      if (in(i).dtype() != DType.I8 && in(i).dtype() != DType.U8) {
        throw fail("input " + i + " must be I8 or U8, got " + in(i).dtype());
      }
    }

    /** Zero point input {@code i} of operand {@code operand}: its dtype, one or n values. */
    void zeroPoint(int i, int operand, long n) {
      sameDtype(operand, i);
      Shape s = in(i).shape();
      boolean perTensor = s.rank() <= 1 && s.elements() == 1;
      if (!perTensor && !(s.rank() == 1 && s.dim(0) == n)) {
        throw fail("zero point input " + i + " " + s + " must be a scalar or [" + n + "]");
      }
    }

    void sameRank(TensorType t, TensorType ref, String what, String refName) {
      if (t.shape().rank() != ref.shape().rank()) {
        throw fail(
            what + " " + t.shape() + " must have the rank of " + refName + " " + ref.shape());
      }
    }

    /** Number of spatial dims of an [N, C, D1..Dk] tensor, k >= 1. */
    int spatialRank(TensorType t, String what) {
      if (t.shape().rank() < 3) {
        throw fail(what + " " + t.shape() + " must be [N, C, spatial...] with rank >= 3");
      }
      return t.shape().rank() - 2;
    }

    void bias(int i, long channels, DType dataType) {
      TensorType b = in(i);
      if (b.shape().rank() != 1 || b.shape().dim(0) != channels) {
        throw fail("bias B " + b.shape() + " must be [" + channels + "] (output channels)");
      }
      boolean quantized = (dataType == DType.I8 || dataType == DType.U8) && b.dtype() == DType.I32;
      if (b.dtype() != dataType && !quantized) {
        throw fail("bias B has dtype " + b.dtype() + " but X has " + dataType);
      }
    }

    void checkKernelShape(long[] kernel) {
      long[] ks = attrs().getInts("kernel_shape", null);
      if (ks != null && !Arrays.equals(ks, kernel)) {
        throw fail(
            "kernel_shape " + Arrays.toString(ks) + " != weight kernel " + Arrays.toString(kernel));
      }
    }

    long flag(String name) {
      return flag(name, 0);
    }

    long flag(String name, long defaultValue) {
      long v = attrs().getInt(name, defaultValue);
      if (v != 0 && v != 1) {
        throw fail(name + " " + v + " must be 0 or 1");
      }
      return v;
    }

    /** Ints attribute {@code name} of exactly {@code length} values, or the default. */
    long[] ints(String name, long[] defaultValue, int length) {
      long[] v = attrs().getInts(name, defaultValue);
      if (v.length != length) {
        throw fail(
            name + " " + Arrays.toString(v) + " has " + v.length + " values, expected " + length);
      }
      return v;
    }

    /** Positive ints attribute of one value per spatial dim (default all 1). */
    long[] positiveInts(String name, int spatial) {
      long[] ones = new long[spatial];
      Arrays.fill(ones, 1);
      long[] v = ints(name, ones, spatial);
      for (long x : v) {
        if (x < 1) {
          throw fail(name + " " + Arrays.toString(v) + " must be positive");
        }
      }
      return v;
    }

    String autoPad() {
      String p = attrs().getString("auto_pad", "NOTSET").toUpperCase(Locale.ROOT);
      if (!AUTO_PADS.contains(p)) {
        throw fail("auto_pad '" + p + "' must be NOTSET, SAME_UPPER, SAME_LOWER or VALID");
      }
      return p;
    }

    /** pads [begins..., ends...], non-negative; zero and not given when auto_pad is set. */
    long[] pads(int spatial, String autoPad) {
      if (!autoPad.equals("NOTSET")) {
        if (attrs().has("pads")) {
          long[] p = attrs().getInts("pads", null);
          if (Arrays.stream(p).anyMatch(v -> v != 0)) {
            throw fail("pads " + Arrays.toString(p) + " cannot be used with auto_pad " + autoPad);
          }
        }
        return new long[2 * spatial];
      }
      long[] p = ints("pads", new long[2 * spatial], 2 * spatial);
      for (long v : p) {
        if (v < 0) {
          throw fail("pads " + Arrays.toString(p) + " must be >= 0");
        }
      }
      return p;
    }

    /** {@code axis} in [-rank, rank) normalized to [0, rank). */
    int axis(long axis, int rank, String name) {
      if (axis < -rank || axis >= rank) {
        throw fail(
            name
                + " "
                + axis
                + " out of range ["
                + -rank
                + ", "
                + (rank - 1)
                + "] for rank "
                + rank);
      }
      return (int) (axis < 0 ? axis + rank : axis);
    }

    int[] uniqueAxes(long[] axes, int rank, String name) {
      int[] out = new int[axes.length];
      boolean[] seen = new boolean[rank];
      for (int i = 0; i < axes.length; i++) {
        if (axes[i] < -rank || axes[i] >= rank) {
          throw fail(
              name
                  + " "
                  + Arrays.toString(axes)
                  + ": "
                  + axes[i]
                  + " out of range for rank "
                  + rank);
        }
        int a = (int) (axes[i] < 0 ? axes[i] + rank : axes[i]);
        if (seen[a]) {
          throw fail(name + " " + Arrays.toString(axes) + " repeats axis " + a);
        }
        seen[a] = true;
        out[i] = a;
      }
      return out;
    }

    /** Checks that {@code from} broadcasts unidirectionally to {@code to}. */
    void unidirectional(long[] from, long[] to, String what, String target) {
      if (from.length > to.length) {
        throw fail(what + " has more dims than " + target);
      }
      int off = to.length - from.length;
      for (int i = 0; i < from.length; i++) {
        if (from[i] != 1 && from[i] != to[off + i]) {
          throw fail(what + " does not broadcast to " + target);
        }
      }
    }
  }
}
