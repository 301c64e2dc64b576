package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import org.junit.jupiter.api.Test;

/** Hand-worked op semantics (reference/tpu-mlir.md §2.3, §4.1, §4.2). */
class OpSemanticsTest {
  private final Chip bm1684x = Chips.get("bm1684x");
  private final Chip cv183x = Chips.get("cv183x");

  @Test
  void lmemBytesAlignsHwToTheEuWidthInElements() {
    // bm1684x: 64 lanes, EU 64 bytes = 16 f32; 1 x ceil(100/64)=2 x align(5*8=40, 16)=48 x 4
    assertThat(OpSemantics.lmemBytes(bm1684x, 1, 100, 5, 8, DType.F32, true)).isEqualTo(2 * 48 * 4);
    assertThat(OpSemantics.lmemBytes(bm1684x, 1, 100, 5, 8, DType.F32, false))
        .isEqualTo(2 * 40 * 4);
    // cv183x: 32 lanes, EU 16 bytes = 16 int8
    assertThat(OpSemantics.lmemBytes(cv183x, 2, 64, 3, 3, DType.I8, true)).isEqualTo(2 * 2 * 16);
  }

  @Test
  void convFilterIsHeldWholeWithOutputChannelsOnLanes() {
    Graph g = GroupFixtures.convStackS2();
    // [8,8,3,3] f32: ceil(8/64) x 72 x 4
    assertThat(OpSemantics.weightLmemBytes(g, g.op("conv1"), "w1", bm1684x)).isEqualTo(288);
  }

  @Test
  void deconvBackwardFollowsDeconvSlice() {
    Graph.Builder b = Graph.builder("d");
    b.input("x", DType.F32, 1, 4, 8, 8);
    b.weight("w", DType.F32, 4, 4, 4, 4);
    b.op(
        "up",
        io.github.memplan.core.ir.OpKind.CONV_TRANSPOSE,
        io.github.memplan.core.ir.Attributes.builder()
            .put("strides", 2, 2)
            .put("pads", 1, 1, 1, 1)
            .build(),
        "x",
        "w");
    b.output("up");
    Graph g = b.build();
    assertThat(g.tensor("up").shape().dim(2)).isEqualTo(16);
    // kh_ext = 4, pad_th = 4 - 1 - 1 = 2; o=4, L=4: first = ceil(2/2) = 1; last = floor(8/2) = 4
    assertThat(OpSemantics.backward(g, g.op("up"), 0, Axis.H, new Range(4, 4), bm1684x))
        .contains(new Range(1, 4));
    // o=0, L=4: first = 0; last = floor(4/2) = 2
    assertThat(OpSemantics.backward(g, g.op("up"), 0, Axis.H, new Range(0, 4), bm1684x))
        .contains(new Range(0, 3));
  }

  /**
   * TPU-MLIR's tpu.Depth2SpaceOp has no LocalGenInterface (TpuOps.td), so a DepthToSpace cuts the
   * base groups on every chip, whatever its shape.
   */
  @Test
  void depthToSpaceIsGlobalOnEveryChip() {
    Graph.Builder b = Graph.builder("d2s");
    b.input("x", DType.F32, 1, 16, 8, 8);
    b.op(
        "d2s",
        io.github.memplan.core.ir.OpKind.DEPTH_TO_SPACE,
        Attributes.builder().put("blocksize", 2).build(),
        "x");
    Graph g = b.output("d2s").build();
    assertThat(g.tensor("d2s").shape().dims()).containsExactly(1, 4, 16, 16);
    for (Chip chip : Chips.all()) {
      assertThat(OpSemantics.whyGlobal(g, g.op("d2s"), chip))
          .as(chip.name())
          .contains("Depth2Space has no LocalGenInterface in TPU-MLIR");
    }
  }

  @Test
  void matMulIsGlobalInFp32AndOnCv18x() {
    Graph.Builder b = Graph.builder("mm");
    b.input("a", DType.F16, 1, 2, 16, 32); // 4-D with C < H by 2-D: local (in GROUP_SMALL_C)
    b.weight("w", DType.F16, 32, 8);
    b.op(
        "mm",
        io.github.memplan.core.ir.OpKind.MAT_MUL,
        io.github.memplan.core.ir.Attributes.empty(),
        "a",
        "w");
    b.output("mm");
    Graph g = b.build();
    assertThat(OpSemantics.groupable(g, g.op("mm"), bm1684x)).isTrue();
    assertThat(OpSemantics.whyGlobal(g, g.op("mm"), cv183x)).get().asString().contains("CV18xx");
    assertThat(OpSemantics.allowSplit(g, g.op("mm"), Axis.H)).isFalse();
  }

  @Test
  void theZoosIntegerOpsFollowTheInt8MatMulAndConvRules() {
    Graph.Builder b = Graph.builder("q");
    b.input("a", DType.U8, 1, 2, 128, 64);
    b.weight("w", DType.I8, 64, 32);
    b.constant("azp", DType.U8);
    b.op(
        "mm",
        io.github.memplan.core.ir.OpKind.MAT_MUL_INTEGER,
        Attributes.empty(),
        "a",
        "w",
        "azp");
    b.input("x", DType.U8, 1, 8, 16, 16);
    b.weight("k", DType.I8, 8, 8, 3, 3);
    b.op(
        "conv",
        io.github.memplan.core.ir.OpKind.CONV_INTEGER,
        Attributes.builder().put("pads", 1L, 1L, 1L, 1L).build(),
        "x",
        "k");
    Graph g = b.output("mm").output("conv").build();
    // a U8 left input is not FP32: local as an INT8 MatMul (4-D by 2-D with C < H), in a
    // GROUP_NORMAL group split only along N
    assertThat(OpSemantics.whyGlobal(g, g.op("mm"), bm1684x)).isEmpty();
    assertThat(OpSemantics.allowSplit(g, g.op("mm"), Axis.H)).isFalse();
    // [64, 32] int8: ceil(64/64) x align(32, 64) x 1
    assertThat(OpSemantics.weightLmemBytes(g, g.op("mm"), "w", bm1684x)).isEqualTo(64);
    assertThat(OpSemantics.whyGlobal(g, g.op("conv"), bm1684x)).isEmpty();
    // a 3x3/p1 conv: output rows [4, 8) read input rows [3, 9)
    assertThat(OpSemantics.backward(g, g.op("conv"), 0, Axis.H, new Range(4, 4), bm1684x))
        .contains(new Range(3, 6));
  }

  /**
   * x f32[1,8,16,16] → DynamicQuantizeLinear (xq u8, scale, zero point) → ConvInteger 3x3/p1 with
   * the zero point → Cast to f32 → Mul by scale · filter scale → Relu: ONNX's dynamic quantization
   * of a conv, as the zoo's int8 files write it.
   */
  private static Graph dynamicQuantConv() {
    Graph.Builder b = Graph.builder("dq");
    b.input("x", DType.F32, 1, 8, 16, 16);
    b.weight("k", DType.I8, 8, 8, 3, 3);
    b.constant("ks", DType.F32);
    b.op(
        "dql",
        io.github.memplan.core.ir.OpKind.DYNAMIC_QUANTIZE_LINEAR,
        Attributes.empty(),
        java.util.List.of("x"),
        java.util.List.of("xq", "xs", "xzp"));
    b.op(
        "conv",
        io.github.memplan.core.ir.OpKind.CONV_INTEGER,
        Attributes.builder().put("pads", 1L, 1L, 1L, 1L).build(),
        "xq",
        "k",
        "xzp");
    b.op(
        "cast",
        io.github.memplan.core.ir.OpKind.CAST,
        Attributes.builder().put("to", DType.F32.onnxCode()).build(),
        "conv");
    b.op("s", io.github.memplan.core.ir.OpKind.MUL, Attributes.empty(), "xs", "ks");
    b.op("deq", io.github.memplan.core.ir.OpKind.MUL, Attributes.empty(), "cast", "s");
    b.op("relu", io.github.memplan.core.ir.OpKind.RELU, Attributes.empty(), "deq");
    return b.output("relu").build();
  }

  @Test
  void dynamicQuantizeLinearFollowsTheInt8QuantizingCast() {
    // TPU-MLIR quantizes an activation with tpu.Cast (F32 to INT8/UINT8 at a calibrated scale), a
    // LocalGen op sliced like any elementwise op; DynamicQuantizeLinear is taken as that Cast
    Graph g = dynamicQuantConv();
    assertThat(OpSemantics.whyGlobal(g, g.op("dql"), bm1684x)).isEmpty();
    for (Axis a : new Axis[] {Axis.N, Axis.H, Axis.W}) {
      assertThat(OpSemantics.allowSplit(g, g.op("dql"), a)).isTrue();
    }
    // identity: output rows [4, 8) read input rows [4, 8)
    assertThat(OpSemantics.backward(g, g.op("dql"), 0, Axis.H, new Range(4, 4), bm1684x))
        .contains(new Range(4, 4));
    // the whole chain groups: two H slices of 8 rows; the conv reads one halo row each side, the
    // quantization none, so x is sliced as xq is: (0, 9) and (7, 9)
    var order = io.github.memplan.core.ir.Schedule.topological(g);
    SliceResult r =
        Slicing.slice(g, order, bm1684x, ShapeSecs.nh(1, 2), SliceRules.V0.withH2Rule(false));
    assertThat(r).isInstanceOf(SliceResult.Sliced.class);
    var slices = ((SliceResult.Sliced) r).slices();
    assertThat(slices.get("xq").h()).containsExactly(new Range(0, 9), new Range(7, 9));
    assertThat(slices.get("x").h()).containsExactly(new Range(0, 9), new Range(7, 9));
  }

  /**
   * ReshapeOp::LocalGenSupport: local when dims 0 and 1 are kept, not on BM1684 or CV18xx;
   * AllowDataSplit: N (and C) only, nothing on BM1688.
   */
  @Test
  void reshapeIsLocalWhenItKeepsDimsZeroAndOne() {
    Graph.Builder b = Graph.builder("r");
    b.input("x", DType.F32, 4, 128, 768);
    b.op(
        "heads",
        io.github.memplan.core.ir.OpKind.RESHAPE,
        Attributes.builder().put("shape", 4, 128, 12, 64).build(),
        "x");
    b.op(
        "rows",
        io.github.memplan.core.ir.OpKind.RESHAPE,
        Attributes.builder().put("shape", 4, 1536, 64).build(),
        "heads");
    b.input("p", DType.F32, 1, 512, 1, 1);
    b.op("flat", io.github.memplan.core.ir.OpKind.FLATTEN, Attributes.empty(), "p");
    b.input("q", DType.F32, 1, 512, 7, 7);
    b.op("flat7", io.github.memplan.core.ir.OpKind.FLATTEN, Attributes.empty(), "q");
    b.output("rows");
    b.output("flat");
    b.output("flat7");
    Graph g = b.build();
    // (4,128,768) -> (4,128,12,64) keeps 4 and 128; (4,128,12,64) -> (4,1536,64) does not;
    // Flatten (1,512,1,1) -> (1,512) keeps 1 and 512; (1,512,7,7) -> (1,25088) does not
    assertThat(OpSemantics.groupable(g, g.op("heads"), bm1684x)).isTrue();
    assertThat(OpSemantics.whyGlobal(g, g.op("rows"), bm1684x))
        .contains("Reshape is local only when it keeps dims 0 and 1");
    assertThat(OpSemantics.groupable(g, g.op("flat"), bm1684x)).isTrue();
    assertThat(OpSemantics.groupable(g, g.op("flat7"), bm1684x)).isFalse();
    assertThat(OpSemantics.whyGlobal(g, g.op("heads"), Chips.get("bm1684")))
        .contains("Reshape is global on bm1684");
    assertThat(OpSemantics.groupable(g, g.op("heads"), cv183x)).isFalse();
    assertThat(OpSemantics.allowSplit(g, g.op("heads"), Axis.N)).isTrue();
    assertThat(OpSemantics.allowSplit(g, g.op("heads"), Axis.H)).isFalse();
    assertThat(OpSemantics.allowSplit(g, g.op("heads"), Axis.W)).isFalse();
    // N slices pass through unchanged: output rows [1, 3) read input rows [1, 3)
    assertThat(OpSemantics.backward(g, g.op("heads"), 0, Axis.N, new Range(1, 2), bm1684x))
        .contains(new Range(1, 2));
    // on BM1688 AllowDataSplit refuses every axis: only the whole N passes
    Chip bm1688 = Chips.get("bm1688");
    assertThat(OpSemantics.backward(g, g.op("heads"), 0, Axis.N, new Range(1, 2), bm1688))
        .isEmpty();
    assertThat(OpSemantics.backward(g, g.op("heads"), 0, Axis.N, new Range(0, 4), bm1688))
        .contains(new Range(0, 4));
    // the whole H of the output (12) is the whole H of the input's 4-D view (768)
    assertThat(OpSemantics.backward(g, g.op("heads"), 0, Axis.H, new Range(0, 12), bm1684x))
        .contains(new Range(0, 768));
    assertThat(
            OpSemantics.scratchBytes(
                g,
                g.op("heads"),
                bm1684x,
                Nchw.of(g.tensor("x").shape()),
                Nchw.of(g.tensor("heads").shape())))
        .isZero();
  }
}
