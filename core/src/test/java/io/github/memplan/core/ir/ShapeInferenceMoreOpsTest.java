package io.github.memplan.core.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Hand-checked shapes of the op kinds added for imported ONNX models (casts, reductions, splits,
 * broadcasting selections, quantization), with rejections that name the op.
 */
class ShapeInferenceMoreOpsTest {

  private static TensorType f32(long... dims) {
    return new TensorType(Shape.of(dims), DType.F32);
  }

  private static TensorType t(DType dtype, long... dims) {
    return new TensorType(Shape.of(dims), dtype);
  }

  private static Attributes.Builder attrs() {
    return Attributes.builder();
  }

  /** Infers an op with {@code outputs} outputs. */
  private static List<TensorType> inferN(
      String name, OpKind kind, Attributes.Builder attrs, int outputs, TensorType... in) {
    List<String> inputs = new ArrayList<>();
    for (int i = 0; i < in.length; i++) {
      inputs.add("in" + i);
    }
    List<String> outs = new ArrayList<>();
    for (int i = 0; i < outputs; i++) {
      outs.add(name + ":" + i);
    }
    Op op = new Op(name, kind, attrs.build(), inputs, outs);
    return ShapeInference.infer(op, Arrays.asList(in));
  }

  private static TensorType infer(
      String name, OpKind kind, Attributes.Builder attrs, TensorType... in) {
    List<TensorType> out = inferN(name, kind, attrs, 1, in);
    assertThat(out).hasSize(1);
    return out.get(0);
  }

  private static void rejects(
      String name, OpKind kind, Attributes.Builder attrs, String fragment, TensorType... in) {
    rejectsN(name, kind, attrs, 1, fragment, in);
  }

  private static void rejectsN(
      String name,
      OpKind kind,
      Attributes.Builder attrs,
      int outputs,
      String fragment,
      TensorType... in) {
    String label = "'" + name + "' (" + kind.onnxName() + ")";
    assertThatThrownBy(() -> inferN(name, kind, attrs, outputs, in))
        .isInstanceOf(IllegalArgumentException.class)
        .message()
        .startsWith(label)
        .contains(fragment);
  }

  @Nested
  class Casts {
    @Test
    void castKeepsTheShapeAndTakesTheOnnxTypeCode() {
      // ONNX TensorProto.DataType: 7 = INT64, 10 = FLOAT16, 9 = BOOL
      assertThat(infer("c", OpKind.CAST, attrs().put("to", 7), f32(2, 3)))
          .isEqualTo(t(DType.I64, 2, 3));
      assertThat(infer("c", OpKind.CAST, attrs().put("to", 10), t(DType.I64)))
          .isEqualTo(t(DType.F16));
      assertThat(infer("c", OpKind.CAST, attrs().put("to", 9), f32(0, 4)))
          .isEqualTo(t(DType.BOOL, 0, 4));
    }

    @Test
    void castRejectsMissingAndUnknownTypes() {
      rejects("c", OpKind.CAST, attrs(), "attribute to is required", f32(2));
      // 8 = STRING, 4 = UINT16
      rejects("c", OpKind.CAST, attrs().put("to", 8), "element type 8 (STRING)", f32(2));
      rejects("c", OpKind.CAST, attrs().put("to", 4), "element type 4 (UINT16)", f32(2));
    }

    @Test
    void onnxCodesRoundTrip() {
      for (DType d : DType.values()) {
        assertThat(DType.fromOnnxCode(d.onnxCode())).isEqualTo(d);
      }
      assertThat(DType.F32.onnxCode()).isEqualTo(1);
      assertThat(DType.I4.onnxCode()).isEqualTo(22);
      assertThat(DType.BF16.isFloatingPoint()).isTrue();
      assertThat(DType.I8.isFloatingPoint()).isFalse();
    }
  }

  @Nested
  class Reductions {
    @Test
    void layerNormMeanKeepsTheReducedAxis() {
      // BERT's decomposed LayerNorm: ReduceMean(axes=[-1]) over [1,128,384]
      assertThat(infer("m", OpKind.REDUCE_MEAN, attrs().put("axes", -1), f32(1, 128, 384)))
          .isEqualTo(f32(1, 128, 1));
      assertThat(
              infer(
                  "m",
                  OpKind.REDUCE_SUM,
                  attrs().put("axes", 0, 2).put("keepdims", 0),
                  t(DType.I64, 2, 3, 4)))
          .isEqualTo(t(DType.I64, 3));
    }

    @Test
    void withoutAxesEverythingIsReducedUnlessNoop() {
      assertThat(infer("r", OpKind.REDUCE_MAX, attrs(), f32(2, 3))).isEqualTo(f32(1, 1));
      assertThat(infer("r", OpKind.REDUCE_L2, attrs().put("keepdims", 0), f32(2, 3)))
          .isEqualTo(f32());
      assertThat(infer("r", OpKind.REDUCE_MIN, attrs().put("noop_with_empty_axes", 1), f32(2, 3)))
          .isEqualTo(f32(2, 3));
      for (OpKind k :
          List.of(
              OpKind.REDUCE_PROD,
              OpKind.REDUCE_L1,
              OpKind.REDUCE_SUM_SQUARE,
              OpKind.REDUCE_LOG_SUM,
              OpKind.REDUCE_LOG_SUM_EXP)) {
        assertThat(infer("r", k, attrs().put("axes", 1), f32(2, 3, 4)))
            .as(k.onnxName())
            .isEqualTo(f32(2, 1, 4));
      }
    }

    @Test
    void argMaxGivesInt64Indices() {
      assertThat(infer("a", OpKind.ARG_MAX, attrs().put("axis", 1), f32(2, 3, 4)))
          .isEqualTo(t(DType.I64, 2, 1, 4));
      assertThat(
              infer("a", OpKind.ARG_MIN, attrs().put("axis", -1).put("keepdims", 0), f32(2, 3, 4)))
          .isEqualTo(t(DType.I64, 2, 3));
      assertThat(infer("a", OpKind.ARG_MAX, attrs(), f32(5))).isEqualTo(t(DType.I64, 1));
    }

    @Test
    void reductionRejections() {
      rejects("r", OpKind.REDUCE_MEAN, attrs().put("axes", 1, -2), "repeats axis 1", f32(2, 3, 4));
      rejects("r", OpKind.REDUCE_MEAN, attrs().put("axes", 3), "out of range", f32(2, 3, 4));
      rejects(
          "r", OpKind.REDUCE_SUM, attrs().put("keepdims", 2), "keepdims 2 must be 0 or 1", f32(2));
      rejects("a", OpKind.ARG_MAX, attrs().put("axis", 2), "axis 2 out of range", f32(2, 3));
      rejects("a", OpKind.ARG_MIN, attrs(), "scalar", f32());
    }
  }

  @Nested
  class Splits {
    @Test
    void splitSizesFromTheAttributeOrEvenly() {
      assertThat(inferN("s", OpKind.SPLIT, attrs().put("axis", 1).put("split", 2, 4), 2, f32(3, 6)))
          .containsExactly(f32(3, 2), f32(3, 4));
      assertThat(inferN("s", OpKind.SPLIT, attrs(), 3, f32(6, 2)))
          .containsExactly(f32(2, 2), f32(2, 2), f32(2, 2));
      assertThat(inferN("s", OpKind.SPLIT, attrs().put("split", 0, 6), 2, f32(6)))
          .containsExactly(f32(0), f32(6));
    }

    @Test
    void numOutputsMakesTheLastPieceSmaller() {
      // opset 18: 7 into 3 pieces of ceil(7/3)=3 -> 3, 3, 1; 2 into 3 -> 1, 1, 0
      assertThat(inferN("s", OpKind.SPLIT, attrs().put("num_outputs", 3), 3, f32(7)))
          .containsExactly(f32(3), f32(3), f32(1));
      assertThat(
              inferN(
                  "s", OpKind.SPLIT, attrs().put("num_outputs", 3).put("axis", -1), 3, f32(4, 2)))
          .containsExactly(f32(4, 1), f32(4, 1), f32(4, 0));
    }

    @Test
    void splitRejections() {
      rejectsN("s", OpKind.SPLIT, attrs(), 4, "does not split evenly into 4", f32(6));
      rejectsN("s", OpKind.SPLIT, attrs().put("split", 2, 2), 2, "sums to 4", f32(6));
      rejectsN("s", OpKind.SPLIT, attrs().put("split", 2, 4), 3, "has 2 values", f32(6));
      rejectsN("s", OpKind.SPLIT, attrs().put("num_outputs", 2), 3, "num_outputs 2", f32(6));
      rejectsN("s", OpKind.SPLIT, attrs(), 2, "scalar", f32());
    }

    @Test
    void theGraphBuilderRecordsEveryPiece() {
      Graph.Builder b = Graph.builder("split");
      b.input("x", DType.F32, 1, 6, 4);
      List<Tensor> pieces =
          b.op(
              "qkv",
              OpKind.SPLIT,
              attrs().put("axis", 1).build(),
              List.of("x"),
              List.of("q", "k", "v"));
      assertThat(pieces).extracting(Tensor::shape).containsOnly(Shape.of(1, 2, 4));
      b.op("sum", OpKind.ADD, Attributes.empty(), "q", "v");
      Graph g = b.output("sum").output("k").build();
      assertThat(g.producer("k").orElseThrow().name()).isEqualTo("qkv");
      assertThat(g.consumers("q")).extracting(Op::name).containsExactly("sum");
      assertThat(g.tensor("k").role()).isEqualTo(Role.OUTPUT);
    }
  }

  @Nested
  class Selections {
    @Test
    void comparisonsBroadcastToBool() {
      for (OpKind k :
          List.of(
              OpKind.EQUAL,
              OpKind.LESS,
              OpKind.LESS_OR_EQUAL,
              OpKind.GREATER,
              OpKind.GREATER_OR_EQUAL)) {
        assertThat(infer("c", k, attrs(), t(DType.I64, 3, 1), t(DType.I64, 4)))
            .as(k.onnxName())
            .isEqualTo(t(DType.BOOL, 3, 4));
      }
      for (OpKind k : List.of(OpKind.AND, OpKind.OR, OpKind.XOR)) {
        assertThat(infer("l", k, attrs(), t(DType.BOOL, 2, 1, 5), t(DType.BOOL, 3, 1)))
            .as(k.onnxName())
            .isEqualTo(t(DType.BOOL, 2, 3, 5));
      }
      assertThat(infer("n", OpKind.NOT, attrs(), t(DType.BOOL, 7))).isEqualTo(t(DType.BOOL, 7));
    }

    @Test
    void whereBroadcastsAllThree() {
      assertThat(
              infer(
                  "w", OpKind.WHERE, attrs(), t(DType.BOOL, 1, 1, 128), f32(1, 12, 128, 1), f32()))
          .isEqualTo(f32(1, 12, 128, 128));
    }

    @Test
    void expandBroadcastsBothWays() {
      // ONNX's example: [3,1] expanded by [2,1,6] gives [2,3,6]; a 1 in shape keeps the input dim
      assertThat(infer("e", OpKind.EXPAND, attrs().put("shape", 2, 1, 6), f32(3, 1)))
          .isEqualTo(f32(2, 3, 6));
      assertThat(infer("e", OpKind.EXPAND, attrs().put("shape", 1, 1), t(DType.I64, 4, 5)))
          .isEqualTo(t(DType.I64, 4, 5));
    }

    @Test
    void selectionRejections() {
      rejects("c", OpKind.EQUAL, attrs(), "dtype", f32(2), t(DType.I64, 2));
      rejects("c", OpKind.LESS, attrs(), "do not broadcast", f32(2), f32(3));
      rejects("l", OpKind.AND, attrs(), "input 1 must be BOOL", t(DType.BOOL, 2), f32(2));
      rejects("n", OpKind.NOT, attrs(), "input 0 must be BOOL", f32(2));
      rejects("w", OpKind.WHERE, attrs(), "input 0 must be BOOL", f32(2), f32(2), f32(2));
      rejects("w", OpKind.WHERE, attrs(), "dtype", t(DType.BOOL, 2), f32(2), t(DType.F16, 2));
      rejects("e", OpKind.EXPAND, attrs(), "attribute shape is required", f32(2));
      rejects("e", OpKind.EXPAND, attrs().put("shape", 3), "do not broadcast", f32(2));
    }
  }

  @Nested
  class Quantization {
    private final TensorType u8 = t(DType.U8);
    private final TensorType i8 = t(DType.I8);

    @Test
    void dynamicQuantizeLinearHasThreeOutputs() {
      assertThat(inferN("q", OpKind.DYNAMIC_QUANTIZE_LINEAR, attrs(), 3, f32(1, 128, 384)))
          .containsExactly(t(DType.U8, 1, 128, 384), f32(), t(DType.U8));
      rejectsN("q", OpKind.DYNAMIC_QUANTIZE_LINEAR, attrs(), 3, "must be F32", t(DType.F16, 2));
    }

    @Test
    void matMulIntegerIsInt32WithPerColumnZeroPoints() {
      // BERT-q: activations U8 [1,128,384] x weights I8 [384,1536], b_zero_point one per column
      assertThat(
              infer(
                  "mm",
                  OpKind.MAT_MUL_INTEGER,
                  attrs(),
                  t(DType.U8, 1, 128, 384),
                  t(DType.I8, 384, 1536),
                  u8,
                  t(DType.I8, 1536)))
          .isEqualTo(t(DType.I32, 1, 128, 1536));
      rejects(
          "mm",
          OpKind.MAT_MUL_INTEGER,
          attrs(),
          "must be a scalar or [1536]",
          t(DType.U8, 128, 384),
          t(DType.I8, 384, 1536),
          u8,
          t(DType.I8, 384));
      rejects(
          "mm", OpKind.MAT_MUL_INTEGER, attrs(), "must be I8 or U8", f32(2, 3), t(DType.I8, 3, 4));
      rejects(
          "mm", OpKind.MAT_MUL_INTEGER, attrs(), "dtype", t(DType.U8, 2, 3), t(DType.I8, 3, 4), i8);
    }

    @Test
    void convIntegerFollowsConv() {
      assertThat(
              infer(
                  "c",
                  OpKind.CONV_INTEGER,
                  attrs().put("pads", 1, 1, 1, 1),
                  t(DType.U8, 1, 3, 32, 32),
                  t(DType.U8, 16, 3, 3, 3),
                  u8,
                  t(DType.U8, 16)))
          .isEqualTo(t(DType.I32, 1, 16, 32, 32));
    }

    @Test
    void quantizeAndDequantizeKeepTheShape() {
      assertThat(infer("q", OpKind.QUANTIZE_LINEAR, attrs(), f32(2, 3), f32()))
          .isEqualTo(t(DType.U8, 2, 3));
      assertThat(infer("q", OpKind.QUANTIZE_LINEAR, attrs(), f32(2, 3), f32(3), t(DType.I8, 3)))
          .isEqualTo(t(DType.I8, 2, 3));
      // the word embedding of BERT-q: U8 [30522,384] with a per-tensor scale and zero point
      assertThat(infer("dq", OpKind.DEQUANTIZE_LINEAR, attrs(), t(DType.U8, 30522, 384), f32(), u8))
          .isEqualTo(f32(30522, 384));
      assertThat(
              infer(
                  "dq",
                  OpKind.DEQUANTIZE_LINEAR,
                  attrs().put("axis", 0),
                  t(DType.I8, 4, 5),
                  t(DType.F16, 4)))
          .isEqualTo(t(DType.F16, 4, 5));
    }

    @Test
    void quantizationRejections() {
      rejects("q", OpKind.QUANTIZE_LINEAR, attrs(), "one value per dim 1", f32(2, 3), f32(2));
      rejects("q", OpKind.QUANTIZE_LINEAR, attrs(), "must be a scalar or 1-D", f32(2), f32(1, 1));
      rejects("q", OpKind.QUANTIZE_LINEAR, attrs(), "expected an integer", f32(2), f32(), f32());
      rejects(
          "q",
          OpKind.QUANTIZE_LINEAR,
          attrs().put("block_size", 2),
          "block_size",
          f32(2, 4),
          f32(2, 2));
      rejects("dq", OpKind.DEQUANTIZE_LINEAR, attrs(), "expected an integer", f32(2), f32());
      rejects("dq", OpKind.DEQUANTIZE_LINEAR, attrs(), "floating-point", i8, i8);
      rejects("dq", OpKind.DEQUANTIZE_LINEAR, attrs(), "dtype", i8, f32(), u8);
    }

    @Test
    void integerProductsCountTheirMacs() {
      Graph.Builder b = Graph.builder("q");
      b.input("a", DType.U8, 1, 128, 384);
      b.weight("w", DType.I8, 384, 1536);
      b.op("mm", OpKind.MAT_MUL_INTEGER, Attributes.empty(), "a", "w");
      Graph g = b.output("mm").build();
      assertThat(Macs.of(g)).isEqualTo(128L * 1536 * 384);
    }
  }

  /**
   * DepthToSpace moves b² channel blocks into b x b spatial blocks: C / b², H·b, W·b. DCR (depth,
   * column, row: the block index is the channel's major part) and CRD (the block index its minor
   * part) move elements differently but give the same shape.
   */
  @Nested
  class DepthToSpace {
    @Test
    void dcrSplitsEightChannelsIntoTwoOfTwoByTwoBlocks() {
      // ONNX's test_depthtospace_example: [1, 8, 2, 3], blocksize 2 -> 8/4 = 2 channels, 2*2 = 4
      // rows, 3*2 = 6 columns
      Attributes.Builder dcr = attrs().put("blocksize", 2).put("mode", "DCR");
      assertThat(infer("d", OpKind.DEPTH_TO_SPACE, dcr, f32(1, 8, 2, 3)))
          .isEqualTo(f32(1, 2, 4, 6));
      // mode defaults to DCR
      assertThat(infer("d", OpKind.DEPTH_TO_SPACE, attrs().put("blocksize", 2), f32(1, 8, 2, 3)))
          .isEqualTo(f32(1, 2, 4, 6));
    }

    @Test
    void crdGivesTheSameShapeAndKeepsTheType() {
      // [2, 18, 5, 1], blocksize 3: 18/9 = 2 channels, 5*3 = 15 rows, 1*3 = 3 columns, batch kept
      Attributes.Builder crd = attrs().put("blocksize", 3).put("mode", "CRD");
      assertThat(infer("d", OpKind.DEPTH_TO_SPACE, crd, t(DType.I8, 2, 18, 5, 1)))
          .isEqualTo(t(DType.I8, 2, 2, 15, 3));
      // blocksize 1 moves nothing
      assertThat(
              infer(
                  "d",
                  OpKind.DEPTH_TO_SPACE,
                  attrs().put("blocksize", 1).put("mode", "CRD"),
                  f32(1, 3, 4, 5)))
          .isEqualTo(f32(1, 3, 4, 5));
    }

    @Test
    void inconsistentOperandsAndAttributesAreNamed() {
      OpKind k = OpKind.DEPTH_TO_SPACE;
      rejects("d", k, attrs(), "attribute blocksize is required", f32(1, 8, 2, 3));
      rejects("d", k, attrs().put("blocksize", 0), "blocksize 0 must be >= 1", f32(1, 8, 2, 3));
      rejects(
          "d",
          k,
          attrs().put("blocksize", 2),
          "has 6 channels, not a multiple of blocksize² = 4",
          f32(1, 6, 2, 2));
      rejects("d", k, attrs().put("blocksize", 2), "must be [N, C, H, W] (rank 4)", f32(8, 2, 2));
      rejects(
          "d",
          k,
          attrs().put("blocksize", 2).put("mode", "dcr"),
          "mode 'dcr' must be DCR or CRD",
          f32(1, 8, 2, 3));
      rejects("d", k, attrs().put("blocksize", 1L << 32), "overflow", f32(1, 1, 1L << 32, 1));
    }
  }

  @Nested
  class Arithmetic {
    @Test
    void roundingUnariesKeepTheType() {
      for (OpKind k :
          List.of(OpKind.RECIPROCAL, OpKind.FLOOR, OpKind.CEIL, OpKind.ROUND, OpKind.SIGN)) {
        assertThat(infer("u", k, attrs(), t(DType.F16, 2, 3)))
            .as(k.onnxName())
            .isEqualTo(t(DType.F16, 2, 3));
      }
    }

    @Test
    void modBroadcastsAndNeedsFmodForFloats() {
      assertThat(infer("m", OpKind.MOD, attrs(), t(DType.I64, 3, 1), t(DType.I64, 4)))
          .isEqualTo(t(DType.I64, 3, 4));
      assertThat(infer("m", OpKind.MOD, attrs().put("fmod", 1), f32(2), f32())).isEqualTo(f32(2));
      rejects("m", OpKind.MOD, attrs(), "fmod must be 1", f32(2), f32(2));
      rejects("m", OpKind.MOD, attrs().put("fmod", 2), "fmod 2 must be 0 or 1", f32(2), f32(2));
    }

    @Test
    void tileMultipliesEveryDim() {
      assertThat(infer("t", OpKind.TILE, attrs().put("repeats", 2, 1, 3), f32(1, 4, 5)))
          .isEqualTo(f32(2, 4, 15));
      assertThat(infer("t", OpKind.TILE, attrs().put("repeats", 0), t(DType.I64, 3)))
          .isEqualTo(t(DType.I64, 0));
      rejects("t", OpKind.TILE, attrs(), "attribute repeats is required", f32(2));
      rejects("t", OpKind.TILE, attrs().put("repeats", 2), "has rank 2", f32(2, 2));
      rejects("t", OpKind.TILE, attrs().put("repeats", -1), "must be >= 0", f32(2));
    }
  }

  @Nested
  class OptionalOutputs {
    @Test
    void maxPoolIndicesAreInt64OfTheOutputShape() {
      assertThat(
              inferN(
                  "p",
                  OpKind.MAX_POOL,
                  attrs().put("kernel_shape", 2, 2).put("strides", 2, 2),
                  2,
                  f32(1, 3, 8, 8)))
          .containsExactly(f32(1, 3, 4, 4), t(DType.I64, 1, 3, 4, 4));
      assertThat(
              inferN("p", OpKind.MAX_POOL, attrs().put("kernel_shape", 2, 2), 1, f32(1, 3, 8, 8)))
          .containsExactly(f32(1, 3, 7, 7));
    }

    @Test
    void layerNormMeanAndInvStdDevKeepTheLeadingDims() {
      // axis 1 of [2,5,8]: statistics per leading index, shape [2,1,1], fp32 by default
      assertThat(
              inferN(
                  "ln",
                  OpKind.LAYER_NORMALIZATION,
                  attrs().put("axis", 1),
                  3,
                  t(DType.F16, 2, 5, 8),
                  t(DType.F16, 5, 8)))
          .containsExactly(t(DType.F16, 2, 5, 8), f32(2, 1, 1), f32(2, 1, 1));
      assertThat(
              inferN(
                  "ln",
                  OpKind.LAYER_NORMALIZATION,
                  attrs().put("stash_type", 11),
                  2,
                  f32(2, 5, 8),
                  f32(8)))
          .containsExactly(f32(2, 5, 8), t(DType.F64, 2, 5, 1));
    }
  }
}
