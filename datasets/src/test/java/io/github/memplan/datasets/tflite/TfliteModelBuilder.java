package io.github.memplan.datasets.tflite;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import org.tensorflow.lite.schema.Buffer;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.Model;
import org.tensorflow.lite.schema.Operator;
import org.tensorflow.lite.schema.OperatorCode;
import org.tensorflow.lite.schema.QuantizationParameters;
import org.tensorflow.lite.schema.SparsityParameters;
import org.tensorflow.lite.schema.SubGraph;
import org.tensorflow.lite.schema.Tensor;
import org.tensorflow.lite.schema.TensorType;

/**
 * Writes small TFLite models for tests with the flatbuffers builder and the generated schema
 * classes (the same classes the importer reads with): tensors, constant buffers, quantization and
 * operators of a single subgraph.
 */
final class TfliteModelBuilder {
  private record T(
      String name,
      byte type,
      int[] shape,
      int[] signature,
      byte[] data,
      float[] scale,
      long[] zeroPoint,
      int axis,
      boolean sparse) {}

  private record O(
      String code,
      int[] ins,
      int[] outs,
      byte optionsType,
      ToIntFunction<FlatBufferBuilder> options,
      byte[] customOptions) {}

  private final List<T> tensors = new ArrayList<>();
  private final List<O> ops = new ArrayList<>();
  private int[] inputs = {};
  private int[] outputs = {};

  /** A run-time tensor. */
  int tensor(String name, byte type, int... shape) {
    tensors.add(new T(name, type, shape, null, null, null, null, 0, false));
    return tensors.size() - 1;
  }

  /** A run-time tensor with a shape signature (-1 for a dynamic dim). */
  int dynamic(String name, byte type, int[] shape, int[] signature) {
    tensors.add(new T(name, type, shape, signature, null, null, null, 0, false));
    return tensors.size() - 1;
  }

  /** A constant tensor whose buffer holds {@code bytes} zero bytes. */
  int constant(String name, byte type, int bytes, int... shape) {
    tensors.add(new T(name, type, shape, null, new byte[bytes], null, null, 0, false));
    return tensors.size() - 1;
  }

  /** A sparse constant (its sparsity table empty): what DENSIFY reads. */
  int sparse(String name, byte type, int bytes, int... shape) {
    tensors.add(new T(name, type, shape, null, new byte[bytes], null, null, 0, true));
    return tensors.size() - 1;
  }

  /** A constant INT32 vector. */
  int ints(String name, int... values) {
    ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int v : values) {
      b.putInt(v);
    }
    tensors.add(
        new T(
            name,
            TensorType.INT32,
            new int[] {values.length},
            null,
            b.array(),
            null,
            null,
            0,
            false));
    return tensors.size() - 1;
  }

  /** Quantizes tensor {@code t} (one scale, or one per slice along {@code axis}). */
  TfliteModelBuilder quantize(int t, float[] scale, long[] zeroPoint, int axis) {
    T x = tensors.get(t);
    tensors.set(
        t, new T(x.name, x.type, x.shape, x.signature, x.data, scale, zeroPoint, axis, x.sparse));
    return this;
  }

  TfliteModelBuilder op(
      int builtin,
      byte optionsType,
      ToIntFunction<FlatBufferBuilder> options,
      int[] ins,
      int... outs) {
    ops.add(new O(BuiltinOperator.name(builtin), ins, outs, optionsType, options, null));
    return this;
  }

  TfliteModelBuilder custom(String name, byte[] customOptions, int[] ins, int... outs) {
    ops.add(new O("CUSTOM:" + name, ins, outs, (byte) 0, null, customOptions));
    return this;
  }

  TfliteModelBuilder inputs(int... t) {
    inputs = t;
    return this;
  }

  TfliteModelBuilder outputs(int... t) {
    outputs = t;
    return this;
  }

  byte[] build() {
    FlatBufferBuilder fb = new FlatBufferBuilder(1024);
    List<Integer> buffers = new ArrayList<>();
    buffers.add(Buffer.createBuffer(fb, 0));
    int[] tensorOffsets = new int[tensors.size()];
    for (int k = 0; k < tensors.size(); k++) {
      T t = tensors.get(k);
      long buffer = 0;
      if (t.data != null) {
        int data = Buffer.createDataVector(fb, t.data);
        buffers.add(Buffer.createBuffer(fb, data));
        buffer = buffers.size() - 1;
      }
      int name = fb.createString(t.name);
      int shape = Tensor.createShapeVector(fb, t.shape);
      int signature = t.signature == null ? 0 : Tensor.createShapeSignatureVector(fb, t.signature);
      int quant = 0;
      if (t.scale != null) {
        int scale = QuantizationParameters.createScaleVector(fb, t.scale);
        int zero = QuantizationParameters.createZeroPointVector(fb, t.zeroPoint);
        quant =
            QuantizationParameters.createQuantizationParameters(
                fb, 0, 0, scale, zero, (byte) 0, 0, t.axis);
      }
      int sparsity = t.sparse ? SparsityParameters.createSparsityParameters(fb, 0, 0, 0) : 0;
      tensorOffsets[k] =
          Tensor.createTensor(
              fb, shape, t.type, buffer, name, quant, false, sparsity, signature, false, 0);
    }
    Map<String, Integer> codes = new LinkedHashMap<>();
    for (O o : ops) {
      codes.putIfAbsent(o.code, codes.size());
    }
    int[] codeOffsets = new int[codes.size()];
    int c = 0;
    for (String code : codes.keySet()) {
      if (code.startsWith("CUSTOM:")) {
        int custom = fb.createString(code.substring(7));
        codeOffsets[c++] =
            OperatorCode.createOperatorCode(
                fb, (byte) BuiltinOperator.CUSTOM, custom, 1, BuiltinOperator.CUSTOM);
      } else {
        int builtin = index(code);
        codeOffsets[c++] =
            OperatorCode.createOperatorCode(fb, (byte) Math.min(builtin, 127), 0, 1, builtin);
      }
    }
    int[] opOffsets = new int[ops.size()];
    for (int k = 0; k < ops.size(); k++) {
      O o = ops.get(k);
      int ins = Operator.createInputsVector(fb, o.ins);
      int outs = Operator.createOutputsVector(fb, o.outs);
      int options = o.options == null ? 0 : o.options.applyAsInt(fb);
      int custom =
          o.customOptions == null ? 0 : Operator.createCustomOptionsVector(fb, o.customOptions);
      opOffsets[k] =
          Operator.createOperator(
              fb, codes.get(o.code), ins, outs, o.optionsType, options, custom, (byte) 0, 0, 0);
    }
    int sg =
        SubGraph.createSubGraph(
            fb,
            SubGraph.createTensorsVector(fb, tensorOffsets),
            SubGraph.createInputsVector(fb, inputs),
            SubGraph.createOutputsVector(fb, outputs),
            SubGraph.createOperatorsVector(fb, opOffsets),
            fb.createString("main"));
    int model =
        Model.createModel(
            fb,
            3,
            Model.createOperatorCodesVector(fb, codeOffsets),
            Model.createSubgraphsVector(fb, new int[] {sg}),
            fb.createString("memplan test"),
            Model.createBuffersVector(fb, buffers.stream().mapToInt(Integer::intValue).toArray()),
            0,
            0,
            0);
    Model.finishModelBuffer(fb, model);
    return fb.sizedByteArray();
  }

  private static int index(String builtin) {
    for (int k = 0; k < BuiltinOperator.names.length; k++) {
      if (BuiltinOperator.names[k].equals(builtin)) {
        return k;
      }
    }
    throw new IllegalArgumentException(builtin);
  }
}
