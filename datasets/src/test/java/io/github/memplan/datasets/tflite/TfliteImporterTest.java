package io.github.memplan.datasets.tflite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.io.SparseFiles;
import io.github.memplan.core.ir.Attr;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.lite.schema.ActivationFunctionType;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.BuiltinOptions;
import org.tensorflow.lite.schema.ConcatenationOptions;
import org.tensorflow.lite.schema.Conv2DOptions;
import org.tensorflow.lite.schema.DepthToSpaceOptions;
import org.tensorflow.lite.schema.DepthwiseConv2DOptions;
import org.tensorflow.lite.schema.FullyConnectedOptions;
import org.tensorflow.lite.schema.Padding;
import org.tensorflow.lite.schema.ReducerOptions;
import org.tensorflow.lite.schema.TensorType;

/**
 * The TFLite importer on small models written with the flatbuffers builder, each worked out by hand
 * from TFLite's operator semantics and TPU-MLIR's NHWC-to-NCHW relabelling.
 */
class TfliteImporterTest {
  private static final byte F32 = TensorType.FLOAT32;

  private static TfliteImport read(TfliteModelBuilder m) {
    return read(m, Map.of());
  }

  private static TfliteImport read(TfliteModelBuilder m, Map<String, long[]> inputs) {
    return TfliteImporter.read(m.build(), "m.tflite", inputs, "m");
  }

  private static Op only(Graph g, OpKind kind) {
    return g.ops().stream().filter(o -> o.kind() == kind).findFirst().orElseThrow();
  }

  private static long[] ints(Op op, String attr) {
    return op.attributes().getInts(attr, null);
  }

  private static void allAgree(TfliteImport r) {
    for (TfliteImport.ShapeCheck c : r.checks()) {
      assertThat(c.agrees(true)).as(c.toString()).isTrue();
    }
  }

  /**
   * CONV_2D, SAME, stride 2, on a 6x6 NHWC image with a fused RELU6. TFLite: out = ceil(6/2) = 3;
   * padding needed = (3-1)*2 + 3 - 6 = 1, the odd pixel at the end: pads [0, 0, 1, 1] (top, left,
   * bottom, right). memplan: input [1, 3, 6, 6], filter OHWI [8, 3, 3, 3] read OIHW, output [1, 8,
   * 3, 3]; the file's [1, 3, 3, 8] comes back through the shape check. RELU6 stays on the Conv:
   * do_relu 1, relu_limit 6.
   */
  @Test
  void convSameStride2KeepsReluSixFused() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 1, 6, 6, 3);
    int w = m.constant("w", F32, 8 * 3 * 3 * 3 * 4, 8, 3, 3, 3);
    int bias = m.constant("b", F32, 8 * 4, 8);
    int y = m.tensor("y", F32, 1, 3, 3, 8);
    m.op(
            BuiltinOperator.CONV_2D,
            BuiltinOptions.Conv2DOptions,
            fb ->
                Conv2DOptions.createConv2DOptions(
                    fb, Padding.SAME, 2, 2, ActivationFunctionType.RELU6, 1, 1),
            new int[] {x, w, bias},
            y)
        .inputs(x)
        .outputs(y);
    TfliteImport r = read(m);
    Graph g = r.graph();
    Op conv = only(g, OpKind.CONV);
    assertThat(g.tensor("x").shape()).isEqualTo(Shape.of(1, 3, 6, 6));
    assertThat(g.tensor("w").shape()).isEqualTo(Shape.of(8, 3, 3, 3));
    assertThat(g.tensor("w").role()).isEqualTo(Role.WEIGHT);
    assertThat(g.tensor("y").shape()).isEqualTo(Shape.of(1, 8, 3, 3));
    assertThat(ints(conv, "pads")).containsExactly(0, 0, 1, 1);
    assertThat(ints(conv, "strides")).containsExactly(2, 2);
    assertThat(conv.attributes().getInt("do_relu", 0)).isEqualTo(1);
    assertThat(conv.attributes().getFloat("relu_limit", 0)).isEqualTo(6.0);
    assertThat(conv.attributes().getString("fused_activation", "")).isEqualTo("RELU6");
    assertThat(g.ops()).hasSize(1);
    assertThat(g.parameterCount()).isEqualTo(8 * 27 + 8);
    assertThat(r.checks())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.computed()).containsExactly(1, 3, 3, 8);
              assertThat(c.agrees(true)).isTrue();
            });
  }

  /**
   * DEPTHWISE_CONV_2D, VALID, depth multiplier 2: input [1, 4, 4, 2], filter [1, 3, 3, 4]; out
   * (4-3)/1+1 = 2 per side, 2*2 = 4 channels. memplan: the filter as TPU-MLIR transposes it, [4, 1,
   * 3, 3], and group = 2 input channels.
   */
  @Test
  void depthwiseIsAGroupedConv() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 1, 4, 4, 2);
    int w = m.constant("w", F32, 36 * 4, 1, 3, 3, 4);
    int y = m.tensor("y", F32, 1, 2, 2, 4);
    m.op(
            BuiltinOperator.DEPTHWISE_CONV_2D,
            BuiltinOptions.DepthwiseConv2DOptions,
            fb ->
                DepthwiseConv2DOptions.createDepthwiseConv2DOptions(
                    fb, Padding.VALID, 1, 1, 2, ActivationFunctionType.NONE, 1, 1),
            new int[] {x, w},
            y)
        .inputs(x)
        .outputs(y);
    TfliteImport r = read(m);
    Op conv = only(r.graph(), OpKind.CONV);
    assertThat(r.graph().tensor("w").shape()).isEqualTo(Shape.of(4, 1, 3, 3));
    assertThat(conv.attributes().getInt("group", 0)).isEqualTo(2);
    assertThat(conv.attributes().has("do_relu")).isFalse();
    assertThat(r.graph().tensor("y").shape()).isEqualTo(Shape.of(1, 4, 2, 2));
    allAgree(r);
  }

  /**
   * An fp16 filter through DEQUANTIZE: TFLite dequantizes a constant once into a persistent F32
   * tensor, so memplan has no op for it and the Conv reads an F32 weight of 8*3 = 24 parameters (96
   * bytes), named as the DEQUANTIZE result; the F16 copy is not a tensor of the graph.
   */
  @Test
  void dequantizeOfAConstantIsAStoredWeight() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 1, 2, 2, 3);
    int w16 = m.constant("w16", TensorType.FLOAT16, 24 * 2, 8, 1, 1, 3);
    int w = m.tensor("w", F32, 8, 1, 1, 3);
    int y = m.tensor("y", F32, 1, 2, 2, 8);
    m.op(BuiltinOperator.DEQUANTIZE, (byte) 0, null, new int[] {w16}, w)
        .op(
            BuiltinOperator.CONV_2D,
            BuiltinOptions.Conv2DOptions,
            fb ->
                Conv2DOptions.createConv2DOptions(
                    fb, Padding.VALID, 1, 1, ActivationFunctionType.NONE, 1, 1),
            new int[] {x, w},
            y)
        .inputs(x)
        .outputs(y);
    TfliteImport r = read(m);
    Graph g = r.graph();
    assertThat(g.ops()).extracting(Op::kind).containsExactly(OpKind.CONV);
    assertThat(g.tensors()).doesNotContainKey("w16");
    assertThat(g.tensor("w").dtype()).isEqualTo(DType.F32);
    assertThat(g.tensor("w").role()).isEqualTo(Role.WEIGHT);
    assertThat(g.storedBytes()).isEqualTo(96);
    // the folded DEQUANTIZE is checked too: [8, 1, 1, 3] F32 as stored
    assertThat(r.checks()).hasSize(2);
    allAgree(r);
  }

  /**
   * A DEQUANTIZE of a DENSIFY result is not folded: TFLite's DENSIFY output is arena-persistent,
   * not the constant allocation DEQUANTIZE tests for, so the F16 -> F32 runs every time (a Cast);
   * the densified F16 tensor is the stored weight.
   */
  @Test
  void dequantizeOfADensifiedWeightRunsEveryTime() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 4, 3);
    int sparse = m.sparse("ws", TensorType.FLOAT16, 4, 5, 3);
    int dense = m.tensor("wd", TensorType.FLOAT16, 5, 3);
    int w = m.tensor("w", F32, 5, 3);
    int y = m.tensor("y", F32, 4, 5);
    m.op(BuiltinOperator.DENSIFY, (byte) 0, null, new int[] {sparse}, dense)
        .op(BuiltinOperator.DEQUANTIZE, (byte) 0, null, new int[] {dense}, w)
        .op(
            BuiltinOperator.FULLY_CONNECTED,
            BuiltinOptions.FullyConnectedOptions,
            fb ->
                FullyConnectedOptions.createFullyConnectedOptions(
                    fb, ActivationFunctionType.RELU, (byte) 0, false, false),
            new int[] {x, w, -1},
            y)
        .inputs(x)
        .outputs(y);
    Graph g = read(m).graph();
    assertThat(g.ops()).extracting(Op::kind).containsExactly(OpKind.CAST, OpKind.GEMM);
    assertThat(g.tensor("wd").role()).isEqualTo(Role.WEIGHT);
    assertThat(g.tensor("wd").dtype()).isEqualTo(DType.F16);
    assertThat(g.tensor("w").role()).isEqualTo(Role.ACTIVATION);
    Op gemm = only(g, OpKind.GEMM);
    assertThat(gemm.attributes().getInt("transB", 0)).isEqualTo(1);
    assertThat(gemm.attributes().getInt("do_relu", 0)).isEqualTo(1);
    assertThat(gemm.attributes().getFloat("relu_limit", 0)).isEqualTo(-1.0);
    assertThat(g.tensor("y").shape()).isEqualTo(Shape.of(4, 5));
  }

  /**
   * An int8 Conv: int8 input and output, an int8 filter with per-channel scales, an int32 bias.
   * Bytes follow the file's types: the filter 3*1*1*2 = 6 bytes, the bias 3*4 = 12 (a weight, as
   * the bias of a Conv), the output [1, 4, 4, 3] = 48 bytes; the scales and zero points are kept.
   */
  @Test
  void int8ConvKeepsTypesAndQuantization() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    byte i8 = TensorType.INT8;
    int x = m.tensor("x", i8, 1, 4, 4, 2);
    int w = m.constant("w", i8, 6, 3, 1, 1, 2);
    int bias = m.constant("b", TensorType.INT32, 12, 3);
    int y = m.tensor("y", i8, 1, 4, 4, 3);
    m.quantize(x, new float[] {0.5f}, new long[] {-1}, 0)
        .quantize(w, new float[] {0.25f, 0.125f, 0.5f}, new long[] {0, 0, 0}, 0)
        .quantize(y, new float[] {0.75f}, new long[] {3}, 0)
        .op(
            BuiltinOperator.CONV_2D,
            BuiltinOptions.Conv2DOptions,
            fb ->
                Conv2DOptions.createConv2DOptions(
                    fb, Padding.SAME, 1, 1, ActivationFunctionType.NONE, 1, 1),
            new int[] {x, w, bias},
            y)
        .inputs(x)
        .outputs(y);
    TfliteImport r = read(m);
    Graph g = r.graph();
    assertThat(g.tensor("x").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("y").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("y").bytes()).isEqualTo(48);
    assertThat(g.tensor("w").bytes()).isEqualTo(6);
    assertThat(g.tensor("b").role()).isEqualTo(Role.WEIGHT);
    assertThat(g.tensor("b").bytes()).isEqualTo(12);
    assertThat(g.storedBytes()).isEqualTo(18);
    assertThat(r.quantization()).containsOnlyKeys("x", "w", "y");
    assertThat(r.quantization().get("x"))
        .isEqualTo(new Quantization(new double[] {0.5}, new long[] {-1}, 0));
    assertThat(r.quantization().get("w").perAxis()).isTrue();
    assertThat(r.quantization().get("y").zeroPoint()).containsExactly(3);
    allAgree(r);
  }

  /**
   * MEAN over NHWC axes 1 and 2 without keep_dims: [1, 4, 4, 8] -> [1, 8]. In NCHW those are axes 2
   * and 3 of [1, 8, 4, 4], which leave [1, 8] too. CONCATENATION on NHWC axis 3 is NCHW axis 1.
   */
  @Test
  void axesFollowTheRelabelling() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int a = m.tensor("a", F32, 1, 4, 4, 3);
    int c = m.tensor("c", F32, 1, 4, 4, 5);
    int cat = m.tensor("cat", F32, 1, 4, 4, 8);
    int axes = m.ints("axes", 1, 2);
    int mean = m.tensor("mean", F32, 1, 8);
    m.op(
            BuiltinOperator.CONCATENATION,
            BuiltinOptions.ConcatenationOptions,
            fb ->
                ConcatenationOptions.createConcatenationOptions(fb, 3, ActivationFunctionType.NONE),
            new int[] {a, c},
            cat)
        .op(
            BuiltinOperator.MEAN,
            BuiltinOptions.ReducerOptions,
            fb -> ReducerOptions.createReducerOptions(fb, false),
            new int[] {cat, axes},
            mean)
        .inputs(a, c)
        .outputs(mean);
    TfliteImport r = read(m);
    Graph g = r.graph();
    assertThat(only(g, OpKind.CONCAT).attributes().getInt("axis", -1)).isEqualTo(1);
    assertThat(ints(only(g, OpKind.REDUCE_MEAN), "axes")).containsExactly(2, 3);
    assertThat(g.tensor("mean").shape()).isEqualTo(Shape.of(1, 8));
    assertThat(g.tensors()).doesNotContainKey("axes");
    allAgree(r);
  }

  /**
   * TRANSPOSE [0, 2, 1, 3] swaps H and W of NHWC [1, 2, 3, 4] into [1, 3, 2, 4]. The NCHW perm:
   * memplan dim k is file dim NCHW[k] = [0, 3, 1, 2][k]; file out dim j reads file in dim perm[j],
   * which sits at NCHW position [0, 2, 3, 1][perm[j]]: k=0 -> 0, k=1 (C) -> perm[3] = 3 -> 1, k=2
   * (H) -> perm[1] = 2 -> 3, k=3 (W) -> perm[2] = 1 -> 2, so [0, 1, 3, 2]. PAD [[0,0],[1,2],[3,4],
   * [0,0]] gives [1, 2+3, 3+7, 4] (after the transpose: [1, 6, 9, 4]); NCHW pads begin [0, 0, 1, 3]
   * and end [0, 0, 2, 4].
   */
  @Test
  void transposeAndPadMapThroughTheLayout() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 1, 2, 3, 4);
    int perm = m.ints("perm", 0, 2, 1, 3);
    int t = m.tensor("t", F32, 1, 3, 2, 4);
    int pads = m.ints("pads", 0, 0, 1, 2, 3, 4, 0, 0);
    int p = m.tensor("p", F32, 1, 6, 9, 4);
    m.op(BuiltinOperator.TRANSPOSE, (byte) 0, null, new int[] {x, perm}, t)
        .op(BuiltinOperator.PAD, (byte) 0, null, new int[] {t, pads}, p)
        .inputs(x)
        .outputs(p);
    TfliteImport r = read(m);
    assertThat(ints(only(r.graph(), OpKind.TRANSPOSE), "perm")).containsExactly(0, 1, 3, 2);
    assertThat(ints(only(r.graph(), OpKind.PAD), "pads")).containsExactly(0, 0, 1, 3, 0, 0, 2, 4);
    assertThat(r.graph().tensor("p").shape()).isEqualTo(Shape.of(1, 4, 6, 9));
    allAgree(r);
  }

  /**
   * DEPTH_TO_SPACE, block_size 2, on NHWC [1, 3, 5, 12]: TFLite's output is [1, 3·2, 5·2, 12/4] =
   * [1, 6, 10, 3]. memplan: the input relabelled [1, 12, 3, 5], a DepthToSpace in DCR mode (TFLite
   * reads output channel d of block (i, j) from input channel (i·2 + j)·3 + d, the block index the
   * major part), result [1, 3, 6, 10], which the shape check puts back as the file's [1, 6, 10, 3].
   * Without options (no block_size) the operator is refused naming it.
   */
  @Test
  void depthToSpaceIsDcrOnTheRelabelledTensor() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 1, 3, 5, 12);
    int y = m.tensor("y", F32, 1, 6, 10, 3);
    m.op(
            BuiltinOperator.DEPTH_TO_SPACE,
            BuiltinOptions.DepthToSpaceOptions,
            fb -> DepthToSpaceOptions.createDepthToSpaceOptions(fb, 2),
            new int[] {x},
            y)
        .inputs(x)
        .outputs(y);
    TfliteImport r = read(m);
    Op d2s = only(r.graph(), OpKind.DEPTH_TO_SPACE);
    assertThat(d2s.attributes().getInt("blocksize", 0)).isEqualTo(2);
    assertThat(d2s.attributes().getString("mode", "")).isEqualTo("DCR");
    assertThat(r.graph().tensor("x").shape()).isEqualTo(Shape.of(1, 12, 3, 5));
    assertThat(r.graph().tensor("y").shape()).isEqualTo(Shape.of(1, 3, 6, 10));
    assertThat(r.checks())
        .singleElement()
        .satisfies(c -> assertThat(c.computed()).containsExactly(1, 6, 10, 3));
    allAgree(r);

    TfliteModelBuilder bare = new TfliteModelBuilder();
    int a = bare.tensor("a", F32, 1, 3, 5, 12);
    int b = bare.tensor("b", F32, 1, 6, 10, 3);
    bare.op(BuiltinOperator.DEPTH_TO_SPACE, (byte) 0, null, new int[] {a}, b).inputs(a).outputs(b);
    assertThatThrownBy(() -> read(bare))
        .isInstanceOf(UnsupportedTfliteException.class)
        .hasMessage("m.tflite: operator 0 (DEPTH_TO_SPACE): has no DepthToSpaceOptions");
  }

  /**
   * FULLY_CONNECTED on a rank-4 input [1, 2, 2, 3] with weights [5, 12]: TFLite reads the 12
   * elements as one row, [1, 12], in place, so memplan adds a Reshape (an alias) before the Gemm;
   * the output is [1, 5] as stored.
   */
  @Test
  void fullyConnectedFlattensItsInputInPlace() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 1, 2, 2, 3);
    int w = m.constant("w", F32, 60 * 4, 5, 12);
    int y = m.tensor("y", F32, 1, 5);
    m.op(BuiltinOperator.FULLY_CONNECTED, (byte) 0, null, new int[] {x, w, -1}, y)
        .inputs(x)
        .outputs(y);
    TfliteImport r = read(m);
    assertThat(r.graph().ops()).extracting(Op::kind).containsExactly(OpKind.RESHAPE, OpKind.GEMM);
    assertThat(r.graph().tensor("y").shape()).isEqualTo(Shape.of(1, 5));
    assertThat(r.checks()).hasSize(1);
    allAgree(r);
  }

  /**
   * MediaPipe's Convolution2DTransposeBias, kernel 3, stride 2, SAME, on [1, 2, 2, 4]: pad = max(0,
   * 3 - (2-1) mod 2 - 1) = 1, out = 2*(2-1) + 3 - 1 = 4: [1, 4, 4, 3]; pads begin 1/2 = 0, end 1.
   * The weights OHWI [3, 3, 3, 4] are ConvTranspose's [4, 3, 3, 3].
   */
  @Test
  void mediapipeTransposeConvBias() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 1, 2, 2, 4);
    int w = m.constant("w", F32, 108 * 4, 3, 3, 3, 4);
    int bias = m.constant("b", F32, 12, 3);
    int y = m.tensor("y", F32, 1, 4, 4, 3);
    byte[] options =
        ByteBuffer.allocate(12)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putInt(1)
            .putInt(2)
            .putInt(2)
            .array();
    m.custom("Convolution2DTransposeBias", options, new int[] {x, w, bias}, y).inputs(x).outputs(y);
    TfliteImport r = read(m);
    Op up = only(r.graph(), OpKind.CONV_TRANSPOSE);
    assertThat(ints(up, "pads")).containsExactly(0, 0, 1, 1);
    assertThat(r.graph().tensor("w").shape()).isEqualTo(Shape.of(4, 3, 3, 3));
    assertThat(r.graph().tensor("y").shape()).isEqualTo(Shape.of(1, 3, 4, 4));
    allAgree(r);
  }

  /** RSQRT is a Pow by a scalar constant: one op, one result the size of the input. */
  @Test
  void rsqrtIsAPowByAConstant() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 2, 7);
    int y = m.tensor("y", F32, 2, 7);
    m.op(BuiltinOperator.RSQRT, (byte) 0, null, new int[] {x}, y).inputs(x).outputs(y);
    Graph g = read(m).graph();
    Op pow = only(g, OpKind.POW);
    assertThat(g.ops()).hasSize(1);
    assertThat(g.tensor(pow.inputs().get(1)).shape()).isEqualTo(Shape.scalar());
    assertThat(g.tensor(pow.inputs().get(1)).role()).isEqualTo(Role.CONSTANT);
  }

  /**
   * A fused TANH is kept by name but is not a ReLU; a constant [3] operand of an ADD on NHWC data
   * broadcasts over the channel axis: [1, 1, 1, 3] relabelled [1, 3, 1, 1].
   */
  @Test
  void otherFusedActivationsAreKeptByName() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 1, 2, 2, 3);
    int c = m.constant("c", F32, 12, 3);
    int y = m.tensor("y", F32, 1, 2, 2, 3);
    m.op(
            BuiltinOperator.ADD,
            BuiltinOptions.AddOptions,
            fb ->
                org.tensorflow.lite.schema.AddOptions.createAddOptions(
                    fb, ActivationFunctionType.TANH, false),
            new int[] {x, c},
            y)
        .inputs(x)
        .outputs(y);
    TfliteImport r = read(m);
    Op add = only(r.graph(), OpKind.ADD);
    assertThat(add.attributes().getString("fused_activation", "")).isEqualTo("TANH");
    assertThat(add.attributes().has("do_relu")).isFalse();
    assertThat(r.graph().tensor("c").shape()).isEqualTo(Shape.of(1, 3, 1, 1));
    allAgree(r);
  }

  /**
   * Resizing an input: only dims whose shape signature is -1 may change (TFLite's strict resize);
   * then the shapes are inferred, and the stored ones (made at the placeholder size) agree in the
   * static dims only.
   */
  @Test
  void resizedInputsInferTheRest() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.dynamic("x", F32, new int[] {1, 1, 8}, new int[] {1, -1, 8});
    int y = m.dynamic("y", F32, new int[] {1, 1, 8}, new int[] {1, -1, 8});
    m.op(BuiltinOperator.LOGISTIC, (byte) 0, null, new int[] {x}, y).inputs(x).outputs(y);
    TfliteImport r = read(m, Map.of("x", new long[] {1, 50, 8}));
    assertThat(r.graph().tensor("y").shape()).isEqualTo(Shape.of(1, 50, 8));
    TfliteImport.ShapeCheck c = r.checks().get(0);
    assertThat(c.agrees(false)).isTrue();
    assertThat(c.agrees(true)).isFalse();
    assertThatThrownBy(() -> read(m, Map.of("x", new long[] {1, 50, 9})))
        .hasMessage(
            "m.tflite: input 'x' has the static dim 2 = 8 (shape signature [1, -1, 8]),"
                + " --input gives 9");
    assertThatThrownBy(() -> read(m, Map.of("z", new long[] {1})))
        .hasMessage("m.tflite: --input names 'z', which is not an input (inputs: x)");
  }

  /** The oracle can fail: a stored output shape that the operator cannot produce disagrees. */
  @Test
  void aWrongStoredShapeDisagrees() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 1, 4, 4, 2);
    int y = m.tensor("y", F32, 1, 4, 4, 3);
    m.op(BuiltinOperator.RELU, (byte) 0, null, new int[] {x}, y).inputs(x).outputs(y);
    TfliteImport.ShapeCheck c = read(m).checks().get(0);
    assertThat(c.computed()).containsExactly(1, 4, 4, 2);
    assertThat(c.agrees(true)).isFalse();
  }

  /** Operators memplan has no op for: one line, the first one's index, every kind counted. */
  @Test
  void unsupportedOperatorsAreNamedWithTheirIndex() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 1, 2, 2, 4);
    int y = m.tensor("y", F32, 1, 2, 2, 4);
    int z = m.tensor("z", F32, 1, 1, 1, 16);
    int u = m.tensor("u", F32, 1, 1, 1, 64);
    m.op(BuiltinOperator.RELU, (byte) 0, null, new int[] {x}, y)
        .op(BuiltinOperator.SPACE_TO_DEPTH, (byte) 0, null, new int[] {y}, z)
        .op(BuiltinOperator.SPACE_TO_DEPTH, (byte) 0, null, new int[] {z}, u)
        .inputs(x)
        .outputs(u);
    assertThatThrownBy(() -> read(m))
        .isInstanceOf(UnsupportedTfliteException.class)
        .hasMessage(
            "m.tflite: operator 1 (SPACE_TO_DEPTH) has no memplan op (unsupported in this file:"
                + " SPACE_TO_DEPTH x2)");
  }

  /** A file past a flatbuffer's 2 GiB (sparse: nothing written) is refused unread. */
  @Test
  void aFileBeyondTwoGibIsRefused(@TempDir Path dir) throws Exception {
    Path big = SparseFiles.pastTwoGib(dir, "big.tflite");
    assertThatThrownBy(() -> TfliteImporter.load(big, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(big + ": 2147483648 bytes is beyond a flatbuffer's 2 GiB limit");
  }

  /** Bytes that are not a TFLite flatbuffer: one line naming the source. */
  @Test
  void malformedFilesAreOneLine() {
    assertThatThrownBy(
            () -> TfliteImporter.read("not a model at all".getBytes(), "x.tflite", Map.of(), "x"))
        .hasMessage("x.tflite: not a TFLite model (no TFL3 file identifier)");
    assertThatThrownBy(() -> TfliteImporter.read(new byte[3], "x.tflite", Map.of(), "x"))
        .hasMessageStartingWith("x.tflite: not a TFLite model (3 bytes");
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 1, 2, 2, 4);
    int y = m.tensor("y", F32, 1, 2, 2, 4);
    m.op(BuiltinOperator.RELU, (byte) 0, null, new int[] {x}, y).inputs(x).outputs(y);
    byte[] whole = m.build();
    for (int cut : new int[] {12, whole.length / 2, whole.length - 8}) {
      byte[] part = Arrays.copyOf(whole, cut);
      assertThatThrownBy(() -> TfliteImporter.read(part, "x.tflite", Map.of(), "x"))
          .isInstanceOf(IllegalArgumentException.class)
          .satisfies(e -> assertThat(e.getMessage()).startsWith("x.tflite: ").doesNotContain("\n"));
    }
  }

  /**
   * Attributes hold longs where the IR expects them (a regression guard on the builder's types).
   */
  @Test
  void convAttributesAreInts() {
    TfliteModelBuilder m = new TfliteModelBuilder();
    int x = m.tensor("x", F32, 1, 3, 3, 1);
    int w = m.constant("w", F32, 4, 1, 1, 1, 1);
    int y = m.tensor("y", F32, 1, 3, 3, 1);
    m.op(
            BuiltinOperator.CONV_2D,
            BuiltinOptions.Conv2DOptions,
            fb ->
                Conv2DOptions.createConv2DOptions(
                    fb, Padding.VALID, 1, 1, ActivationFunctionType.NONE, 1, 1),
            new int[] {x, w, -1},
            y)
        .inputs(x)
        .outputs(y);
    Op conv = only(read(m).graph(), OpKind.CONV);
    assertThat(conv.attributes().get("group")).contains(Attr.of(1L));
    assertThat(conv.inputs()).hasSize(2);
  }
}
