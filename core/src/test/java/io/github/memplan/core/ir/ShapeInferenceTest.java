package io.github.memplan.core.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Hand-checked output shapes per op family, and rejections that name the op. */
class ShapeInferenceTest {

  private static TensorType f32(long... dims) {
    return new TensorType(Shape.of(dims), DType.F32);
  }

  private static TensorType t(DType dtype, long... dims) {
    return new TensorType(Shape.of(dims), dtype);
  }

  private static TensorType infer(
      String name, OpKind kind, Attributes.Builder attrs, TensorType... in) {
    Op op = new Op(name, kind, attrs.build(), names(in.length), List.of(name));
    List<TensorType> out = ShapeInference.infer(op, Arrays.asList(in));
    assertThat(out).hasSize(1);
    return out.get(0);
  }

  private static TensorType infer(String name, OpKind kind, TensorType... in) {
    return infer(name, kind, Attributes.builder(), in);
  }

  private static List<String> names(int n) {
    String[] s = new String[n];
    for (int i = 0; i < n; i++) {
      s[i] = "in" + i;
    }
    return List.of(s);
  }

  private static Attributes.Builder attrs() {
    return Attributes.builder();
  }

  /** Asserts that inference fails with a message that starts with the op's label. */
  private static void rejects(
      String name, OpKind kind, Attributes.Builder attrs, String fragment, TensorType... in) {
    String label = "'" + name + "' (" + kind.onnxName() + ")";
    assertThatThrownBy(() -> infer(name, kind, attrs, in))
        .isInstanceOf(IllegalArgumentException.class)
        .message()
        .startsWith(label)
        .contains(fragment);
  }

  @Nested
  class Convolution {
    @Test
    void resnetConv1Halves224To112() {
      TensorType y =
          infer(
              "conv1",
              OpKind.CONV,
              attrs().put("kernel_shape", 7, 7).put("strides", 2, 2).put("pads", 3, 3, 3, 3),
              f32(1, 3, 224, 224),
              f32(64, 3, 7, 7));
      assertThat(y).isEqualTo(f32(1, 64, 112, 112));
    }

    @Test
    void biasIsAccepted() {
      TensorType y = infer("c", OpKind.CONV, attrs(), f32(1, 3, 8, 8), f32(16, 3, 3, 3), f32(16));
      assertThat(y).isEqualTo(f32(1, 16, 6, 6));
    }

    @Test
    void depthwiseConvKeepsChannels() {
      TensorType y =
          infer(
              "dw",
              OpKind.CONV,
              attrs().put("group", 32).put("pads", 1, 1, 1, 1).put("strides", 2, 2),
              f32(1, 32, 112, 112),
              f32(32, 1, 3, 3));
      // (112 + 2 - 3) / 2 + 1 = 56
      assertThat(y).isEqualTo(f32(1, 32, 56, 56));
    }

    @Test
    void dilatedConvUsesKernelExtent() {
      // extent (3 - 1) * 2 + 1 = 5; 32 - 5 + 1 = 28
      TensorType y =
          infer(
              "dil",
              OpKind.CONV,
              attrs().put("dilations", 2, 2),
              f32(1, 8, 32, 32),
              f32(16, 8, 3, 3));
      assertThat(y).isEqualTo(f32(1, 16, 28, 28));
    }

    @Test
    void asymmetricPadsAreBeginsThenEnds() {
      // H: 10 + 0 + 2 - 3 + 1 = 10; W: 10 + 1 + 0 - 3 + 1 = 9
      TensorType y =
          infer(
              "c",
              OpKind.CONV,
              attrs().put("pads", 0, 1, 2, 0),
              f32(1, 1, 10, 10),
              f32(1, 1, 3, 3));
      assertThat(y).isEqualTo(f32(1, 1, 10, 9));
    }

    @Test
    void autoPadSameAndValid() {
      TensorType same =
          infer(
              "same",
              OpKind.CONV,
              attrs().put("auto_pad", "SAME_UPPER").put("strides", 2, 2),
              f32(1, 3, 225, 225),
              f32(8, 3, 3, 3));
      assertThat(same).isEqualTo(f32(1, 8, 113, 113));
      TensorType valid =
          infer(
              "valid",
              OpKind.CONV,
              attrs().put("auto_pad", "VALID").put("strides", 2, 2),
              f32(1, 3, 225, 225),
              f32(8, 3, 3, 3));
      assertThat(valid).isEqualTo(f32(1, 8, 112, 112));
    }

    @Test
    void conv1d() {
      // (100 - 5) / 2 + 1 = 48
      TensorType y =
          infer("c1d", OpKind.CONV, attrs().put("strides", 2), f32(1, 4, 100), f32(8, 4, 5));
      assertThat(y).isEqualTo(f32(1, 8, 48));
    }

    @Test
    void rejectsChannelMismatchNamingTheOp() {
      rejects(
          "conv1",
          OpKind.CONV,
          attrs(),
          "input channels 64 != weight channels*group 3",
          f32(1, 64, 56, 56),
          f32(64, 3, 7, 7));
    }

    @Test
    void rejectsKernelShapeDisagreeingWithWeight() {
      rejects(
          "c",
          OpKind.CONV,
          attrs().put("kernel_shape", 5, 5),
          "kernel_shape [5, 5] != weight kernel [3, 3]",
          f32(1, 3, 8, 8),
          f32(4, 3, 3, 3));
    }

    @Test
    void rejectsKernelLargerThanInput() {
      rejects(
          "c", OpKind.CONV, attrs(), "exceeds padded input 4", f32(1, 3, 4, 4), f32(4, 3, 5, 5));
    }

    @Test
    void rejectsBadBiasAndPads() {
      rejects(
          "c",
          OpKind.CONV,
          attrs(),
          "bias B 8 must be [4]",
          f32(1, 3, 8, 8),
          f32(4, 3, 3, 3),
          f32(8));
      rejects(
          "c",
          OpKind.CONV,
          attrs().put("pads", 1, 1),
          "pads [1, 1] has 2 values, expected 4",
          f32(1, 3, 8, 8),
          f32(4, 3, 3, 3));
      rejects(
          "c",
          OpKind.CONV,
          attrs().put("auto_pad", "SAME_UPPER").put("pads", 1, 1, 1, 1),
          "cannot be used with auto_pad",
          f32(1, 3, 8, 8),
          f32(4, 3, 3, 3));
      rejects(
          "c",
          OpKind.CONV,
          attrs().put("strides", 0, 1),
          "strides [0, 1] must be positive",
          f32(1, 3, 8, 8),
          f32(4, 3, 3, 3));
    }

    @Test
    void rejectsMixedDtypesButAcceptsQuantizedBias() {
      rejects(
          "c",
          OpKind.CONV,
          attrs(),
          "input 1 has dtype F16 but input 0 has F32",
          f32(1, 3, 8, 8),
          t(DType.F16, 4, 3, 3, 3));
      TensorType q =
          infer(
              "q",
              OpKind.CONV,
              attrs(),
              t(DType.I8, 1, 3, 8, 8),
              t(DType.I8, 4, 3, 3, 3),
              t(DType.I32, 4));
      assertThat(q).isEqualTo(t(DType.I8, 1, 4, 6, 6));
    }

    @Test
    void convTransposeDoublesResolution() {
      // 2 * (28 - 1) + 4 - 1 - 1 = 56; output channels = W[1] * group = 32
      TensorType y =
          infer(
              "up",
              OpKind.CONV_TRANSPOSE,
              attrs().put("strides", 2, 2).put("pads", 1, 1, 1, 1),
              f32(1, 64, 28, 28),
              f32(64, 32, 4, 4),
              f32(32));
      assertThat(y).isEqualTo(f32(1, 32, 56, 56));
    }

    @Test
    void convTransposeOutputPaddingGroupsAndOutputShape() {
      // 2 * (28 - 1) + 1 + 3 - 1 - 1 = 56; group 2 gives 2 * 16 output channels
      TensorType y =
          infer(
              "up",
              OpKind.CONV_TRANSPOSE,
              attrs()
                  .put("strides", 2, 2)
                  .put("pads", 1, 1, 1, 1)
                  .put("output_padding", 1, 1)
                  .put("group", 2),
              f32(1, 64, 28, 28),
              f32(64, 16, 3, 3));
      assertThat(y).isEqualTo(f32(1, 32, 56, 56));
      TensorType explicit =
          infer(
              "up2",
              OpKind.CONV_TRANSPOSE,
              attrs().put("strides", 2, 2).put("output_shape", 57, 57),
              f32(1, 64, 28, 28),
              f32(64, 16, 3, 3));
      assertThat(explicit).isEqualTo(f32(1, 16, 57, 57));
      TensorType same =
          infer(
              "up3",
              OpKind.CONV_TRANSPOSE,
              attrs().put("strides", 2, 2).put("auto_pad", "SAME_UPPER"),
              f32(1, 64, 28, 28),
              f32(64, 16, 3, 3));
      assertThat(same).isEqualTo(f32(1, 16, 56, 56));
    }

    @Test
    void convTransposeRejectsChannelMismatch() {
      rejects(
          "up",
          OpKind.CONV_TRANSPOSE,
          attrs(),
          "input channels 64 != weight dim 0 32",
          f32(1, 64, 28, 28),
          f32(32, 64, 2, 2));
    }
  }

  @Nested
  class Pooling {
    @Test
    void resnetMaxPoolHalves112To56() {
      TensorType y =
          infer(
              "maxpool",
              OpKind.MAX_POOL,
              attrs().put("kernel_shape", 3, 3).put("strides", 2, 2).put("pads", 1, 1, 1, 1),
              f32(1, 64, 112, 112));
      assertThat(y).isEqualTo(f32(1, 64, 56, 56));
    }

    @Test
    void ceilModeRoundsUp() {
      // floor((112 - 3) / 2) + 1 = 55; ceil gives 56 (GoogLeNet's pools)
      Attributes.Builder floor = attrs().put("kernel_shape", 3, 3).put("strides", 2, 2);
      assertThat(infer("p", OpKind.MAX_POOL, floor, f32(1, 64, 112, 112)))
          .isEqualTo(f32(1, 64, 55, 55));
      Attributes.Builder ceil =
          attrs().put("kernel_shape", 3, 3).put("strides", 2, 2).put("ceil_mode", 1);
      assertThat(infer("p", OpKind.MAX_POOL, ceil, f32(1, 64, 112, 112)))
          .isEqualTo(f32(1, 64, 56, 56));
      // 5x5, kernel 2, stride 2: floor 2, ceil 3
      assertThat(
              infer(
                  "p",
                  OpKind.AVERAGE_POOL,
                  attrs().put("kernel_shape", 2, 2).put("strides", 2, 2).put("ceil_mode", 1),
                  f32(1, 1, 5, 5)))
          .isEqualTo(f32(1, 1, 3, 3));
    }

    @Test
    void ceilModeDropsAWindowStartingInEndPadding() {
      // pytorch/pytorch#116420: 9x9, k4, s4, p2: ceil((9+4-4)/4)+1 = 4, but window 4 would start
      // at 12 >= 9 + 2, inside the end padding, so 3 (onnx/onnx#5741)
      TensorType y =
          infer(
              "p",
              OpKind.AVERAGE_POOL,
              attrs()
                  .put("kernel_shape", 4, 4)
                  .put("strides", 4, 4)
                  .put("pads", 2, 2, 2, 2)
                  .put("ceil_mode", 1),
              f32(1, 1, 9, 9));
      assertThat(y).isEqualTo(f32(1, 1, 3, 3));
    }

    @Test
    void dilatedPoolAndSameAutoPad() {
      // extent 5: 10 - 5 + 1 = 6
      assertThat(
              infer(
                  "p",
                  OpKind.MAX_POOL,
                  attrs().put("kernel_shape", 3, 3).put("dilations", 2, 2),
                  f32(1, 1, 10, 10)))
          .isEqualTo(f32(1, 1, 6, 6));
      assertThat(
              infer(
                  "p",
                  OpKind.MAX_POOL,
                  attrs()
                      .put("kernel_shape", 3, 3)
                      .put("strides", 2, 2)
                      .put("auto_pad", "SAME_LOWER"),
                  f32(1, 1, 11, 11)))
          .isEqualTo(f32(1, 1, 6, 6));
    }

    @Test
    void globalPoolsKeepBatchAndChannels() {
      assertThat(infer("gap", OpKind.GLOBAL_AVERAGE_POOL, f32(1, 512, 7, 7)))
          .isEqualTo(f32(1, 512, 1, 1));
      assertThat(infer("gmp", OpKind.GLOBAL_MAX_POOL, f32(2, 8, 5, 6, 7)))
          .isEqualTo(f32(2, 8, 1, 1, 1));
    }

    @Test
    void rejectsMissingKernelAndBadCeilMode() {
      rejects("p", OpKind.MAX_POOL, attrs(), "kernel_shape is required", f32(1, 1, 4, 4));
      rejects(
          "p",
          OpKind.MAX_POOL,
          attrs().put("kernel_shape", 2, 2).put("ceil_mode", 2),
          "ceil_mode 2 must be 0 or 1",
          f32(1, 1, 4, 4));
      rejects("gap", OpKind.GLOBAL_AVERAGE_POOL, attrs(), "rank >= 3", f32(1, 512));
    }
  }

  @Nested
  class MatrixProducts {
    @Test
    void matMulBroadcastsBatchDims() {
      assertThat(infer("mm", OpKind.MAT_MUL, f32(2, 1, 3, 4), f32(5, 4, 6)))
          .isEqualTo(f32(2, 5, 3, 6));
      assertThat(infer("mm", OpKind.MAT_MUL, f32(1, 12, 128, 64), f32(1, 12, 64, 128)))
          .isEqualTo(f32(1, 12, 128, 128));
    }

    @Test
    void matMulPromotesVectors() {
      assertThat(infer("mm", OpKind.MAT_MUL, f32(4), f32(3, 4, 6))).isEqualTo(f32(3, 6));
      assertThat(infer("mm", OpKind.MAT_MUL, f32(2, 3, 4), f32(4))).isEqualTo(f32(2, 3));
      assertThat(infer("mm", OpKind.MAT_MUL, f32(4), f32(4))).isEqualTo(f32());
    }

    @Test
    void matMulRejectsInnerMismatch() {
      rejects(
          "mm",
          OpKind.MAT_MUL,
          attrs(),
          "inner dimensions differ",
          f32(1, 128, 768),
          f32(512, 768));
      rejects(
          "mm", OpKind.MAT_MUL, attrs(), "do not broadcast: 2 vs 3", f32(2, 4, 5), f32(3, 5, 6));
    }

    @Test
    void gemmTransposesAndBroadcastsC() {
      assertThat(
              infer(
                  "fc",
                  OpKind.GEMM,
                  attrs().put("transB", 1),
                  f32(1, 512),
                  f32(1000, 512),
                  f32(1000)))
          .isEqualTo(f32(1, 1000));
      assertThat(infer("g", OpKind.GEMM, attrs().put("transA", 1), f32(7, 3), f32(7, 5), f32(3, 1)))
          .isEqualTo(f32(3, 5));
    }

    @Test
    void gemmRejectsInnerMismatchAndBadC() {
      rejects("fc", OpKind.GEMM, attrs(), "inner dimensions differ", f32(1, 512), f32(1000, 512));
      rejects(
          "fc",
          OpKind.GEMM,
          attrs().put("transB", 1),
          "does not broadcast to output 1x1000",
          f32(1, 512),
          f32(1000, 512),
          f32(10));
      rejects("fc", OpKind.GEMM, attrs(), "must be 2-D", f32(1, 1, 512), f32(512, 10));
    }
  }

  @Nested
  class Elementwise {
    @Test
    void multidirectionalBroadcasting() {
      assertThat(infer("add", OpKind.ADD, f32(8, 1, 6, 1), f32(7, 1, 5)))
          .isEqualTo(f32(8, 7, 6, 5));
      assertThat(infer("mul", OpKind.MUL, f32(), f32(2, 3))).isEqualTo(f32(2, 3));
      assertThat(infer("max", OpKind.MAX, f32(3, 1), f32(1, 4), f32(4))).isEqualTo(f32(3, 4));
    }

    @Test
    void powKeepsTheBaseDtype() {
      assertThat(infer("pow", OpKind.POW, f32(2, 3), t(DType.I64))).isEqualTo(f32(2, 3));
    }

    @Test
    void rejectsIncompatibleShapesAndDtypes() {
      rejects("add", OpKind.ADD, attrs(), "do not broadcast: 3 vs 4", f32(2, 3), f32(2, 4));
      rejects("sub", OpKind.SUB, attrs(), "dtype", f32(2, 3), t(DType.F16, 2, 3));
      rejects("div", OpKind.DIV, attrs(), "expects 2 inputs, got 1", f32(2, 3));
    }

    @Test
    void unaryKeepsType() {
      for (OpKind k :
          List.of(
              OpKind.RELU,
              OpKind.SIGMOID,
              OpKind.HARD_SWISH,
              OpKind.SILU,
              OpKind.TANH,
              OpKind.ERF,
              OpKind.EXP,
              OpKind.LOG,
              OpKind.SQRT,
              OpKind.NEG,
              OpKind.ABS,
              OpKind.IDENTITY,
              OpKind.GELU,
              OpKind.LEAKY_RELU,
              OpKind.HARD_SIGMOID,
              OpKind.CLIP)) {
        assertThat(infer("u", k, t(DType.F16, 2, 3)))
            .as(k.onnxName())
            .isEqualTo(t(DType.F16, 2, 3));
      }
      assertThat(infer("relu6", OpKind.CLIP, attrs().put("min", 0.0).put("max", 6.0), f32(4)))
          .isEqualTo(f32(4));
      assertThat(infer("clip", OpKind.CLIP, f32(4), f32(), f32())).isEqualTo(f32(4));
    }

    @Test
    void unaryRejections() {
      rejects("r", OpKind.RELU, attrs(), "expects 1 inputs, got 2", f32(4), f32(4));
      rejects(
          "g",
          OpKind.GELU,
          attrs().put("approximate", "fast"),
          "approximate 'fast' must be 'none' or 'tanh'",
          f32(4));
      rejects(
          "clip",
          OpKind.CLIP,
          attrs().put("min", 0.0),
          "both as attributes and as inputs",
          f32(4),
          f32());
      rejects(
          "lrelu",
          OpKind.LEAKY_RELU,
          attrs().put("alpha", "x"),
          "attribute 'alpha' should be a float",
          f32(4));
    }
  }

  @Nested
  class Normalization {
    @Test
    void batchNormChecksChannels() {
      TensorType x = f32(1, 64, 56, 56);
      assertThat(infer("bn", OpKind.BATCH_NORMALIZATION, x, f32(64), f32(64), f32(64), f32(64)))
          .isEqualTo(x);
      rejects(
          "bn1",
          OpKind.BATCH_NORMALIZATION,
          attrs(),
          "var 32 must be [64]",
          x,
          f32(64),
          f32(64),
          f32(64),
          f32(32));
      rejects(
          "bn1",
          OpKind.BATCH_NORMALIZATION,
          attrs().put("training_mode", 1),
          "training_mode",
          x,
          f32(64),
          f32(64),
          f32(64),
          f32(64));
    }

    @Test
    void layerNormBroadcastsScaleToNormalizedDims() {
      TensorType x = f32(1, 128, 768);
      assertThat(infer("ln", OpKind.LAYER_NORMALIZATION, x, f32(768), f32(768))).isEqualTo(x);
      assertThat(
              infer(
                  "ln",
                  OpKind.LAYER_NORMALIZATION,
                  attrs().put("axis", 1),
                  x,
                  f32(128, 768),
                  f32(1, 768)))
          .isEqualTo(x);
      rejects(
          "ln",
          OpKind.LAYER_NORMALIZATION,
          attrs(),
          "Scale 128 does not broadcast to normalized dims 768",
          x,
          f32(128));
      rejects(
          "ln",
          OpKind.LAYER_NORMALIZATION,
          attrs().put("axis", 3),
          "axis 3 out of range [-3, 2]",
          x,
          f32(768));
    }

    @Test
    void softmaxChecksAxis() {
      assertThat(infer("sm", OpKind.SOFTMAX, f32(1, 12, 128, 128))).isEqualTo(f32(1, 12, 128, 128));
      rejects("sm", OpKind.SOFTMAX, attrs().put("axis", -5), "axis -5 out of range", f32(2, 3));
    }
  }

  @Nested
  class ShapeOps {
    @Test
    void concatSumsTheAxis() {
      assertThat(
              infer(
                  "cat", OpKind.CONCAT, attrs().put("axis", 1), f32(1, 16, 8, 8), f32(1, 48, 8, 8)))
          .isEqualTo(f32(1, 64, 8, 8));
      assertThat(infer("cat", OpKind.CONCAT, attrs().put("axis", -1), f32(2, 3), f32(2, 5)))
          .isEqualTo(f32(2, 8));
      rejects(
          "cat",
          OpKind.CONCAT,
          attrs().put("axis", 1),
          "differs from input 0 1x16x8x8 in dim 2",
          f32(1, 16, 8, 8),
          f32(1, 16, 4, 8));
      rejects("cat", OpKind.CONCAT, attrs(), "axis is required", f32(1, 16, 8, 8));
    }

    @Test
    void reshapeCopiesZerosAndInfersMinusOne() {
      assertThat(infer("r", OpKind.RESHAPE, attrs().put("shape", 0, -1), f32(2, 3, 4)))
          .isEqualTo(f32(2, 12));
      assertThat(infer("r", OpKind.RESHAPE, attrs().put("shape", -1, 0, 2), f32(2, 3, 4)))
          .isEqualTo(f32(4, 3, 2));
      assertThat(
              infer(
                  "split_heads",
                  OpKind.RESHAPE,
                  attrs().put("shape", 0, 0, 12, 64),
                  f32(1, 128, 768)))
          .isEqualTo(f32(1, 128, 12, 64));
      assertThat(
              infer("r", OpKind.RESHAPE, attrs().put("shape", 0, 5).put("allowzero", 1), f32(0, 3)))
          .isEqualTo(f32(0, 5));
    }

    @Test
    void reshapeRejections() {
      rejects("r", OpKind.RESHAPE, attrs().put("shape", 5, 5), "has 24", f32(2, 3, 4));
      rejects("r", OpKind.RESHAPE, attrs().put("shape", -1, -1), "more than one -1", f32(24));
      rejects("r", OpKind.RESHAPE, attrs().put("shape", -1, 5), "cannot infer the -1", f32(24));
      rejects(
          "r",
          OpKind.RESHAPE,
          attrs().put("shape", 0, -1).put("allowzero", 1),
          "both 0 and -1",
          f32(24));
      rejects("r", OpKind.RESHAPE, attrs(), "shape is required", f32(24));
    }

    @Test
    void flatten() {
      assertThat(infer("f", OpKind.FLATTEN, f32(1, 512, 1, 1))).isEqualTo(f32(1, 512));
      assertThat(infer("f", OpKind.FLATTEN, attrs().put("axis", 2), f32(2, 3, 4, 5)))
          .isEqualTo(f32(6, 20));
      assertThat(infer("f", OpKind.FLATTEN, attrs().put("axis", 0), f32(2, 3)))
          .isEqualTo(f32(1, 6));
      assertThat(infer("f", OpKind.FLATTEN, attrs().put("axis", 2), f32(2, 3)))
          .isEqualTo(f32(6, 1));
      rejects("f", OpKind.FLATTEN, attrs().put("axis", 3), "axis 3 out of range", f32(2, 3));
    }

    @Test
    void squeezeAndUnsqueeze() {
      assertThat(infer("s", OpKind.SQUEEZE, f32(1, 3, 1, 4))).isEqualTo(f32(3, 4));
      assertThat(infer("s", OpKind.SQUEEZE, attrs().put("axes", -2), f32(1, 3, 1, 4)))
          .isEqualTo(f32(1, 3, 4));
      assertThat(infer("u", OpKind.UNSQUEEZE, attrs().put("axes", 0, -1), f32(3, 4)))
          .isEqualTo(f32(1, 3, 4, 1));
      assertThat(infer("u", OpKind.UNSQUEEZE, attrs().put("axes", 1), f32(3))).isEqualTo(f32(3, 1));
      rejects(
          "s",
          OpKind.SQUEEZE,
          attrs().put("axes", 1),
          "cannot squeeze dim 1 of size 3",
          f32(1, 3, 1, 4));
      rejects("u", OpKind.UNSQUEEZE, attrs().put("axes", 0, 0), "repeats axis 0", f32(3));
      rejects("u", OpKind.UNSQUEEZE, attrs(), "axes is required", f32(3));
    }

    @Test
    void transpose() {
      assertThat(infer("t", OpKind.TRANSPOSE, f32(2, 3, 4))).isEqualTo(f32(4, 3, 2));
      assertThat(infer("t", OpKind.TRANSPOSE, attrs().put("perm", 0, 2, 1, 3), f32(1, 128, 12, 64)))
          .isEqualTo(f32(1, 12, 128, 64));
      rejects(
          "t",
          OpKind.TRANSPOSE,
          attrs().put("perm", 0, 0, 1),
          "is not a permutation of 0..2",
          f32(2, 3, 4));
      rejects("t", OpKind.TRANSPOSE, attrs().put("perm", 1, 0), "has rank 3", f32(2, 3, 4));
    }

    @Test
    void resizeAndUpsampleFloorScaledDims() {
      assertThat(
              infer(
                  "up", OpKind.RESIZE, attrs().put("scales", 1.0, 1.0, 2.0, 2.0), f32(1, 3, 7, 7)))
          .isEqualTo(f32(1, 3, 14, 14));
      // floor(7 * 0.5) = 3
      assertThat(
              infer(
                  "dn", OpKind.RESIZE, attrs().put("scales", 1.0, 1.0, 0.5, 0.5), f32(1, 3, 7, 7)))
          .isEqualTo(f32(1, 3, 3, 3));
      assertThat(infer("sz", OpKind.RESIZE, attrs().put("sizes", 1, 3, 20, 30), f32(1, 3, 7, 7)))
          .isEqualTo(f32(1, 3, 20, 30));
      // not_larger: scale = min(50/100, 50/200) = 0.25
      assertThat(
              infer(
                  "ar",
                  OpKind.RESIZE,
                  attrs()
                      .put("sizes", 50, 50)
                      .put("axes", 2, 3)
                      .put("keep_aspect_ratio_policy", "not_larger"),
                  f32(1, 3, 100, 200)))
          .isEqualTo(f32(1, 3, 25, 50));
      assertThat(
              infer(
                  "u",
                  OpKind.UPSAMPLE,
                  attrs().put("scales", 1.0, 1.0, 2.0, 2.0),
                  f32(1, 256, 13, 13)))
          .isEqualTo(f32(1, 256, 26, 26));
    }

    @Test
    void resizeRejections() {
      rejects(
          "up",
          OpKind.RESIZE,
          attrs().put("scales", 2.0, 2.0).put("sizes", 2, 2),
          "exactly one of",
          f32(1, 1));
      rejects("up", OpKind.RESIZE, attrs().put("scales", 2.0), "expected 2", f32(1, 1));
      rejects(
          "up", OpKind.UPSAMPLE, attrs().put("scales", 1.0, 0.5), "must all be >= 1", f32(4, 4));
    }

    @Test
    void padAddsBeginsAndEndsAndMayCrop() {
      assertThat(
              infer("p", OpKind.PAD, attrs().put("pads", 0, 0, 1, 2, 0, 0, 3, 4), f32(1, 3, 4, 4)))
          .isEqualTo(f32(1, 3, 8, 10));
      assertThat(infer("p", OpKind.PAD, attrs().put("pads", -1, 0, -1, 2), f32(4, 4)))
          .isEqualTo(f32(2, 6));
      assertThat(
              infer(
                  "p",
                  OpKind.PAD,
                  attrs().put("pads", 1, 1).put("axes", -1).put("mode", "reflect"),
                  f32(2, 4)))
          .isEqualTo(f32(2, 6));
      rejects("p", OpKind.PAD, attrs().put("pads", -3, -2), "below zero", f32(4));
      rejects("p", OpKind.PAD, attrs().put("pads", 1, 1), "expected 4", f32(4, 4));
      rejects(
          "p",
          OpKind.PAD,
          attrs().put("pads", 1, 1).put("mode", "mirror"),
          "mode 'mirror'",
          f32(4));
    }

    @Test
    void sliceClampsLikeOnnx() {
      long intMax = Integer.MAX_VALUE;
      assertThat(infer("s", OpKind.SLICE, attrs().put("starts", 1).put("ends", intMax), f32(10)))
          .isEqualTo(f32(9));
      assertThat(infer("s", OpKind.SLICE, attrs().put("starts", -100).put("ends", -1), f32(10)))
          .isEqualTo(f32(9));
      assertThat(infer("s", OpKind.SLICE, attrs().put("starts", 5).put("ends", 2), f32(10)))
          .isEqualTo(f32(0));
      // BERT pooler: first token of [1, 128, 768]
      assertThat(
              infer(
                  "cls",
                  OpKind.SLICE,
                  attrs().put("starts", 0).put("ends", 1).put("axes", 1),
                  f32(1, 128, 768)))
          .isEqualTo(f32(1, 1, 768));
      // every second column of the last axis
      assertThat(
              infer(
                  "s",
                  OpKind.SLICE,
                  attrs()
                      .put("starts", 0)
                      .put("ends", Long.MAX_VALUE)
                      .put("axes", -1)
                      .put("steps", 2),
                  f32(3, 7)))
          .isEqualTo(f32(3, 4));
    }

    @Test
    void sliceNegativeSteps() {
      // full reverse: x[::-1] on 10 elements
      assertThat(
              infer(
                  "rev",
                  OpKind.SLICE,
                  attrs().put("starts", -1).put("ends", Long.MIN_VALUE).put("steps", -1),
                  f32(10)))
          .isEqualTo(f32(10));
      // x[8:1:-3] = 8, 5, 2
      assertThat(
              infer(
                  "s",
                  OpKind.SLICE,
                  attrs().put("starts", 8).put("ends", 1).put("steps", -3),
                  f32(10)))
          .isEqualTo(f32(3));
      // x[20:0:-2] = 9, 7, 5, 3, 1 (start clamped to dim - 1)
      assertThat(
              infer(
                  "s",
                  OpKind.SLICE,
                  attrs().put("starts", 20).put("ends", 0).put("steps", -2),
                  f32(10)))
          .isEqualTo(f32(5));
      // x[1:5:-1] is empty
      assertThat(
              infer(
                  "s",
                  OpKind.SLICE,
                  attrs().put("starts", 1).put("ends", 5).put("steps", -1),
                  f32(10)))
          .isEqualTo(f32(0));
    }

    @Test
    void sliceRejections() {
      rejects(
          "s",
          OpKind.SLICE,
          attrs().put("starts", 0).put("ends", 1).put("steps", 0),
          "contains 0",
          f32(10));
      rejects(
          "s",
          OpKind.SLICE,
          attrs().put("starts", 0, 0).put("ends", 1, 1).put("axes", 0, -2),
          "repeats axis 0",
          f32(10, 10));
      rejects("s", OpKind.SLICE, attrs().put("starts", 0), "required", f32(10));
    }

    @Test
    void gatherSplicesIndicesShape() {
      assertThat(infer("word_embeddings", OpKind.GATHER, f32(30522, 768), t(DType.I64, 1, 128)))
          .isEqualTo(f32(1, 128, 768));
      assertThat(
              infer("first", OpKind.GATHER, attrs().put("axis", 1), f32(1, 128, 768), t(DType.I32)))
          .isEqualTo(f32(1, 768));
      assertThat(
              infer("g", OpKind.GATHER, attrs().put("axis", -1), f32(2, 3, 4), t(DType.I64, 5, 6)))
          .isEqualTo(f32(2, 3, 5, 6));
      rejects(
          "g", OpKind.GATHER, attrs(), "indices must be I32 or I64, got F32", f32(10, 4), f32(3));
      rejects(
          "g",
          OpKind.GATHER,
          attrs().put("axis", 2),
          "axis 2 out of range",
          f32(10, 4),
          t(DType.I64, 3));
    }
  }

  @Nested
  class Recurrent {
    private Attributes.Builder bidirectional(long hidden) {
      return attrs().put("hidden_size", hidden).put("direction", "bidirectional");
    }

    @Test
    void bidirectionalLstmStacksDirectionsInY() {
      // CRNN's first BiLSTM over 24 frames of 512 features, 256 units each way
      assertThat(
              infer(
                  "blstm1",
                  OpKind.LSTM,
                  bidirectional(256),
                  f32(24, 1, 512),
                  f32(2, 1024, 512),
                  f32(2, 1024, 256),
                  f32(2, 2048)))
          .isEqualTo(f32(24, 2, 1, 256));
    }

    @Test
    void forwardLstmWithoutBiasTakesHiddenSizeFromR() {
      assertThat(infer("l", OpKind.LSTM, f32(5, 3, 10), f32(1, 16, 10), f32(1, 16, 4)))
          .isEqualTo(f32(5, 1, 3, 4));
      assertThat(
              infer(
                  "l",
                  OpKind.LSTM,
                  attrs().put("direction", "reverse").put("hidden_size", 4),
                  f32(5, 3, 10),
                  f32(1, 16, 10),
                  f32(1, 16, 4)))
          .isEqualTo(f32(5, 1, 3, 4));
    }

    @Test
    void batchFirstLayout() {
      assertThat(
              infer(
                  "l",
                  OpKind.LSTM,
                  bidirectional(4).put("layout", 1),
                  f32(3, 5, 10),
                  f32(2, 16, 10),
                  f32(2, 16, 4)))
          .isEqualTo(f32(3, 5, 2, 4));
    }

    @Test
    void rejectsWeightsThatDisagreeWithDirectionOrSizes() {
      TensorType x = f32(5, 3, 10);
      rejects(
          "l",
          OpKind.LSTM,
          bidirectional(4),
          "W 1x16x10 must be 2x16x10",
          x,
          f32(1, 16, 10),
          f32(1, 16, 4));
      rejects(
          "l", OpKind.LSTM, attrs(), "W 1x16x8 must be 1x16x10", x, f32(1, 16, 8), f32(1, 16, 4));
      rejects(
          "l",
          OpKind.LSTM,
          attrs().put("hidden_size", 5),
          "W 1x16x10 must be 1x20x10",
          x,
          f32(1, 16, 10),
          f32(1, 16, 4));
      rejects(
          "l",
          OpKind.LSTM,
          attrs().put("hidden_size", 4),
          "R 1x16x5 must be 1x16x4",
          x,
          f32(1, 16, 10),
          f32(1, 16, 5));
      rejects(
          "l",
          OpKind.LSTM,
          attrs(),
          "B 1x16 must be 1x32",
          x,
          f32(1, 16, 10),
          f32(1, 16, 4),
          f32(1, 16));
    }

    private List<TensorType> lstm(Attributes.Builder a, int outputs, TensorType... in) {
      List<String> outs = List.of("y", "y_h", "y_c").subList(0, outputs);
      Op op = new Op("l", OpKind.LSTM, a.build(), names(in.length), outs);
      return ShapeInference.infer(op, Arrays.asList(in));
    }

    @Test
    void pytorchsInitialStateAndFinalStates() {
      // PyTorch exports X, W, R, B, "", initial_h, initial_c -> Y, Y_h, Y_c; the absent
      // sequence_lens makes the operands after R the ONNX inputs 3, 5 and 6. seq 5, batch 2,
      // input 3, hidden 4, one direction: Y [5, 1, 2, 4]; Y_h and Y_c [dirs 1, batch 2, 4].
      TensorType state = f32(1, 2, 4);
      assertThat(
              lstm(
                  attrs().put("hidden_size", 4).put("optional_inputs", 3, 5, 6),
                  3,
                  f32(5, 2, 3),
                  f32(1, 16, 3),
                  f32(1, 16, 4),
                  f32(1, 32),
                  state,
                  state))
          .containsExactly(f32(5, 1, 2, 4), state, state);
    }

    @Test
    void everyOptionalInputInOrderWithBatchFirstStates() {
      // layout 1, bidirectional: X [batch 2, seq 5, input 3]; B [2, 8*4]; sequence_lens I32
      // [batch 2]; initial_h and initial_c [batch 2, dirs 2, hidden 4]; P [2, 3*4]. Y [2, 5, 2,
      // 4]; Y_h [2, 2, 4].
      TensorType state = f32(2, 2, 4);
      assertThat(
              lstm(
                  bidirectional(4).put("layout", 1),
                  2,
                  f32(2, 5, 3),
                  f32(2, 16, 3),
                  f32(2, 16, 4),
                  f32(2, 32),
                  t(DType.I32, 2),
                  state,
                  state,
                  f32(2, 12)))
          .containsExactly(f32(2, 5, 2, 4), state);
    }

    @Test
    void onlyTheNamedOutputs() {
      // optional_outputs [2]: the op defines Y_c alone, [dirs 1, batch 2, hidden 4]
      Op op =
          new Op(
              "l",
              OpKind.LSTM,
              attrs().put("optional_outputs", 2).build(),
              names(3),
              List.of("y_c"));
      assertThat(ShapeInference.infer(op, List.of(f32(5, 2, 3), f32(1, 16, 3), f32(1, 16, 4))))
          .containsExactly(f32(1, 2, 4));
      Op twice =
          new Op(
              "l",
              OpKind.LSTM,
              attrs().put("optional_outputs", 1, 1).build(),
              names(3),
              List.of("a", "b"));
      assertThatThrownBy(
              () ->
                  ShapeInference.infer(twice, List.of(f32(5, 2, 3), f32(1, 16, 3), f32(1, 16, 4))))
          .hasMessageContaining(
              "optional_outputs [1, 1] must be increasing ONNX output indices from 0 (Y) to 2"
                  + " (Y_c)");
    }

    @Test
    void rejectsMisplacedOrMisshapenOptionalInputs() {
      TensorType x = f32(5, 2, 3);
      TensorType w = f32(1, 16, 3);
      TensorType r = f32(1, 16, 4);
      // initial_h alone at index 5: layout 0 wants [dirs 1, batch 2, hidden 4]
      rejects(
          "l",
          OpKind.LSTM,
          attrs().put("optional_inputs", 5),
          "initial_h 2x1x4 must be 1x2x4 (dirs, batch, hidden_size)",
          x,
          w,
          r,
          f32(2, 1, 4));
      rejects(
          "l",
          OpKind.LSTM,
          attrs().put("optional_inputs", 4),
          "sequence_lens must be I32, got I64",
          x,
          w,
          r,
          t(DType.I64, 2));
      rejects(
          "l",
          OpKind.LSTM,
          attrs().put("optional_inputs", 7),
          "P 1x16 must be 1x12 (dirs, 3*hidden_size)",
          x,
          w,
          r,
          f32(1, 16));
      rejects(
          "l",
          OpKind.LSTM,
          attrs().put("optional_inputs", 6, 5),
          "must be increasing ONNX input indices from 3 (B) to 7 (P)",
          x,
          w,
          r,
          f32(1, 2, 4),
          f32(1, 2, 4));
      rejects(
          "l",
          OpKind.LSTM,
          attrs().put("optional_inputs", 5, 6),
          "names 2 inputs but the op has 1 after R",
          x,
          w,
          r,
          f32(1, 2, 4));
    }

    @Test
    void rejectsBadAttributesAndRanks() {
      rejects(
          "l",
          OpKind.LSTM,
          attrs().put("direction", "both"),
          "direction 'both' must be forward, reverse or bidirectional",
          f32(5, 3, 10),
          f32(1, 16, 10),
          f32(1, 16, 4));
      rejects(
          "l",
          OpKind.LSTM,
          attrs().put("layout", 2),
          "layout 2 must be 0 or 1",
          f32(5, 3, 10),
          f32(1, 16, 10),
          f32(1, 16, 4));
      rejects(
          "l",
          OpKind.LSTM,
          attrs(),
          "must be [seq, batch, input]",
          f32(5, 10),
          f32(1, 16, 10),
          f32(1, 16, 4));
      rejects(
          "l",
          OpKind.LSTM,
          attrs(),
          "input 1 has dtype F16",
          f32(5, 3, 10),
          t(DType.F16, 1, 16, 10),
          f32(1, 16, 4));
    }
  }

  @Test
  void everyKindIsHandled() {
    // a wrong input count fails with the op's label for every kind, so no kind falls through
    for (OpKind k : OpKind.values()) {
      List<TensorType> none = List.of();
      Op op = new Op("x", k, Attributes.empty(), List.of(), List.of("x"));
      assertThatThrownBy(() -> ShapeInference.infer(op, none))
          .as(k.onnxName())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("'x' (" + k.onnxName() + "): expects");
    }
  }
}
