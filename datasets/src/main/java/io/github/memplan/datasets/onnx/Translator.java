package io.github.memplan.datasets.onnx;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import io.github.memplan.core.ir.Attr;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.OpKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Maps one ONNX node to a memplan op: its {@link OpKind}, its attributes (with the operands ONNX
 * passes as constant tensors, such as Reshape's shape or Resize's sizes, moved into attributes, as
 * {@link OpKind} prescribes) and which inputs and outputs stay tensors. Opset differences (Slice's
 * attributes before opset 10, Squeeze's axes input from opset 13, ...) are resolved here.
 */
final class Translator {

  /** The node being translated and what is known about its inputs. */
  interface Node {
    NodeProto proto();

    /** The opset version of the default domain. */
    int opset();

    /** Whether input {@code i} is given (ONNX marks an absent optional input with "" ). */
    boolean present(int i);

    /**
     * The value of input {@code i}, or {@code null} when it is absent.
     *
     * @throws MissingValueException when it is computed at run time
     */
    OnnxValue value(int i);

    /** The element type of input {@code i}. */
    DType dtype(int i);
  }

  /** A shape operand is computed at run time, so the node's outputs have no static shape. */
  static final class MissingValueException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int input;

    MissingValueException(int input) {
      super(null, null, false, false);
      this.input = input;
    }
  }

  /**
   * The translated op.
   *
   * @param kind the op kind
   * @param attrs memplan attributes
   * @param dataInputs indices of the inputs that stay operands, in order
   * @param outputs indices of the outputs the op defines, in order; the node's other outputs are
   *     optional ones memplan does not model (MaxPool's indices, Dropout's mask, ...)
   */
  record Translation(
      OpKind kind, Attributes attrs, List<Integer> dataInputs, List<Integer> outputs) {}

  /** Ops whose every output keeps its ONNX meaning; other outputs are dropped (see below). */
  private static final Map<String, OpKind> DIRECT = new TreeMap<>();

  static {
    for (OpKind k :
        List.of(
            OpKind.CONV,
            OpKind.CONV_TRANSPOSE,
            OpKind.CONV_INTEGER,
            OpKind.MAX_POOL,
            OpKind.AVERAGE_POOL,
            OpKind.GLOBAL_AVERAGE_POOL,
            OpKind.GLOBAL_MAX_POOL,
            OpKind.MAT_MUL,
            OpKind.GEMM,
            OpKind.MAT_MUL_INTEGER,
            OpKind.ADD,
            OpKind.SUB,
            OpKind.MUL,
            OpKind.DIV,
            OpKind.POW,
            OpKind.MOD,
            OpKind.MAX,
            OpKind.MIN,
            OpKind.EQUAL,
            OpKind.LESS,
            OpKind.LESS_OR_EQUAL,
            OpKind.GREATER,
            OpKind.GREATER_OR_EQUAL,
            OpKind.AND,
            OpKind.OR,
            OpKind.XOR,
            OpKind.WHERE,
            OpKind.RELU,
            OpKind.LEAKY_RELU,
            OpKind.SIGMOID,
            OpKind.HARD_SIGMOID,
            OpKind.HARD_SWISH,
            OpKind.TANH,
            OpKind.GELU,
            OpKind.ERF,
            OpKind.EXP,
            OpKind.LOG,
            OpKind.SQRT,
            OpKind.NEG,
            OpKind.ABS,
            OpKind.IDENTITY,
            OpKind.RECIPROCAL,
            OpKind.FLOOR,
            OpKind.CEIL,
            OpKind.ROUND,
            OpKind.SIGN,
            OpKind.NOT,
            OpKind.CAST,
            OpKind.QUANTIZE_LINEAR,
            OpKind.DEQUANTIZE_LINEAR,
            OpKind.DYNAMIC_QUANTIZE_LINEAR,
            OpKind.BATCH_NORMALIZATION,
            OpKind.LAYER_NORMALIZATION,
            OpKind.SOFTMAX,
            OpKind.ARG_MAX,
            OpKind.ARG_MIN,
            OpKind.CONCAT,
            OpKind.FLATTEN,
            OpKind.TRANSPOSE,
            OpKind.DEPTH_TO_SPACE,
            OpKind.GATHER)) {
      DIRECT.put(k.onnxName(), k);
    }
  }

  /** Ops that take one or more operands as constant tensors (moved into attributes). */
  private static final Set<String> WITH_CONSTANT_OPERANDS =
      Set.of(
          "CastLike",
          "Clip",
          "Dropout",
          "Reshape",
          "Squeeze",
          "Unsqueeze",
          "Slice",
          "Pad",
          "Resize",
          "Upsample",
          "Split",
          "Expand",
          "Tile",
          "ReduceMean",
          "ReduceSum",
          "ReduceMax",
          "ReduceMin",
          "ReduceProd",
          "ReduceL1",
          "ReduceL2",
          "ReduceSumSquare",
          "ReduceLogSum",
          "ReduceLogSumExp");

  /** Ops whose optional inputs and outputs are resolved by a translation of their own. */
  private static final Set<String> WITH_OPTIONAL_OPERANDS = Set.of("LSTM");

  /** Attributes of old opsets that only told the runtime how to reuse buffers or were no-ops. */
  private static final Set<String> LEGACY_ATTRIBUTES = Set.of("consumed_inputs", "is_test");

  private Translator() {}

  /** Whether memplan has an op kind for ONNX op type {@code opType} (default domain). */
  static boolean knows(String opType) {
    return DIRECT.containsKey(opType)
        || WITH_CONSTANT_OPERANDS.contains(opType)
        || WITH_OPTIONAL_OPERANDS.contains(opType);
  }

  /**
   * Translates {@code n}.
   *
   * @throws MissingValueException when a constant operand is computed at run time
   * @throws UnsupportedOnnxException for attribute combinations memplan does not model
   */
  static Translation translate(Node n) {
    NodeProto p = n.proto();
    String type = p.getOpType();
    Attributes.Builder a = convertAttributes(p);
    int opset = n.opset();
    OpKind direct = DIRECT.get(type);
    if (direct != null) {
      Attributes attrs = a.build();
      checkDirect(direct, attrs);
      // the outputs memplan models: every output of DynamicQuantizeLinear, the optional ones of
      // MaxPool (Indices) and LayerNormalization (Mean, InvStdDev); the first of the others
      int outputs =
          switch (direct) {
            case DYNAMIC_QUANTIZE_LINEAR, LAYER_NORMALIZATION -> 3;
            case MAX_POOL -> 2;
            default -> 1;
          };
      List<Integer> kept = new ArrayList<>();
      for (int i = 0; i < Math.min(outputs, p.getOutputCount()); i++) {
        kept.add(i);
      }
      // trailing unnamed optional outputs are not defined at all
      while (kept.size() > 1 && p.getOutput(kept.get(kept.size() - 1)).isEmpty()) {
        kept.remove(kept.size() - 1);
      }
      return new Translation(direct, attrs, presentInputs(n, p.getInputCount()), kept);
    }
    return switch (type) {
      case "CastLike" -> {
        // Cast to the element type of input 1, whose values are not read
        a.put("to", n.dtype(1).onnxCode());
        yield single(OpKind.CAST, a, 0);
      }
      case "Clip" -> clip(n, a, opset);
      case "LSTM" -> lstm(n, a);
      case "Dropout" -> dropout(n, opset);
      case "Reshape" -> {
        if (opset >= 5) {
          a.put("shape", ints(n, 1, "shape"));
        }
        yield single(OpKind.RESHAPE, a, 0);
      }
      case "Squeeze", "Unsqueeze" -> {
        if (opset >= 13 && n.present(1)) {
          a.put("axes", ints(n, 1, "axes"));
        }
        yield single(type.equals("Squeeze") ? OpKind.SQUEEZE : OpKind.UNSQUEEZE, a, 0);
      }
      case "Slice" -> {
        if (opset >= 10) {
          a.put("starts", ints(n, 1, "starts"));
          a.put("ends", ints(n, 2, "ends"));
          if (n.present(3)) {
            a.put("axes", ints(n, 3, "axes"));
          }
          if (n.present(4)) {
            a.put("steps", ints(n, 4, "steps"));
          }
        }
        yield single(OpKind.SLICE, a, 0);
      }
      case "Pad" -> pad(n, a, opset);
      case "Resize" -> resize(n, a, opset);
      case "Upsample" -> {
        if (opset >= 9) {
          a.put("scales", floats(n, 1, "scales"));
        }
        yield single(OpKind.UPSAMPLE, a, 0);
      }
      case "Split" -> {
        if (opset >= 13 && n.present(1)) {
          a.put("split", ints(n, 1, "split"));
        }
        List<Integer> outs = new ArrayList<>();
        for (int i = 0; i < p.getOutputCount(); i++) {
          outs.add(i);
        }
        yield new Translation(OpKind.SPLIT, a.build(), List.of(0), outs);
      }
      case "Expand" -> {
        a.put("shape", ints(n, 1, "shape"));
        yield single(OpKind.EXPAND, a, 0);
      }
      case "Tile" -> {
        if (opset < 6) {
          throw new UnsupportedOnnxException("Tile before opset 6 (tiles and axis inputs)");
        }
        a.put("repeats", ints(n, 1, "repeats"));
        yield single(OpKind.TILE, a, 0);
      }
      default -> {
        if (type.startsWith("Reduce")) {
          // axes became an input in opset 13 for ReduceSum, in opset 18 for the others
          int axesInput = type.equals("ReduceSum") ? 13 : 18;
          if (opset >= axesInput && n.present(1)) {
            a.put("axes", ints(n, 1, "axes"));
          }
          yield single(OpKind.parse(type), a, 0);
        }
        throw new AssertionError(type);
      }
    };
  }

  private static void checkDirect(OpKind kind, Attributes a) {
    switch (kind) {
      case ADD, SUB, MUL, DIV, POW -> {
        // opsets 1-6: "broadcast" with "axis" aligns B at an axis, which numpy broadcasting does
        // not
        if (a.getInt("broadcast", 0) == 1 && a.has("axis")) {
          throw new UnsupportedOnnxException("legacy broadcast with an axis (opset < 7)");
        }
      }
      case BATCH_NORMALIZATION -> {
        if (a.getInt("spatial", 1) == 0) {
          throw new UnsupportedOnnxException("BatchNormalization with spatial=0 (opset < 9)");
        }
        if (a.getInt("training_mode", 0) != 0) {
          throw new UnsupportedOnnxException("BatchNormalization in training mode");
        }
      }
      case CAST -> {
        if (a.has("to")) {
          OnnxValue.dtypeOf(a.getInt("to", 0), "Cast to");
        }
      }
      default -> {}
    }
  }

  private static Translation clip(Node n, Attributes.Builder a, int opset) {
    if (opset < 11) {
      return single(OpKind.CLIP, a, 0);
    }
    String[] names = {"min", "max"};
    OnnxValue[] bounds = new OnnxValue[2];
    boolean runtime = false;
    for (int k = 0; k < 2; k++) {
      if (n.present(k + 1)) {
        try {
          bounds[k] = n.value(k + 1);
        } catch (MissingValueException e) {
          runtime = true;
        }
      }
    }
    if (!runtime) {
      for (int k = 0; k < 2; k++) {
        if (bounds[k] != null) {
          a.put(names[k], scalar(bounds[k], names[k]));
        }
      }
      return single(OpKind.CLIP, a, 0);
    }
    if (!n.present(1) && n.present(2)) {
      throw new UnsupportedOnnxException("Clip with a run-time max and no min");
    }
    return new Translation(
        OpKind.CLIP, a.build(), presentInputs(n, n.proto().getInputCount()), List.of(0));
  }

  /**
   * LSTM: X, W and R, then whichever of B, sequence_lens, initial_h, initial_c and P are given,
   * with attribute {@code optional_inputs} naming their input indices when one is absent before a
   * later one (PyTorch leaves sequence_lens out); the outputs among Y, Y_h and Y_c that are named,
   * with attribute {@code optional_outputs} when one is left out before a later one (ONNX's own
   * tests name Y_h alone). TPU-MLIR's {@code OnnxConverter.convert_lstm_op} likewise creates only
   * the outputs the node names.
   */
  private static Translation lstm(Node n, Attributes.Builder a) {
    NodeProto p = n.proto();
    for (int i = 0; i < 3; i++) {
      if (!n.present(i)) {
        throw new IllegalArgumentException(
            "input " + i + " (" + List.of("X", "W", "R").get(i) + ") is required");
      }
    }
    List<Integer> inputs = new ArrayList<>(List.of(0, 1, 2));
    List<Long> slots = new ArrayList<>();
    for (int i = 3; i < p.getInputCount(); i++) {
      if (n.present(i)) {
        if (i > 7) {
          throw new IllegalArgumentException(
              "has " + p.getInputCount() + " inputs; LSTM takes at most 8");
        }
        inputs.add(i);
        slots.add((long) i);
      }
    }
    for (int k = 0; k < slots.size(); k++) {
      if (slots.get(k) != 3 + k) {
        a.put("optional_inputs", slots.stream().mapToLong(Long::longValue).toArray());
        break;
      }
    }
    if (p.getOutputCount() > 3) {
      throw new IllegalArgumentException(
          "has " + p.getOutputCount() + " outputs; LSTM defines at most 3 (Y, Y_h, Y_c)");
    }
    List<Integer> outputs = new ArrayList<>();
    for (int k = 0; k < p.getOutputCount(); k++) {
      if (!p.getOutput(k).isEmpty()) {
        outputs.add(k);
      }
    }
    for (int k = 0; k < outputs.size(); k++) {
      if (outputs.get(k) != k) {
        a.put("optional_outputs", outputs.stream().mapToLong(Integer::longValue).toArray());
        break;
      }
    }
    return new Translation(OpKind.LSTM, a.build(), inputs, outputs);
  }

  private static Translation dropout(Node n, int opset) {
    // inference: Dropout passes its input through; the mask output is not modelled
    if (opset >= 12 && n.present(2)) {
      OnnxValue training = n.value(2);
      if (training.size() != 1 || training.getLong(0) != 0) {
        throw new UnsupportedOnnxException("Dropout in training mode");
      }
    }
    return new Translation(OpKind.IDENTITY, Attributes.empty(), List.of(0), List.of(0));
  }

  private static Translation pad(Node n, Attributes.Builder a, int opset) {
    if (opset < 11) {
      Attributes old = a.build();
      Attributes.Builder b = Attributes.builder();
      old.asMap().forEach((k, v) -> b.put(k.equals("value") ? "constant_value" : k, v));
      if (old.has("paddings")) {
        throw new UnsupportedOnnxException("Pad with the opset-1 attribute paddings");
      }
      return single(OpKind.PAD, b, 0);
    }
    a.put("pads", ints(n, 1, "pads"));
    if (n.present(2)) {
      OnnxValue v = n.value(2);
      if (v.size() == 1) {
        a.put("constant_value", v.getDouble(0));
      } else if (v.size() != 0) {
        throw new IllegalArgumentException("constant_value must be a scalar, got " + v);
      }
    }
    if (n.present(3)) {
      a.put("axes", ints(n, 3, "axes"));
    }
    return single(OpKind.PAD, a, 0);
  }

  private static Translation resize(Node n, Attributes.Builder a, int opset) {
    // opset 10: (X, scales); opset 11+: (X, roi, scales, sizes), an empty tensor meaning absent.
    // roi matters for tf_crop_and_resize values only, never for the output shape.
    int scalesInput = opset < 11 ? 1 : 2;
    int sizesInput = opset < 11 ? -1 : 3;
    if (sizesInput > 0 && n.present(sizesInput)) {
      long[] sizes = ints(n, sizesInput, "sizes");
      if (sizes.length > 0) {
        a.put("sizes", sizes);
        return single(OpKind.RESIZE, a, 0);
      }
    }
    if (n.present(scalesInput)) {
      double[] scales = floats(n, scalesInput, "scales");
      if (scales.length > 0) {
        a.put("scales", scales);
        return single(OpKind.RESIZE, a, 0);
      }
    }
    throw new IllegalArgumentException("neither scales nor sizes is given");
  }

  private static Translation single(OpKind kind, Attributes.Builder a, int dataInput) {
    return new Translation(kind, a.build(), List.of(dataInput), List.of(0));
  }

  /** Inputs 0..n-1 that are present; an absent input before a present one is not supported. */
  private static List<Integer> presentInputs(Node n, int count) {
    List<Integer> out = new ArrayList<>();
    int last = count - 1;
    while (last >= 0 && !n.present(last)) {
      last--;
    }
    for (int i = 0; i <= last; i++) {
      if (!n.present(i)) {
        throw new UnsupportedOnnxException(
            "input " + i + " is absent but a later optional input is given");
      }
      out.add(i);
    }
    return out;
  }

  private static long[] ints(Node n, int input, String what) {
    OnnxValue v = n.value(input);
    if (v == null) {
      throw new IllegalArgumentException("input " + input + " (" + what + ") is required");
    }
    if (v.isFloatingPoint() || v.rank() > 1) {
      throw new IllegalArgumentException(
          what + " (input " + input + ") must be a 1-D integer tensor, got " + v);
    }
    return v.longs();
  }

  private static double[] floats(Node n, int input, String what) {
    OnnxValue v = n.value(input);
    if (v == null) {
      throw new IllegalArgumentException("input " + input + " (" + what + ") is required");
    }
    if (!v.isFloatingPoint() || v.rank() > 1) {
      throw new IllegalArgumentException(
          what + " (input " + input + ") must be a 1-D float tensor, got " + v);
    }
    return v.doubles();
  }

  private static Attr scalar(OnnxValue v, String what) {
    if (v.size() != 1) {
      throw new IllegalArgumentException(what + " must be a scalar, got " + v);
    }
    return v.isFloatingPoint() ? Attr.of(v.getDouble(0)) : Attr.of((double) v.getLong(0));
  }

  /**
   * ONNX attributes as memplan attributes: ints, floats, strings and their lists; tensors, graphs
   * and type protos are left out (the ops that need them read them from the node).
   */
  static Attributes.Builder convertAttributes(NodeProto p) {
    Attributes.Builder b = Attributes.builder();
    for (AttributeProto at : p.getAttributeList()) {
      if (!at.getRefAttrName().isEmpty()) {
        throw new UnsupportedOnnxException(
            "attribute '" + at.getName() + "' refers to a function attribute");
      }
      if (LEGACY_ATTRIBUTES.contains(at.getName())) {
        continue;
      }
      switch (at.getType()) {
        case INT -> b.put(at.getName(), at.getI());
        case FLOAT -> b.put(at.getName(), (double) at.getF());
        case STRING -> b.put(at.getName(), at.getS().toString(StandardCharsets.UTF_8));
        case INTS ->
            b.put(at.getName(), at.getIntsList().stream().mapToLong(Long::longValue).toArray());
        case FLOATS ->
            b.put(
                at.getName(),
                at.getFloatsList().stream().mapToDouble(Float::doubleValue).toArray());
        default -> {}
      }
    }
    return b;
  }
}
