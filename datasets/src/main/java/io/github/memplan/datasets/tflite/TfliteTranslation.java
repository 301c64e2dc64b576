package io.github.memplan.datasets.tflite;

import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.io.InputText;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Tensor;
import io.github.memplan.datasets.tflite.TfliteImport.ShapeCheck;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.tensorflow.lite.schema.BatchMatMulOptions;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.BuiltinOptions;
import org.tensorflow.lite.schema.ConcatenationOptions;
import org.tensorflow.lite.schema.Conv2DOptions;
import org.tensorflow.lite.schema.DepthToSpaceOptions;
import org.tensorflow.lite.schema.DepthwiseConv2DOptions;
import org.tensorflow.lite.schema.FullyConnectedOptions;
import org.tensorflow.lite.schema.LeakyReluOptions;
import org.tensorflow.lite.schema.Model;
import org.tensorflow.lite.schema.Operator;
import org.tensorflow.lite.schema.OperatorCode;
import org.tensorflow.lite.schema.Padding;
import org.tensorflow.lite.schema.Pool2DOptions;
import org.tensorflow.lite.schema.QuantizationParameters;
import org.tensorflow.lite.schema.ReducerOptions;
import org.tensorflow.lite.schema.ReshapeOptions;
import org.tensorflow.lite.schema.ResizeBilinearOptions;
import org.tensorflow.lite.schema.ResizeNearestNeighborOptions;
import org.tensorflow.lite.schema.SqueezeOptions;
import org.tensorflow.lite.schema.StridedSliceOptions;
import org.tensorflow.lite.schema.SubGraph;
import org.tensorflow.lite.schema.TensorType;

/**
 * One import of a TFLite model (see {@link TfliteImporter} for what it does and where it departs):
 * reads the flatbuffer through the generated schema classes, relabels rank-4 tensors NCHW and adds
 * one memplan op per operator, recording each output's inferred shape beside the stored one.
 */
final class TfliteTranslation {
  /** A rank-4 tensor's memplan dims are its file dims in this order: {@code [n, c, h, w]}. */
  private static final int[] NCHW = {0, 3, 1, 2};

  /** Where file axis {@code a} of a rank-4 tensor lands in memplan's order. */
  private static final int[] NHWC_AXIS_TO_NCHW = {0, 2, 3, 1};

  private static final String TRANSPOSE_CONV_BIAS = "CUSTOM:Convolution2DTransposeBias";

  /** The file operators this importer maps (TFLite names; a custom one as CUSTOM:name). */
  static final Set<String> SUPPORTED =
      Set.of(
          "ABS",
          "ADD",
          "AVERAGE_POOL_2D",
          "BATCH_MATMUL",
          "CAST",
          "CONCATENATION",
          "CONV_2D",
          "DENSIFY",
          "DEPTH_TO_SPACE",
          "DEPTHWISE_CONV_2D",
          "DEQUANTIZE",
          "DIV",
          "EQUAL",
          "EXP",
          "EXPAND_DIMS",
          "FULLY_CONNECTED",
          "GREATER",
          "GREATER_EQUAL",
          "HARD_SWISH",
          "LEAKY_RELU",
          "LESS",
          "LESS_EQUAL",
          "LOG",
          "LOGICAL_AND",
          "LOGICAL_OR",
          "LOGISTIC",
          "MAXIMUM",
          "MAX_POOL_2D",
          "MEAN",
          "MINIMUM",
          "MUL",
          "NEG",
          "PAD",
          "PADV2",
          "QUANTIZE",
          "REDUCE_MAX",
          "REDUCE_MIN",
          "REDUCE_PROD",
          "RELU",
          "RELU6",
          "RELU_N1_TO_1",
          "RESHAPE",
          "RESIZE_BILINEAR",
          "RESIZE_NEAREST_NEIGHBOR",
          "RSQRT",
          "SLICE",
          "SOFTMAX",
          "SQRT",
          "SQUEEZE",
          "STRIDED_SLICE",
          "SUB",
          "SUM",
          "TANH",
          "TRANSPOSE",
          TRANSPOSE_CONV_BIAS);

  private final ByteBuffer bb;
  private final String source;
  private final Map<String, long[]> inputShapes;
  private final String graphName;

  private Model model;
  private SubGraph sg;
  private Graph.Builder b;
  private int tensorCount;
  private org.tensorflow.lite.schema.Tensor[] tensors;
  private String[] opNames;

  /** Each tensor's dims in the file's axis order, as stored, then as computed. */
  private long[][] shape;

  private long[][] stored;
  private long[][] signature;
  private DType[] dtype;
  private String[] names;

  /** The memplan tensor holding a file tensor computed at run time (or a graph input). */
  private String[] defined;

  /** A constant buffer of the file (TFLite's {@code kTfLiteMmapRo}). */
  private boolean[] buffered;

  /** Known before the run: buffered, or a DEQUANTIZE or DENSIFY result computed once. */
  private boolean[] persistent;

  /** memplan tensors made for stored file tensors, by file index and memplan dims. */
  private final Map<String, String> views = new HashMap<>();

  private final Map<Integer, Integer> viewCount = new HashMap<>();

  /** Inputs left at their stored placeholder dims although their signature is dynamic. */
  private final List<String> placeholders = new ArrayList<>();

  private final Map<String, Quantization> quantization = new LinkedHashMap<>();
  private final List<ShapeCheck> checks = new ArrayList<>();

  TfliteTranslation(
      ByteBuffer bb, String source, Map<String, long[]> inputShapes, String graphName) {
    this.bb = bb;
    this.source = source;
    this.inputShapes = Map.copyOf(inputShapes);
    this.graphName = graphName;
  }

  TfliteImport run() {
    try {
      return translate();
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(source + ": ")) {
        throw e;
      }
      throw malformed(e);
    } catch (RuntimeException e) {
      throw malformed(e);
    }
  }

  private IllegalArgumentException malformed(RuntimeException e) {
    return new IllegalArgumentException(
        source
            + ": malformed TFLite flatbuffer ("
            + InputText.oneLine(e.getClass().getSimpleName() + ": " + e.getMessage())
            + ")",
        e);
  }

  private IllegalArgumentException fail(String message) {
    return new IllegalArgumentException(source + ": " + message);
  }

  private UnsupportedTfliteException unsupported(int op, String message) {
    return new UnsupportedTfliteException(
        source + ": operator " + op + " (" + opNames[op] + "): " + message);
  }

  // ---------------------------------------------------------------- the model

  private TfliteImport translate() {
    if (bb.remaining() < 8) {
      throw fail(
          "not a TFLite model (" + bb.remaining() + " bytes, too short for a flatbuffer header)");
    }
    if (!Model.ModelBufferHasIdentifier(bb)) {
      throw fail("not a TFLite model (no TFL3 file identifier)");
    }
    model = Model.getRootAsModel(bb);
    if (model.version() != 3) {
      throw fail("TFLite schema version " + model.version() + ", memplan reads version 3");
    }
    int subgraphs = count(model.subgraphsLength(), "subgraphs");
    if (subgraphs == 0) {
      throw fail("the model has no subgraph");
    }
    sg = model.subgraphs(0);
    int ops = count(sg.operatorsLength(), "operators");
    opNames = new String[ops];
    for (int i = 0; i < ops; i++) {
      opNames[i] = operatorName(sg.operators(i));
    }
    refuseUnsupported();
    readTensors();
    b = Graph.builder(graphName);
    addInputs();
    for (int i = 0; i < ops; i++) {
      translate(i, sg.operators(i));
    }
    int outs = count(sg.outputsLength(), "outputs");
    if (outs == 0) {
      throw fail("the main subgraph has no output");
    }
    for (int k = 0; k < outs; k++) {
      int t = tensorIndex(sg.outputs(k), "graph output " + k);
      if (defined[t] == null) {
        throw fail("graph output " + InputText.quote(names[t]) + " is computed by no operator");
      }
      b.output(defined[t]);
    }
    Graph g = b.build();
    Map<String, Quantization> q = new LinkedHashMap<>();
    for (String t : g.tensors().keySet()) {
      Quantization p = quantization.get(t);
      if (p != null) {
        q.put(t, p);
      }
    }
    return new TfliteImport(g, ops, q, checks);
  }

  /** The operator's TFLite name: its builtin name, or CUSTOM:name. */
  private String operatorName(Operator op) {
    long index = op.opcodeIndex();
    int codes = count(model.operatorCodesLength(), "operator codes");
    if (index < 0 || index >= codes) {
      throw fail("an operator names operator code " + index + " of " + codes);
    }
    OperatorCode oc = model.operatorCodes((int) index);
    // schema 3a: codes past 127 live in builtin_code; older files fill only the deprecated byte
    int code = Math.max(oc.builtinCode(), oc.deprecatedBuiltinCode());
    if (code == BuiltinOperator.CUSTOM) {
      String custom = oc.customCode();
      return "CUSTOM:" + (custom == null ? "" : InputText.quote(custom).replace("'", ""));
    }
    if (code >= 0
        && code < BuiltinOperator.names.length
        && !BuiltinOperator.names[code].isEmpty()) {
      return BuiltinOperator.name(code);
    }
    return "builtin code " + code;
  }

  /** Fails on the first operator memplan does not map, counting every unsupported one. */
  private void refuseUnsupported() {
    Map<String, Integer> counts = new TreeMap<>();
    int first = -1;
    for (int i = 0; i < opNames.length; i++) {
      if (!SUPPORTED.contains(opNames[i])) {
        counts.merge(opNames[i], 1, Integer::sum);
        if (first < 0) {
          first = i;
        }
      }
    }
    if (first >= 0) {
      StringBuilder all = new StringBuilder();
      counts.forEach((k, v) -> all.append(all.length() == 0 ? "" : ", ").append(k + " x" + v));
      throw new UnsupportedTfliteException(
          source
              + ": operator "
              + first
              + " ("
              + opNames[first]
              + ") has no memplan op (unsupported in this file: "
              + all
              + ")");
    }
  }

  private void readTensors() {
    tensorCount = count(sg.tensorsLength(), "tensors");
    int buffers = count(model.buffersLength(), "buffers");
    tensors = new org.tensorflow.lite.schema.Tensor[tensorCount];
    shape = new long[tensorCount][];
    stored = new long[tensorCount][];
    signature = new long[tensorCount][];
    dtype = new DType[tensorCount];
    names = new String[tensorCount];
    defined = new String[tensorCount];
    buffered = new boolean[tensorCount];
    persistent = new boolean[tensorCount];
    Map<String, Integer> seen = new HashMap<>();
    for (int t = 0; t < tensorCount; t++) {
      org.tensorflow.lite.schema.Tensor x = sg.tensors(t);
      tensors[t] = x;
      String name = x.name() == null ? "" : x.name();
      if (InputText.hasControl(name)) {
        throw fail(
            "tensor "
                + t
                + " has a name with a line break or control character: "
                + InputText.quote(name));
      }
      names[t] = name;
      seen.merge(name, 1, Integer::sum);
      int rank = count(x.shapeLength(), "dims of tensor " + t);
      long[] s = new long[rank];
      for (int i = 0; i < rank; i++) {
        s[i] = x.shape(i);
      }
      stored[t] = s;
      int sigRank = count(x.shapeSignatureLength(), "signature dims of tensor " + t);
      long[] sig = new long[sigRank];
      for (int i = 0; i < sigRank; i++) {
        sig[i] = x.shapeSignature(i);
      }
      signature[t] = sigRank == rank ? sig : s.clone();
      dtype[t] = dtypeOf(x.type());
      long buffer = x.buffer();
      if (buffer < 0 || buffer >= buffers) {
        throw fail("tensor " + t + " names buffer " + buffer + " of " + buffers);
      }
      org.tensorflow.lite.schema.Buffer data = model.buffers((int) buffer);
      buffered[t] = data != null && data.dataLength() > 0;
      persistent[t] = buffered[t];
    }
    for (int t = 0; t < tensorCount; t++) {
      if (names[t].isEmpty()) {
        names[t] = "tensor#" + t;
      } else if (seen.get(names[t]) > 1) {
        names[t] = names[t] + "#" + t;
      }
    }
  }

  /** memplan's dtype of a TFLite tensor type; {@code null} for those it has none for. */
  private static DType dtypeOf(byte type) {
    return switch (type) {
      case TensorType.FLOAT32 -> DType.F32;
      case TensorType.FLOAT16 -> DType.F16;
      case TensorType.FLOAT64 -> DType.F64;
      case TensorType.INT32 -> DType.I32;
      case TensorType.INT64 -> DType.I64;
      case TensorType.INT16 -> DType.I16;
      case TensorType.INT8 -> DType.I8;
      case TensorType.UINT8 -> DType.U8;
      case TensorType.INT4 -> DType.I4;
      case TensorType.BOOL -> DType.BOOL;
      default -> null;
    };
  }

  private DType typed(int t) {
    if (dtype[t] == null) {
      byte type = tensors[t].type();
      String name =
          type >= 0 && type < TensorType.names.length ? TensorType.name(type) : "type " + type;
      throw fail(
          "tensor "
              + InputText.quote(names[t])
              + " is of type "
              + name
              + ", which memplan has no dtype for");
    }
    return dtype[t];
  }

  private void addInputs() {
    int n = count(sg.inputsLength(), "inputs");
    Map<String, Integer> byName = new LinkedHashMap<>();
    for (int k = 0; k < n; k++) {
      int t = tensorIndex(sg.inputs(k), "graph input " + k);
      byName.put(names[t], t);
    }
    for (String given : inputShapes.keySet()) {
      if (!byName.containsKey(given)) {
        throw fail(
            "--input names "
                + InputText.quote(given)
                + ", which is not an input (inputs: "
                + String.join(", ", byName.keySet())
                + ")");
      }
    }
    for (Map.Entry<String, Integer> e : byName.entrySet()) {
      int t = e.getValue();
      long[] s = stored[t];
      long[] given = inputShapes.get(e.getKey());
      if (given != null) {
        s = resized(t, given);
      }
      checkStatic(t, s);
      if (given == null && Arrays.stream(signature[t]).anyMatch(d -> d < 0)) {
        placeholders.add(
            InputText.quote(names[t])
                + " "
                + Arrays.toString(s)
                + " (signature "
                + Arrays.toString(signature[t])
                + ")");
      }
      shape[t] = s;
      b.input(names[t], typed(t), ir(s));
      defined[t] = names[t];
      recordQuantization(t, names[t]);
    }
  }

  /** {@code given} for input {@code t}, if only its dynamic dims (signature -1) change. */
  private long[] resized(int t, long[] given) {
    long[] s = stored[t];
    if (given.length != s.length) {
      throw fail(
          "input "
              + InputText.quote(names[t])
              + " has rank "
              + s.length
              + ", --input gives "
              + given.length
              + " dims");
    }
    for (int i = 0; i < s.length; i++) {
      if (given[i] != s[i] && signature[t][i] >= 0) {
        throw fail(
            "input "
                + InputText.quote(names[t])
                + " has the static dim "
                + i
                + " = "
                + s[i]
                + " (shape signature "
                + Arrays.toString(signature[t])
                + "), --input gives "
                + given[i]);
      }
      if (given[i] < 1) {
        throw fail("input " + InputText.quote(names[t]) + ": --input dim " + i + " must be >= 1");
      }
    }
    return given.clone();
  }

  private void checkStatic(int t, long[] s) {
    for (long d : s) {
      if (d < 0) {
        throw fail(
            "tensor " + InputText.quote(names[t]) + " has the dynamic shape " + Arrays.toString(s));
      }
    }
  }

  // ---------------------------------------------------------------- operators

  private void translate(int i, Operator op) {
    int[] ins = indices(op.inputsLength(), op::inputs, i, "inputs", true);
    int[] outs = indices(op.outputsLength(), op::outputs, i, "outputs", false);
    if (outs.length == 0) {
      throw unsupported(i, "defines no output");
    }
    for (int t : ins) {
      if (t >= 0 && tensors[t].isVariable()) {
        throw unsupported(i, "reads the variable tensor " + InputText.quote(names[t]));
      }
    }
    String kind = opNames[i];
    switch (kind) {
      case "CONV_2D" -> conv2d(i, op, ins, outs);
      case "DEPTHWISE_CONV_2D" -> depthwise(i, op, ins, outs);
      case "MAX_POOL_2D" -> pool(i, op, ins, outs, OpKind.MAX_POOL);
      case "AVERAGE_POOL_2D" -> pool(i, op, ins, outs, OpKind.AVERAGE_POOL);
      case "FULLY_CONNECTED" -> fullyConnected(i, op, ins, outs);
      case "BATCH_MATMUL" -> batchMatMul(i, op, ins, outs);
      case TRANSPOSE_CONV_BIAS -> transposeConvBias(i, op, ins, outs);
      case "ADD" -> elementwise(i, ins, outs, OpKind.ADD, fusedOf(op));
      case "SUB" -> elementwise(i, ins, outs, OpKind.SUB, fusedOf(op));
      case "MUL" -> elementwise(i, ins, outs, OpKind.MUL, fusedOf(op));
      case "DIV" -> elementwise(i, ins, outs, OpKind.DIV, fusedOf(op));
      case "MAXIMUM" -> elementwise(i, ins, outs, OpKind.MAX, 0);
      case "MINIMUM" -> elementwise(i, ins, outs, OpKind.MIN, 0);
      case "EQUAL" -> elementwise(i, ins, outs, OpKind.EQUAL, 0);
      case "GREATER" -> elementwise(i, ins, outs, OpKind.GREATER, 0);
      case "GREATER_EQUAL" -> elementwise(i, ins, outs, OpKind.GREATER_OR_EQUAL, 0);
      case "LESS" -> elementwise(i, ins, outs, OpKind.LESS, 0);
      case "LESS_EQUAL" -> elementwise(i, ins, outs, OpKind.LESS_OR_EQUAL, 0);
      case "LOGICAL_AND" -> elementwise(i, ins, outs, OpKind.AND, 0);
      case "LOGICAL_OR" -> elementwise(i, ins, outs, OpKind.OR, 0);
      case "ABS" -> unary(i, ins, outs, OpKind.ABS, Attributes.empty());
      case "EXP" -> unary(i, ins, outs, OpKind.EXP, Attributes.empty());
      case "LOG" -> unary(i, ins, outs, OpKind.LOG, Attributes.empty());
      case "NEG" -> unary(i, ins, outs, OpKind.NEG, Attributes.empty());
      case "SQRT" -> unary(i, ins, outs, OpKind.SQRT, Attributes.empty());
      case "LOGISTIC" -> unary(i, ins, outs, OpKind.SIGMOID, Attributes.empty());
      case "TANH" -> unary(i, ins, outs, OpKind.TANH, Attributes.empty());
      case "RELU" -> unary(i, ins, outs, OpKind.RELU, Attributes.empty());
      case "HARD_SWISH" -> unary(i, ins, outs, OpKind.HARD_SWISH, Attributes.empty());
      case "RELU6" ->
          unary(
              i,
              ins,
              outs,
              OpKind.CLIP,
              Attributes.builder().put("min", 0.0).put("max", 6.0).build());
      case "RELU_N1_TO_1" ->
          unary(
              i,
              ins,
              outs,
              OpKind.CLIP,
              Attributes.builder().put("min", -1.0).put("max", 1.0).build());
      case "LEAKY_RELU" -> leakyRelu(i, op, ins, outs);
      case "RSQRT" -> rsqrt(i, ins, outs);
      case "CAST" -> cast(i, ins, outs);
      case "CONCATENATION" -> concat(i, op, ins, outs);
      case "PAD", "PADV2" -> pad(i, ins, outs);
      case "RESHAPE" -> reshape(i, op, ins, outs);
      case "EXPAND_DIMS" -> expandDims(i, ins, outs);
      case "SQUEEZE" -> squeeze(i, op, ins, outs);
      case "TRANSPOSE" -> transpose(i, ins, outs);
      case "DEPTH_TO_SPACE" -> depthToSpace(i, op, ins, outs);
      case "SOFTMAX" -> softmax(i, ins, outs);
      case "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR" -> resize(i, op, ins, outs);
      case "MEAN" -> reduce(i, op, ins, outs, OpKind.REDUCE_MEAN);
      case "SUM" -> reduce(i, op, ins, outs, OpKind.REDUCE_SUM);
      case "REDUCE_MAX" -> reduce(i, op, ins, outs, OpKind.REDUCE_MAX);
      case "REDUCE_MIN" -> reduce(i, op, ins, outs, OpKind.REDUCE_MIN);
      case "REDUCE_PROD" -> reduce(i, op, ins, outs, OpKind.REDUCE_PROD);
      case "STRIDED_SLICE" -> stridedSlice(i, op, ins, outs);
      case "SLICE" -> slice(i, ins, outs);
      case "DEQUANTIZE" -> dequantize(i, ins, outs);
      case "DENSIFY" -> densify(i, ins, outs);
      case "QUANTIZE" -> quantize(i, ins, outs);
      default -> throw new AssertionError("unmapped supported operator " + kind);
    }
  }

  private void conv2d(int i, Operator op, int[] ins, int[] outs) {
    arity(i, ins, 2, 3);
    Conv2DOptions o = options(i, op, BuiltinOptions.Conv2DOptions, new Conv2DOptions());
    int x = ins[0];
    int w = ins[1];
    long[] xs = rank(i, x, 4, "input");
    long[] ws = rank(i, w, 4, "filter");
    if (ws[3] < 1 || xs[3] % ws[3] != 0) {
      throw unsupported(
          i, "input channels " + xs[3] + " are not a multiple of the filter's " + ws[3]);
    }
    long[] strides = {o.strideH(), o.strideW()};
    long[] dilations = {o.dilationHFactor(), o.dilationWFactor()};
    Attributes.Builder a =
        Attributes.builder()
            .put("kernel_shape", ws[1], ws[2])
            .put("strides", strides)
            .put("dilations", dilations)
            .put("group", xs[3] / ws[3])
            .put("pads", pads(i, o.padding(), xs, new long[] {ws[1], ws[2]}, strides, dilations));
    fused(a, o.fusedActivationFunction());
    // OHWI relabelled as any rank-4 tensor is OIHW, Conv's weight layout
    emit(i, OpKind.CONV, a.build(), operands(i, x, w, bias(ins, 2)), outs);
  }

  private void depthwise(int i, Operator op, int[] ins, int[] outs) {
    arity(i, ins, 2, 3);
    DepthwiseConv2DOptions o =
        options(i, op, BuiltinOptions.DepthwiseConv2DOptions, new DepthwiseConv2DOptions());
    int x = ins[0];
    int w = ins[1];
    long[] xs = rank(i, x, 4, "input");
    long[] ws = rank(i, w, 4, "filter");
    if (!persistent[w]) {
      throw unsupported(i, "a depthwise filter computed at run time is not modelled");
    }
    long[] strides = {o.strideH(), o.strideW()};
    long[] dilations = {o.dilationHFactor(), o.dilationWFactor()};
    Attributes.Builder a =
        Attributes.builder()
            .put("kernel_shape", ws[1], ws[2])
            .put("strides", strides)
            .put("dilations", dilations)
            .put("group", xs[3])
            .put("pads", pads(i, o.padding(), xs, new long[] {ws[1], ws[2]}, strides, dilations));
    fused(a, o.fusedActivationFunction());
    // [1, kh, kw, c*m] as TPU-MLIR's depthwise_2d_op transposes it: [c*m, 1, kh, kw]
    String filter = view(w, new long[] {ws[3], ws[0], ws[1], ws[2]}, false);
    List<String> irIns = new ArrayList<>(List.of(operand(i, x), filter));
    if (bias(ins, 2) >= 0) {
      irIns.add(view(ins[2], ir(shape(i, ins[2])), true));
    }
    emit(i, OpKind.CONV, a.build(), irIns, outs);
  }

  private void pool(int i, Operator op, int[] ins, int[] outs, OpKind kind) {
    arity(i, ins, 1, 1);
    Pool2DOptions o = options(i, op, BuiltinOptions.Pool2DOptions, new Pool2DOptions());
    long[] xs = rank(i, ins[0], 4, "input");
    long[] kernel = {o.filterHeight(), o.filterWidth()};
    long[] strides = {o.strideH(), o.strideW()};
    Attributes.Builder a =
        Attributes.builder()
            .put("kernel_shape", kernel)
            .put("strides", strides)
            .put("pads", pads(i, o.padding(), xs, kernel, strides, new long[] {1, 1}));
    fused(a, o.fusedActivationFunction());
    emit(i, kind, a.build(), List.of(operand(i, ins[0])), outs);
  }

  private void fullyConnected(int i, Operator op, int[] ins, int[] outs) {
    arity(i, ins, 2, 3);
    FullyConnectedOptions o =
        optionalOptions(op, BuiltinOptions.FullyConnectedOptions, new FullyConnectedOptions());
    int act = o == null ? 0 : o.fusedActivationFunction();
    if (o != null && o.weightsFormat() != 0) {
      throw unsupported(i, "weights format " + o.weightsFormat() + " (shuffled) is not modelled");
    }
    int x = ins[0];
    int w = ins[1];
    long[] xs = shape(i, x);
    long[] ws = rank(i, w, 2, "weights");
    Attributes.Builder a = Attributes.builder();
    fused(a, act);
    int bias = bias(ins, 2);
    if (xs.length == 2) {
      a.put("transB", 1L);
      emit(i, OpKind.GEMM, a.build(), operands(i, x, w, bias), outs);
    } else if (xs.length != 4 && o != null && o.keepNumDims() && persistent[w]) {
      // x[..., in] times W^T: the [units, in] buffer read as a transposed [in, units] matrix
      List<String> irIns =
          new ArrayList<>(List.of(operand(i, x), view(w, new long[] {ws[1], ws[0]}, false)));
      if (bias >= 0) {
        irIns.add(view(bias, ir(shape(i, bias)), true));
      }
      emit(i, OpKind.MAT_MUL, a.build(), irIns, outs);
    } else if (!(o != null && o.keepNumDims())) {
      // TFLite reads the input as [elements / in, in] in place: a Reshape (an alias) then Gemm
      long in = ws[1];
      long elements = elements(xs);
      if (in < 1 || elements % in != 0) {
        throw unsupported(
            i, "the input's " + elements + " elements are not rows of the weights' " + in);
      }
      String flat = opName(i) + ":flattened";
      Attributes shape =
          Attributes.builder().put("shape", elements / in, in).put("allowzero", 1L).build();
      try {
        b.op(flat, OpKind.RESHAPE, shape, List.of(operand(i, x)), List.of(flat));
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new IllegalArgumentException(
            source + ": operator " + i + ": " + InputText.oneLine(e.getMessage()), e);
      }
      a.put("transB", 1L);
      List<String> irIns = new ArrayList<>(List.of(flat, operand(i, w)));
      if (bias >= 0) {
        irIns.add(persistent[bias] ? view(bias, ir(shape(i, bias)), true) : operand(i, bias));
      }
      emit(i, OpKind.GEMM, a.build(), irIns, outs);
    } else {
      throw unsupported(
          i,
          "a rank-"
              + xs.length
              + " input with keep_num_dims is modelled only for ranks 3 and 5+ with constant"
              + " weights");
    }
  }

  private void batchMatMul(int i, Operator op, int[] ins, int[] outs) {
    arity(i, ins, 2, 2);
    BatchMatMulOptions o =
        optionalOptions(op, BuiltinOptions.BatchMatMulOptions, new BatchMatMulOptions());
    boolean adj = o != null && (o.adjX() || o.adjY());
    int x = ins[0];
    int y = ins[1];
    long[] xs = shape(i, x);
    long[] ys = shape(i, y);
    if (xs.length == 4) {
      if (adj || ys.length != 2 || !persistent[y] || xs[3] != ys[0]) {
        throw unsupported(
            i,
            "a rank-4 left operand is modelled only against a constant [c, k] matrix without"
                + " adjoints");
      }
      // the product over the NHWC channel axis, in NCHW: a 1x1 convolution by W^T [k, c, 1, 1]
      Attributes a =
          Attributes.builder()
              .put("kernel_shape", 1L, 1L)
              .put("strides", 1L, 1L)
              .put("pads", 0L, 0L, 0L, 0L)
              .build();
      String filter = view(y, new long[] {ys[1], ys[0], 1, 1}, false);
      emit(i, OpKind.CONV, a, List.of(operand(i, x), filter), outs);
      return;
    }
    if (adj || ys.length == 4) {
      throw unsupported(i, "adjoint operands and rank-4 right operands are not modelled");
    }
    emit(i, OpKind.MAT_MUL, Attributes.empty(), List.of(operand(i, x), operand(i, y)), outs);
  }

  /**
   * MediaPipe's Convolution2DTransposeBias: input NHWC, weights OHWI, bias [O]; options {@code
   * TfLiteTransposeConvParams} (padding, stride_width, stride_height as little-endian int32).
   */
  private void transposeConvBias(int i, Operator op, int[] ins, int[] outs) {
    arity(i, ins, 3, 3);
    int n = op.customOptionsLength();
    if (n < 12) {
      throw unsupported(i, "custom options of " + n + " bytes, expected 12 (padding, strides)");
    }
    ByteBuffer opts = op.customOptionsAsByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    int p = opts.position();
    int padding = opts.getInt(p);
    long strideW = opts.getInt(p + 4);
    long strideH = opts.getInt(p + 8);
    if (strideW < 1 || strideH < 1 || (padding != 1 && padding != 2)) {
      throw unsupported(
          i, "custom options padding " + padding + ", strides " + strideH + "x" + strideW);
    }
    int x = ins[0];
    int w = ins[1];
    long[] xs = rank(i, x, 4, "input");
    long[] ws = rank(i, w, 4, "weights");
    if (!persistent[w]) {
      throw unsupported(i, "weights computed at run time are not modelled");
    }
    long padH = padding == 1 ? Math.max(0, ws[1] - (xs[1] - 1) % strideH - 1) : 0;
    long padW = padding == 1 ? Math.max(0, ws[2] - (xs[2] - 1) % strideW - 1) : 0;
    Attributes a =
        Attributes.builder()
            .put("kernel_shape", ws[1], ws[2])
            .put("strides", strideH, strideW)
            .put("pads", padH / 2, padW / 2, padH - padH / 2, padW - padW / 2)
            .build();
    // OHWI as ConvTranspose's [C_in, C_out, kh, kw]
    String filter = view(w, new long[] {ws[3], ws[0], ws[1], ws[2]}, false);
    emit(
        i,
        OpKind.CONV_TRANSPOSE,
        a,
        List.of(operand(i, x), filter, view(ins[2], ir(shape(i, ins[2])), true)),
        outs);
  }

  private void elementwise(int i, int[] ins, int[] outs, OpKind kind, int act) {
    arity(i, ins, 2, 2);
    int outRank = 0;
    for (int t : ins) {
      outRank = Math.max(outRank, shape(i, t).length);
    }
    List<String> irIns = new ArrayList<>();
    for (int t : ins) {
      long[] s = shape(i, t);
      if (outRank != 4 || s.length == 4 || s.length == 0) {
        irIns.add(operand(i, t));
      } else if (persistent[t]) {
        // a constant broadcast against NHWC data, aligned right, then relabelled
        long[] four = new long[4];
        Arrays.fill(four, 1);
        System.arraycopy(s, 0, four, 4 - s.length, s.length);
        irIns.add(view(t, ir(four), false));
      } else {
        throw unsupported(
            i,
            "broadcasting the rank-"
                + s.length
                + " run-time operand "
                + InputText.quote(names[t])
                + " against rank-4 NHWC data is not modelled");
      }
    }
    Attributes.Builder a = Attributes.builder();
    fused(a, act);
    emit(i, kind, a.build(), irIns, outs);
  }

  private void unary(int i, int[] ins, int[] outs, OpKind kind, Attributes a) {
    arity(i, ins, 1, 1);
    emit(i, kind, a, List.of(operand(i, ins[0])), outs);
  }

  private void leakyRelu(int i, Operator op, int[] ins, int[] outs) {
    LeakyReluOptions o =
        optionalOptions(op, BuiltinOptions.LeakyReluOptions, new LeakyReluOptions());
    double alpha = o == null ? 0.2 : o.alpha();
    unary(i, ins, outs, OpKind.LEAKY_RELU, Attributes.builder().put("alpha", alpha).build());
  }

  /** RSQRT: x^(-1/2), one op reading the input and a scalar constant, as memplan has no Rsqrt. */
  private void rsqrt(int i, int[] ins, int[] outs) {
    arity(i, ins, 1, 1);
    String exponent = opName(i) + ":exponent";
    b.constant(exponent, typed(ins[0]));
    emit(i, OpKind.POW, Attributes.empty(), List.of(operand(i, ins[0]), exponent), outs);
  }

  private void cast(int i, int[] ins, int[] outs) {
    arity(i, ins, 1, 1);
    DType to = typed(outs[0]);
    unary(i, ins, outs, OpKind.CAST, Attributes.builder().put("to", (long) to.onnxCode()).build());
  }

  private void concat(int i, Operator op, int[] ins, int[] outs) {
    if (ins.length < 1) {
      throw unsupported(i, "has no input");
    }
    ConcatenationOptions o =
        optionalOptions(op, BuiltinOptions.ConcatenationOptions, new ConcatenationOptions());
    int rank = shape(i, ins[0]).length;
    int axis = axis(i, o == null ? 0 : o.axis(), rank);
    Attributes.Builder a = Attributes.builder().put("axis", (long) irAxis(axis, rank));
    fused(a, o == null ? 0 : o.fusedActivationFunction());
    List<String> irIns = new ArrayList<>();
    for (int t : ins) {
      irIns.add(operand(i, t));
    }
    emit(i, OpKind.CONCAT, a.build(), irIns, outs);
  }

  private void pad(int i, int[] ins, int[] outs) {
    arity(i, ins, 2, 3);
    long[] xs = shape(i, ins[0]);
    long[] p = ints(i, ins[1], "paddings");
    if (p.length != 2 * xs.length) {
      throw unsupported(
          i, "paddings of " + p.length + " values for a rank-" + xs.length + " input");
    }
    int r = xs.length;
    long[] pads = new long[2 * r];
    for (int k = 0; k < r; k++) {
      int a = r == 4 ? NCHW[k] : k;
      pads[k] = p[2 * a];
      pads[r + k] = p[2 * a + 1];
    }
    Attributes a = Attributes.builder().put("mode", "constant").put("pads", pads).build();
    emit(i, OpKind.PAD, a, List.of(operand(i, ins[0])), outs);
  }

  private void reshape(int i, Operator op, int[] ins, int[] outs) {
    arity(i, ins, 1, 2);
    long[] target;
    if (ins.length == 2 && ins[1] >= 0) {
      target = ints(i, ins[1], "shape");
    } else {
      ReshapeOptions o = optionalOptions(op, BuiltinOptions.ReshapeOptions, new ReshapeOptions());
      if (o == null) {
        throw unsupported(i, "has neither a shape operand nor a new_shape option");
      }
      target = new long[count(o.newShapeLength(), "new_shape dims")];
      for (int k = 0; k < target.length; k++) {
        target[k] = o.newShape(k);
      }
    }
    reshapeTo(i, ins[0], resolve(i, shape(i, ins[0]), target), outs);
  }

  /** A Reshape of {@code x} to {@code target} (file order, resolved). */
  private void reshapeTo(int i, int x, long[] target, int[] outs) {
    Attributes a = Attributes.builder().put("shape", ir(target)).put("allowzero", 1L).build();
    emit(i, OpKind.RESHAPE, a, List.of(operand(i, x)), outs);
  }

  /** TFLite's reshape target: one -1 takes the remaining elements. */
  private long[] resolve(int i, long[] in, long[] target) {
    long elements = Math.abs(elements(in));
    long known = 1;
    int inferred = -1;
    for (int k = 0; k < target.length; k++) {
      if (target[k] == -1 && inferred < 0) {
        inferred = k;
      } else if (target[k] < 0) {
        throw unsupported(i, "reshape target " + Arrays.toString(target) + " is not valid");
      } else {
        known = Math.multiplyExact(known, target[k]);
      }
    }
    long[] out = target.clone();
    if (inferred >= 0) {
      if (known == 0 || elements % known != 0) {
        throw unsupported(
            i,
            "reshape target "
                + Arrays.toString(target)
                + " does not divide the input's "
                + elements
                + " elements");
      }
      out[inferred] = elements / known;
    }
    return out;
  }

  private void expandDims(int i, int[] ins, int[] outs) {
    arity(i, ins, 2, 2);
    long[] xs = shape(i, ins[0]);
    long[] axes = ints(i, ins[1], "axis");
    if (axes.length != 1) {
      throw unsupported(i, "axis operand of " + axes.length + " values");
    }
    int axis = axis(i, axes[0], xs.length + 1);
    long[] target = new long[xs.length + 1];
    for (int k = 0, j = 0; k < target.length; k++) {
      target[k] = k == axis ? 1 : xs[j++];
    }
    if (xs.length == 4 || target.length == 4) {
      reshapeTo(i, ins[0], target, outs);
    } else {
      Attributes a = Attributes.builder().put("axes", (long) axis).build();
      emit(i, OpKind.UNSQUEEZE, a, List.of(operand(i, ins[0])), outs);
    }
  }

  private void squeeze(int i, Operator op, int[] ins, int[] outs) {
    arity(i, ins, 1, 1);
    long[] xs = shape(i, ins[0]);
    SqueezeOptions o = optionalOptions(op, BuiltinOptions.SqueezeOptions, new SqueezeOptions());
    int n = o == null ? 0 : count(o.squeezeDimsLength(), "squeeze dims");
    boolean[] drop = new boolean[xs.length];
    for (int k = 0; k < n; k++) {
      int a = axis(i, o.squeezeDims(k), xs.length);
      if (xs[a] != 1) {
        throw unsupported(i, "squeezes dim " + a + " of size " + xs[a]);
      }
      drop[a] = true;
    }
    List<Long> kept = new ArrayList<>();
    List<Long> axes = new ArrayList<>();
    for (int k = 0; k < xs.length; k++) {
      if (n == 0 ? xs[k] == 1 : drop[k]) {
        axes.add((long) k);
      } else {
        kept.add(xs[k]);
      }
    }
    long[] target = kept.stream().mapToLong(Long::longValue).toArray();
    if (xs.length == 4 || target.length == 4) {
      reshapeTo(i, ins[0], target, outs);
    } else {
      Attributes a =
          Attributes.builder()
              .put("axes", axes.stream().mapToLong(Long::longValue).toArray())
              .build();
      emit(i, OpKind.SQUEEZE, a, List.of(operand(i, ins[0])), outs);
    }
  }

  private void transpose(int i, int[] ins, int[] outs) {
    arity(i, ins, 2, 2);
    long[] xs = shape(i, ins[0]);
    long[] perm = ints(i, ins[1], "perm");
    if (perm.length != xs.length) {
      throw unsupported(i, "perm " + Arrays.toString(perm) + " for a rank-" + xs.length + " input");
    }
    long[] p = perm.clone();
    if (xs.length == 4) {
      for (int k = 0; k < 4; k++) {
        int a = axis(i, perm[NCHW[k]], 4);
        p[k] = NHWC_AXIS_TO_NCHW[a];
      }
    }
    Attributes a = Attributes.builder().put("perm", p).build();
    emit(i, OpKind.TRANSPOSE, a, List.of(operand(i, ins[0])), outs);
  }

  /**
   * DEPTH_TO_SPACE of NHWC data as a DepthToSpace in DCR mode on the tensors relabelled NCHW (see
   * {@link TfliteImporter}: TFLite's block index is the channel's major part, as DCR's).
   */
  private void depthToSpace(int i, Operator op, int[] ins, int[] outs) {
    arity(i, ins, 1, 1);
    DepthToSpaceOptions o =
        options(i, op, BuiltinOptions.DepthToSpaceOptions, new DepthToSpaceOptions());
    rank(i, ins[0], 4, "input");
    Attributes a =
        Attributes.builder().put("blocksize", (long) o.blockSize()).put("mode", "DCR").build();
    emit(i, OpKind.DEPTH_TO_SPACE, a, List.of(operand(i, ins[0])), outs);
  }

  private void softmax(int i, int[] ins, int[] outs) {
    arity(i, ins, 1, 1);
    int rank = shape(i, ins[0]).length;
    long axis = rank == 4 ? 1 : rank - 1;
    emit(
        i,
        OpKind.SOFTMAX,
        Attributes.builder().put("axis", axis).build(),
        List.of(operand(i, ins[0])),
        outs);
  }

  private void resize(int i, Operator op, int[] ins, int[] outs) {
    arity(i, ins, 2, 2);
    long[] xs = rank(i, ins[0], 4, "input");
    long[] size = ints(i, ins[1], "size");
    if (size.length != 2) {
      throw unsupported(i, "size of " + size.length + " values, expected [height, width]");
    }
    boolean align;
    boolean half;
    String mode;
    if (opNames[i].equals("RESIZE_BILINEAR")) {
      ResizeBilinearOptions o =
          optionalOptions(op, BuiltinOptions.ResizeBilinearOptions, new ResizeBilinearOptions());
      align = o != null && o.alignCorners();
      half = o != null && o.halfPixelCenters();
      mode = "linear";
    } else {
      ResizeNearestNeighborOptions o =
          optionalOptions(
              op, BuiltinOptions.ResizeNearestNeighborOptions, new ResizeNearestNeighborOptions());
      align = o != null && o.alignCorners();
      half = o != null && o.halfPixelCenters();
      mode = "nearest";
    }
    String coordinates = align ? "align_corners" : half ? "half_pixel" : "asymmetric";
    Attributes a =
        Attributes.builder()
            .put("mode", mode)
            .put("coordinate_transformation_mode", coordinates)
            .put("sizes", xs[0], xs[3], size[0], size[1])
            .build();
    emit(i, OpKind.RESIZE, a, List.of(operand(i, ins[0])), outs);
  }

  private void reduce(int i, Operator op, int[] ins, int[] outs, OpKind kind) {
    arity(i, ins, 2, 2);
    long[] xs = shape(i, ins[0]);
    long[] given = ints(i, ins[1], "axes");
    ReducerOptions o = optionalOptions(op, BuiltinOptions.ReducerOptions, new ReducerOptions());
    boolean keep = o != null && o.keepDims();
    boolean[] reduced = new boolean[xs.length];
    for (long g : given) {
      reduced[axis(i, g, xs.length)] = true;
    }
    List<Long> axes = new ArrayList<>();
    for (int k = 0; k < xs.length; k++) {
      int a = xs.length == 4 ? NCHW[k] : k;
      if (reduced[a]) {
        axes.add((long) k);
      }
    }
    if (xs.length == 4 && !keep) {
      // the dims left keep NCHW order; that must be the file's order (the channel dim must not
      // pass a kept H or W)
      List<Integer> irOrder = new ArrayList<>();
      List<Integer> fileOrder = new ArrayList<>();
      for (int k = 0; k < 4; k++) {
        if (!reduced[NCHW[k]]) {
          irOrder.add(NCHW[k]);
        }
        if (!reduced[k]) {
          fileOrder.add(k);
        }
      }
      if (!irOrder.equals(fileOrder)) {
        throw unsupported(
            i,
            "reducing NHWC axes "
                + Arrays.toString(given)
                + " without keep_dims leaves the channel before H or W, not modelled in NCHW");
      }
    }
    Attributes a =
        Attributes.builder()
            .put("axes", axes.stream().mapToLong(Long::longValue).toArray())
            .put("keepdims", keep ? 1L : 0L)
            .build();
    emit(i, kind, a, List.of(operand(i, ins[0])), outs);
  }

  private void stridedSlice(int i, Operator op, int[] ins, int[] outs) {
    arity(i, ins, 4, 4);
    long[] xs = shape(i, ins[0]);
    long[] begin = ints(i, ins[1], "begin");
    long[] end = ints(i, ins[2], "end");
    long[] strides = ints(i, ins[3], "strides");
    StridedSliceOptions o =
        optionalOptions(op, BuiltinOptions.StridedSliceOptions, new StridedSliceOptions());
    int beginMask = o == null ? 0 : o.beginMask();
    int endMask = o == null ? 0 : o.endMask();
    if (o != null && (o.ellipsisMask() != 0 || o.newAxisMask() != 0 || o.shrinkAxisMask() != 0)) {
      throw unsupported(
          i,
          "ellipsis_mask "
              + o.ellipsisMask()
              + ", new_axis_mask "
              + o.newAxisMask()
              + ", shrink_axis_mask "
              + o.shrinkAxisMask()
              + ": only begin and end masks are modelled");
    }
    if (begin.length != xs.length || end.length != xs.length || strides.length != xs.length) {
      throw unsupported(i, "begin/end/strides do not cover the input's " + xs.length + " dims");
    }
    long[] starts = new long[xs.length];
    long[] ends = new long[xs.length];
    for (int k = 0; k < xs.length; k++) {
      if (strides[k] == 0) {
        throw unsupported(i, "stride 0 on dim " + k);
      }
      boolean up = strides[k] > 0;
      starts[k] = (beginMask >> k & 1) != 0 ? (up ? 0 : Long.MAX_VALUE) : begin[k];
      ends[k] = (endMask >> k & 1) != 0 ? (up ? Long.MAX_VALUE : Long.MIN_VALUE) : end[k];
    }
    sliceOp(i, ins[0], starts, ends, strides, outs);
  }

  private void slice(int i, int[] ins, int[] outs) {
    arity(i, ins, 3, 3);
    long[] xs = shape(i, ins[0]);
    long[] begin = ints(i, ins[1], "begin");
    long[] size = ints(i, ins[2], "size");
    if (begin.length != xs.length || size.length != xs.length) {
      throw unsupported(i, "begin/size do not cover the input's " + xs.length + " dims");
    }
    long[] ends = new long[xs.length];
    long[] steps = new long[xs.length];
    for (int k = 0; k < xs.length; k++) {
      ends[k] = size[k] < 0 ? Long.MAX_VALUE : Math.addExact(begin[k], size[k]);
      steps[k] = 1;
    }
    sliceOp(i, ins[0], begin, ends, steps, outs);
  }

  private void sliceOp(int i, int x, long[] starts, long[] ends, long[] steps, int[] outs) {
    int r = starts.length;
    long[] axes = new long[r];
    long[] s = new long[r];
    long[] e = new long[r];
    long[] st = new long[r];
    for (int k = 0; k < r; k++) {
      int a = r == 4 ? NCHW[k] : k;
      axes[k] = k;
      s[k] = starts[a];
      e[k] = ends[a];
      st[k] = steps[a];
    }
    Attributes attrs =
        Attributes.builder()
            .put("starts", s)
            .put("ends", e)
            .put("axes", axes)
            .put("steps", st)
            .build();
    emit(i, OpKind.SLICE, attrs, List.of(operand(i, x)), outs);
  }

  /**
   * DEQUANTIZE: of a constant buffer, computed once at Prepare (a stored tensor, no op); otherwise
   * a Cast (F16) or a DequantizeLinear (integers) every run.
   */
  private void dequantize(int i, int[] ins, int[] outs) {
    arity(i, ins, 1, 1);
    arity(i, outs, 1, 1);
    int x = ins[0];
    int y = outs[0];
    if (buffered[x]) {
      foldConstant(i, x, y, DType.F32);
      return;
    }
    DType from = typed(x);
    if (from == DType.F16) {
      emit(
          i,
          OpKind.CAST,
          Attributes.builder().put("to", (long) typed(y).onnxCode()).build(),
          List.of(operand(i, x)),
          outs);
      return;
    }
    Quantization q = quantizationOf(x);
    if (q == null) {
      throw unsupported(i, "the quantized input " + InputText.quote(names[x]) + " has no scale");
    }
    affine(i, OpKind.DEQUANTIZE_LINEAR, x, q, from, outs);
  }

  /** QUANTIZE of float data: a QuantizeLinear with the output's scale and zero point. */
  private void quantize(int i, int[] ins, int[] outs) {
    arity(i, ins, 1, 1);
    arity(i, outs, 1, 1);
    int x = ins[0];
    int y = outs[0];
    if (!typed(x).isFloatingPoint()) {
      throw unsupported(i, "requantizing " + typed(x) + " data is not modelled");
    }
    Quantization q = quantizationOf(y);
    if (q == null) {
      throw unsupported(i, "the output " + InputText.quote(names[y]) + " has no scale");
    }
    affine(i, OpKind.QUANTIZE_LINEAR, x, q, typed(y), outs);
  }

  /**
   * A QuantizeLinear or DequantizeLinear of {@code x} with {@code q}'s scales (F32 constants) and
   * zero points ({@code zpType} constants), per axis when {@code q} has several.
   */
  private void affine(int i, OpKind kind, int x, Quantization q, DType zpType, int[] outs) {
    String scale = opName(i) + ":scale";
    String zero = opName(i) + ":zero_point";
    Attributes.Builder a = Attributes.builder();
    if (q.perAxis()) {
      b.constant(scale, DType.F32, q.scale().length);
      b.constant(zero, zpType, q.zeroPoint().length);
      a.put("axis", (long) irAxis(q.quantizedDimension(), shape(i, x).length));
    } else {
      b.constant(scale, DType.F32);
      b.constant(zero, zpType);
    }
    emit(i, kind, a.build(), List.of(operand(i, x), scale, zero), outs);
  }

  private void densify(int i, int[] ins, int[] outs) {
    arity(i, ins, 1, 1);
    arity(i, outs, 1, 1);
    if (!buffered[ins[0]] || tensors[ins[0]].sparsity() == null) {
      throw unsupported(
          i, "densifies " + InputText.quote(names[ins[0]]) + ", not a sparse constant");
    }
    foldConstant(i, ins[0], outs[0], typed(outs[0]));
  }

  /**
   * An operator TFLite runs once into a persistent tensor: {@code y} becomes a stored tensor of
   * {@code x}'s dims; the shape check compares those with {@code y}'s stored dims.
   */
  private void foldConstant(int i, int x, int y, DType resultType) {
    persistent[y] = true;
    shape[y] = shape(i, x).clone();
    checks.add(
        new ShapeCheck(
            i,
            opName(i),
            names[y],
            shape[y].clone(),
            resultType,
            stored[y].clone(),
            signature[y].clone(),
            dtype[y]));
  }

  // ---------------------------------------------------------------- helpers

  /** Adds the op, records each output's shape and its check against the stored one. */
  private void emit(int i, OpKind kind, Attributes a, List<String> irIns, int[] outs) {
    List<String> outNames = new ArrayList<>();
    for (int t : outs) {
      if (defined[t] != null || persistent[t]) {
        throw fail(
            "operator "
                + i
                + " ("
                + opNames[i]
                + ") redefines tensor "
                + InputText.quote(names[t]));
      }
      outNames.add(names[t]);
    }
    List<Tensor> result;
    try {
      result = b.op(opName(i), kind, a, irIns, outNames);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new IllegalArgumentException(
          source + ": operator " + i + ": " + InputText.oneLine(e.getMessage()) + hint(), e);
    }
    for (int k = 0; k < outs.length; k++) {
      int t = outs[k];
      Tensor r = result.get(k);
      defined[t] = r.name();
      shape[t] = file(r.shape().dims());
      checks.add(
          new ShapeCheck(
              i,
              opName(i),
              r.name(),
              shape[t].clone(),
              r.dtype(),
              stored[t].clone(),
              signature[t].clone(),
              dtype[t]));
      recordQuantization(t, r.name());
    }
  }

  /** For a failure at stored input dims that are placeholders: which inputs to resize. */
  private String hint() {
    if (placeholders.isEmpty()) {
      return "";
    }
    return "; the file's input dims may be placeholders for dynamic ones: "
        + String.join(", ", placeholders)
        + "; give real ones with --input NAME=D0,D1,...";
  }

  private String opName(int i) {
    return opNames[i] + "#" + i;
  }

  /** The memplan name of tensor {@code t} as a data operand: computed, or a stored view. */
  private String operand(int i, int t) {
    if (defined[t] != null) {
      return defined[t];
    }
    if (persistent[t]) {
      return view(t, ir(shape(i, t)), false);
    }
    throw readsUndefined(i, t);
  }

  private IllegalArgumentException readsUndefined(int i, int t) {
    return fail(
        "operator "
            + i
            + " ("
            + opNames[i]
            + ") reads tensor "
            + InputText.quote(names[t])
            + " before any operator computes it");
  }

  /** Operands {@code x, w} and, when present, the bias {@code bias} (a stored view). */
  private List<String> operands(int i, int x, int w, int bias) {
    List<String> out = new ArrayList<>(List.of(operand(i, x), operand(i, w)));
    if (bias >= 0) {
      out.add(persistent[bias] ? view(bias, ir(shape(i, bias)), true) : operand(i, bias));
    }
    return out;
  }

  private static int bias(int[] ins, int k) {
    return ins.length > k ? ins[k] : -1;
  }

  /**
   * The memplan tensor for stored tensor {@code t} with memplan dims {@code dims}, made on first
   * use: a weight (floating point, 8 or 4 bits, or a bias) or a constant. A second use with other
   * dims gets its own tensor, {@code name~k}.
   */
  private String view(int t, long[] dims, boolean bias) {
    String key = t + ":" + Arrays.toString(dims);
    String have = views.get(key);
    if (have != null) {
      return have;
    }
    if (elements(dims) != elements(shape[t] == null ? stored[t] : shape[t])) {
      throw fail(
          "tensor "
              + InputText.quote(names[t])
              + " "
              + Arrays.toString(stored[t])
              + " cannot be read as "
              + Arrays.toString(dims));
    }
    int k = viewCount.merge(t, 1, Integer::sum);
    String name = k == 1 ? names[t] : names[t] + "~" + k;
    DType d = typed(t);
    boolean weight =
        dims.length > 0 && (bias || d.isFloatingPoint() || d.bits() <= 8) && d != DType.BOOL;
    if (weight) {
      b.weight(name, d, dims);
    } else {
      b.constant(name, d, dims);
    }
    views.put(key, name);
    recordQuantization(t, name);
    return name;
  }

  private void recordQuantization(int t, String name) {
    Quantization q = quantizationOf(t);
    if (q != null) {
      quantization.put(name, q);
    }
  }

  private Quantization quantizationOf(int t) {
    QuantizationParameters p = tensors[t].quantization();
    if (p == null) {
      return null;
    }
    int n = count(p.scaleLength(), "scales of tensor " + t);
    if (n == 0) {
      return null;
    }
    int z = count(p.zeroPointLength(), "zero points of tensor " + t);
    double[] scale = new double[n];
    long[] zero = new long[n];
    for (int k = 0; k < n; k++) {
      scale[k] = p.scale(k);
      zero[k] = k < z ? p.zeroPoint(k) : 0;
    }
    return new Quantization(scale, zero, p.quantizedDimension());
  }

  /** The options table of {@code op}, which must be of {@code type}. */
  private <T extends com.google.flatbuffers.Table> T options(
      int i, Operator op, byte type, T table) {
    T o = optionalOptions(op, type, table);
    if (o == null) {
      throw unsupported(i, "has no " + BuiltinOptions.name(type));
    }
    return o;
  }

  /** The options table of {@code op} when it is of {@code type}, else {@code null}. */
  @SuppressWarnings("unchecked")
  private static <T extends com.google.flatbuffers.Table> T optionalOptions(
      Operator op, byte type, T table) {
    if (op.builtinOptionsType() != type) {
      return null;
    }
    return (T) op.builtinOptions(table);
  }

  /** Fused activation {@code act} as attributes: its name, and do_relu/relu_limit for ReLUs. */
  private static void fused(Attributes.Builder a, int act) {
    if (act == 0) {
      return;
    }
    String name =
        act > 0 && act < org.tensorflow.lite.schema.ActivationFunctionType.names.length
            ? org.tensorflow.lite.schema.ActivationFunctionType.name(act)
            : "activation " + act;
    a.put("fused_activation", name);
    if (act == org.tensorflow.lite.schema.ActivationFunctionType.RELU) {
      a.put(FrontEnd.DO_RELU, 1L).put(FrontEnd.RELU_LIMIT, -1.0);
    } else if (act == org.tensorflow.lite.schema.ActivationFunctionType.RELU6) {
      a.put(FrontEnd.DO_RELU, 1L).put(FrontEnd.RELU_LIMIT, 6.0);
    }
  }

  /** The fused activation of an ADD/SUB/MUL/DIV (0 when the options are absent). */
  private static int fusedOf(Operator op) {
    return switch (op.builtinOptionsType()) {
      case BuiltinOptions.AddOptions ->
          ((org.tensorflow.lite.schema.AddOptions)
                  op.builtinOptions(new org.tensorflow.lite.schema.AddOptions()))
              .fusedActivationFunction();
      case BuiltinOptions.SubOptions ->
          ((org.tensorflow.lite.schema.SubOptions)
                  op.builtinOptions(new org.tensorflow.lite.schema.SubOptions()))
              .fusedActivationFunction();
      case BuiltinOptions.MulOptions ->
          ((org.tensorflow.lite.schema.MulOptions)
                  op.builtinOptions(new org.tensorflow.lite.schema.MulOptions()))
              .fusedActivationFunction();
      case BuiltinOptions.DivOptions ->
          ((org.tensorflow.lite.schema.DivOptions)
                  op.builtinOptions(new org.tensorflow.lite.schema.DivOptions()))
              .fusedActivationFunction();
      default -> 0;
    };
  }

  /**
   * Explicit [top, left, bottom, right] pads of TFLite's SAME/VALID rule, as TPU-MLIR's {@code
   * _compute_pad} (after {@code tensorflow/lite/kernels/padding.h}): SAME gives ceil(in/stride)
   * outputs and puts the odd pixel at the end.
   */
  private long[] pads(
      int i, byte padding, long[] nhwc, long[] kernel, long[] strides, long[] dilations) {
    long[] before = new long[2];
    long[] after = new long[2];
    for (int k = 0; k < 2; k++) {
      if (strides[k] < 1 || dilations[k] < 1 || kernel[k] < 1) {
        throw unsupported(
            i,
            "kernel "
                + Arrays.toString(kernel)
                + ", strides "
                + Arrays.toString(strides)
                + ", dilations "
                + Arrays.toString(dilations)
                + " must be positive");
      }
      if (padding == Padding.SAME) {
        long in = nhwc[1 + k];
        long effective = Math.addExact(Math.multiplyExact(kernel[k] - 1, dilations[k]), 1);
        long out = (in + strides[k] - 1) / strides[k];
        long needed = Math.max(0, (out - 1) * strides[k] + effective - in);
        before[k] = needed / 2;
        after[k] = needed - needed / 2;
      } else if (padding != Padding.VALID) {
        throw unsupported(i, "padding " + padding + " is neither SAME nor VALID");
      }
    }
    return new long[] {before[0], before[1], after[0], after[1]};
  }

  /** The current dims of tensor {@code t}, in the file's order. */
  private long[] shape(int i, int t) {
    if (t < 0) {
      throw unsupported(i, "an operand that must be present is omitted");
    }
    if (shape[t] == null) {
      if (!persistent[t]) {
        throw readsUndefined(i, t);
      }
      checkStatic(t, stored[t]);
      shape[t] = stored[t].clone();
    }
    return shape[t];
  }

  private long[] rank(int i, int t, int rank, String what) {
    long[] s = shape(i, t);
    if (s.length != rank) {
      throw unsupported(
          i,
          "the "
              + what
              + " "
              + InputText.quote(names[t])
              + " has rank "
              + s.length
              + ", not "
              + rank);
    }
    return s;
  }

  /** The integers of the constant operand {@code t} (INT32 or INT64). */
  private long[] ints(int i, int t, String what) {
    if (t < 0 || !buffered[t]) {
      throw unsupported(
          i,
          "its "
              + what
              + " operand"
              + (t < 0
                  ? " is omitted"
                  : " " + InputText.quote(names[t]) + " is computed at run time"));
    }
    byte type = tensors[t].type();
    int width = type == TensorType.INT32 ? 4 : type == TensorType.INT64 ? 8 : 0;
    if (width == 0) {
      throw unsupported(i, "its " + what + " operand is not INT32 or INT64");
    }
    org.tensorflow.lite.schema.Buffer buffer = model.buffers((int) tensors[t].buffer());
    ByteBuffer data = buffer.dataAsByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    int bytes = buffer.dataLength();
    long n = elements(stored[t]);
    if (n < 0 || n * width != bytes) {
      throw fail(
          "tensor "
              + InputText.quote(names[t])
              + " "
              + Arrays.toString(stored[t])
              + " holds "
              + bytes
              + " bytes, not "
              + n
              + " x "
              + width);
    }
    long[] out = new long[(int) n];
    int p = data.position();
    for (int k = 0; k < n; k++) {
      out[k] = width == 4 ? data.getInt(p + 4 * k) : data.getLong(p + 8 * k);
    }
    return out;
  }

  private static long elements(long[] dims) {
    long n = 1;
    for (long d : dims) {
      if (d < 0) {
        return -1;
      }
      n = Math.multiplyExact(n, d);
    }
    return n;
  }

  /** {@code axis} in [0, rank) (negative counts from the end). */
  private int axis(int i, long axis, int rank) {
    long a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank) {
      throw unsupported(i, "axis " + axis + " is out of range for rank " + rank);
    }
    return (int) a;
  }

  /** Where file axis {@code a} of a rank-{@code rank} tensor is in memplan's dims. */
  private static int irAxis(int a, int rank) {
    return rank == 4 && a >= 0 && a < 4 ? NHWC_AXIS_TO_NCHW[a] : a;
  }

  /** memplan dims of file dims: rank 4 relabelled NCHW, others as they are. */
  private static long[] ir(long[] dims) {
    if (dims.length != 4) {
      return dims.clone();
    }
    return new long[] {dims[0], dims[3], dims[1], dims[2]};
  }

  /** File dims of memplan dims (the inverse of {@link #ir}). */
  private static long[] file(long[] dims) {
    if (dims.length != 4) {
      return dims.clone();
    }
    return new long[] {dims[0], dims[2], dims[3], dims[1]};
  }

  private void arity(int i, int[] operands, int min, int max) {
    if (operands.length < min || operands.length > max) {
      throw unsupported(
          i,
          operands.length
              + " operands, expected "
              + (min == max ? String.valueOf(min) : min + " to " + max));
    }
  }

  private interface IntAt {
    int at(int k);
  }

  private int[] indices(int n, IntAt at, int op, String what, boolean optional) {
    int len = count(n, what + " of operator " + op);
    int[] out = new int[len];
    for (int k = 0; k < len; k++) {
      int t = at.at(k);
      if (t == -1 && optional) {
        out[k] = -1;
        continue;
      }
      out[k] = tensorIndex(t, what + " " + k + " of operator " + op);
    }
    return out;
  }

  private int tensorIndex(long t, String what) {
    if (t < 0 || t >= tensorCount) {
      throw fail(what + " names tensor " + t + " of " + tensorCount);
    }
    return (int) t;
  }

  /**
   * A vector length read from the file, checked against the buffer's size (each element takes at
   * least a byte), so a corrupt length fails at once instead of looping or allocating for it.
   */
  private int count(int n, String what) {
    if (n < 0 || n > bb.capacity()) {
      throw fail(n + " " + what + " in a file of " + bb.capacity() + " bytes");
    }
    return n;
  }
}
