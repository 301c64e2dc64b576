package io.github.memplan.core.ir;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The op kinds memplan understands, named as in ONNX. Attributes follow ONNX's names and
 * conventions (see {@link ShapeInference} for each kind's inputs and attributes); inputs that ONNX
 * passes as constant tensors (Reshape's shape, Slice's starts, Pad's pads, Resize's scales,
 * Squeeze/Unsqueeze's axes) are attributes here.
 */
public enum OpKind {
  CONV("Conv", Category.CONV),
  CONV_TRANSPOSE("ConvTranspose", Category.CONV),
  CONV_INTEGER("ConvInteger", Category.CONV),
  MAX_POOL("MaxPool", Category.POOL),
  AVERAGE_POOL("AveragePool", Category.POOL),
  GLOBAL_AVERAGE_POOL("GlobalAveragePool", Category.POOL),
  GLOBAL_MAX_POOL("GlobalMaxPool", Category.POOL),
  MAT_MUL("MatMul", Category.MATMUL),
  GEMM("Gemm", Category.MATMUL),
  MAT_MUL_INTEGER("MatMulInteger", Category.MATMUL),
  /**
   * TPU-MLIR's fused self-attention of one head ({@code tpu.AttentionOp} after its per-head
   * lowering), made only by the front end ({@code core.frontend}); not an ONNX op, hence the name.
   * Operands: input {@code [B, M, N]}, Wq {@code [N, d]}, bq? {@code [d]}, Wk, bk?, Wv, bv?, Wo
   * {@code [d, N_out]}, bo? {@code [N_out]}, mask?; attributes {@code has_bias} (bit 0 q, 1 k, 2 v,
   * 3 out, as TPU-MLIR's), {@code has_mask} (0 or 1), {@code dim} (d), {@code head} (1).
   */
  ATTENTION("tpu.Attention", Category.MATMUL),
  ADD("Add", Category.BINARY),
  SUB("Sub", Category.BINARY),
  MUL("Mul", Category.BINARY),
  DIV("Div", Category.BINARY),
  POW("Pow", Category.BINARY),
  MOD("Mod", Category.BINARY),
  MAX("Max", Category.BINARY),
  MIN("Min", Category.BINARY),
  EQUAL("Equal", Category.BINARY),
  LESS("Less", Category.BINARY),
  LESS_OR_EQUAL("LessOrEqual", Category.BINARY),
  GREATER("Greater", Category.BINARY),
  GREATER_OR_EQUAL("GreaterOrEqual", Category.BINARY),
  AND("And", Category.BINARY),
  OR("Or", Category.BINARY),
  XOR("Xor", Category.BINARY),
  WHERE("Where", Category.BINARY),
  RELU("Relu", Category.UNARY),
  CLIP("Clip", Category.UNARY),
  LEAKY_RELU("LeakyRelu", Category.UNARY),
  SIGMOID("Sigmoid", Category.UNARY),
  HARD_SIGMOID("HardSigmoid", Category.UNARY),
  HARD_SWISH("HardSwish", Category.UNARY),
  SILU("Silu", Category.UNARY),
  TANH("Tanh", Category.UNARY),
  GELU("Gelu", Category.UNARY),
  ERF("Erf", Category.UNARY),
  EXP("Exp", Category.UNARY),
  LOG("Log", Category.UNARY),
  SQRT("Sqrt", Category.UNARY),
  NEG("Neg", Category.UNARY),
  ABS("Abs", Category.UNARY),
  RECIPROCAL("Reciprocal", Category.UNARY),
  FLOOR("Floor", Category.UNARY),
  CEIL("Ceil", Category.UNARY),
  ROUND("Round", Category.UNARY),
  SIGN("Sign", Category.UNARY),
  IDENTITY("Identity", Category.UNARY),
  CAST("Cast", Category.UNARY),
  NOT("Not", Category.UNARY),
  QUANTIZE_LINEAR("QuantizeLinear", Category.UNARY),
  DEQUANTIZE_LINEAR("DequantizeLinear", Category.UNARY),
  DYNAMIC_QUANTIZE_LINEAR("DynamicQuantizeLinear", Category.UNARY),
  BATCH_NORMALIZATION("BatchNormalization", Category.NORM),
  LAYER_NORMALIZATION("LayerNormalization", Category.NORM),
  SOFTMAX("Softmax", Category.NORM),
  REDUCE_MEAN("ReduceMean", Category.REDUCE),
  REDUCE_SUM("ReduceSum", Category.REDUCE),
  REDUCE_MAX("ReduceMax", Category.REDUCE),
  REDUCE_MIN("ReduceMin", Category.REDUCE),
  REDUCE_PROD("ReduceProd", Category.REDUCE),
  REDUCE_L1("ReduceL1", Category.REDUCE),
  REDUCE_L2("ReduceL2", Category.REDUCE),
  REDUCE_SUM_SQUARE("ReduceSumSquare", Category.REDUCE),
  REDUCE_LOG_SUM("ReduceLogSum", Category.REDUCE),
  REDUCE_LOG_SUM_EXP("ReduceLogSumExp", Category.REDUCE),
  ARG_MAX("ArgMax", Category.REDUCE),
  ARG_MIN("ArgMin", Category.REDUCE),
  CONCAT("Concat", Category.DATA_MOVEMENT),
  SPLIT("Split", Category.DATA_MOVEMENT),
  EXPAND("Expand", Category.DATA_MOVEMENT),
  TILE("Tile", Category.DATA_MOVEMENT),
  RESHAPE("Reshape", Category.SHAPE),
  FLATTEN("Flatten", Category.SHAPE),
  SQUEEZE("Squeeze", Category.SHAPE),
  UNSQUEEZE("Unsqueeze", Category.SHAPE),
  TRANSPOSE("Transpose", Category.DATA_MOVEMENT),
  /**
   * DepthToSpace: X {@code [N, C, H, W]} to {@code [N, C / b², H·b, W·b]}; attributes {@code
   * blocksize} b (required) and {@code mode}, {@code DCR} (the default) or {@code CRD}, which
   * orders the channels' depth and block parts differently and gives the same shape.
   */
  DEPTH_TO_SPACE("DepthToSpace", Category.DATA_MOVEMENT),
  UPSAMPLE("Upsample", Category.DATA_MOVEMENT),
  RESIZE("Resize", Category.DATA_MOVEMENT),
  PAD("Pad", Category.DATA_MOVEMENT),
  SLICE("Slice", Category.DATA_MOVEMENT),
  GATHER("Gather", Category.DATA_MOVEMENT),
  LSTM("LSTM", Category.RECURRENT);

  /** Broad families, for cost models and grouping rules. */
  public enum Category {
    CONV,
    POOL,
    MATMUL,
    /** Elementwise ops on two or more broadcast operands (arithmetic, comparisons, Where). */
    BINARY,
    UNARY,
    NORM,
    /** Reductions over axes (ReduceMean, ArgMax, ...). */
    REDUCE,
    /** Ops that only reinterpret the shape: same bytes, same order. */
    SHAPE,
    DATA_MOVEMENT,
    /** Recurrent layers: matrix products in a loop over time steps, each step after the last. */
    RECURRENT
  }

  private static final Map<String, OpKind> BY_NAME = new HashMap<>();

  static {
    for (OpKind k : values()) {
      BY_NAME.put(k.onnxName.toLowerCase(Locale.ROOT), k);
    }
  }

  private final String onnxName;
  private final Category category;

  OpKind(String onnxName, Category category) {
    this.onnxName = onnxName;
    this.category = category;
  }

  /** The ONNX op type, e.g. {@code Conv}. */
  public String onnxName() {
    return onnxName;
  }

  public Category category() {
    return category;
  }

  /**
   * The kind named {@code name} (ONNX op type, case-insensitive); an unknown name fails with a
   * message naming it.
   */
  public static OpKind parse(String name) {
    OpKind k = BY_NAME.get(name.toLowerCase(Locale.ROOT));
    if (k == null) {
      throw new IllegalArgumentException("unknown op kind '" + name + "'");
    }
    return k;
  }

  @Override
  public String toString() {
    return onnxName;
  }
}
