package io.github.memplan.core.frontend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.group.Nchw;
import io.github.memplan.core.group.OpSemantics;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Tensor;
import org.junit.jupiter.api.Test;

/** The lowering to a precision on small hand-built graphs, worked out by hand. */
class LoweringTest {
  private static final Chip BM1684X = Chips.get("bm1684x");

  /** x[1,96,30,30] -> conv (96 -> 96, 1x1, bias) -> y. */
  private static Graph conv() {
    Graph.Builder b = Graph.builder("conv");
    b.input("x", DType.F32, 1, 96, 30, 30);
    b.weight("w", DType.F32, 96, 96, 1, 1);
    b.weight("b", DType.F32, 96);
    b.op("y", OpKind.CONV, Attributes.builder().put("kernel_shape", 1L, 1L).build(), "x", "w", "b");
    return b.output("y").build();
  }

  private static Graph lower(Graph g, Lowering.Quantize q) {
    return FrontEnd.apply(g, BM1684X, FrontEnd.Options.ALL, q);
  }

  @Test
  void anInt8ConvHasOneByteTensorsAnInt8FilterAnInt32BiasAndLmemBytesPerTheFormula() {
    Graph g = lower(conv(), Lowering.Quantize.INT8);
    Tensor y = g.tensor("y");
    assertThat(y.dtype()).isEqualTo(DType.I8);
    assertThat(y.bytes()).isEqualTo(96 * 30 * 30);
    assertThat(g.tensor("x").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("w").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("w").bytes()).isEqualTo(96 * 96);
    assertThat(g.tensor("b").dtype()).isEqualTo(DType.I32);
    // n·d·ceil(c/NPU)·align_up(h·w, EU_BYTES/dtype_bytes)·dtype_bytes, NPU 64, EU_BYTES 64:
    // INT8 1·2·align_up(900, 64)·1 = 2·960 = 1920; F32 2·align_up(900, 16)·4 = 2·912·4 = 7296
    Nchw s = Nchw.of(y.shape());
    assertThat(OpSemantics.lmemBytes(BM1684X, s, y.dtype(), true)).isEqualTo(1920);
    Tensor y32 = lower(conv(), Lowering.Quantize.F32).tensor("y");
    assertThat(y32.dtype()).isEqualTo(DType.F32);
    assertThat(OpSemantics.lmemBytes(BM1684X, s, y32.dtype(), true)).isEqualTo(7296);
    // F16: 2·align_up(900, 32)·2 = 2·928·2 = 3712
    Tensor y16 = lower(conv(), Lowering.Quantize.F16).tensor("y");
    assertThat(y16.dtype()).isEqualTo(DType.F16);
    assertThat(OpSemantics.lmemBytes(BM1684X, s, y16.dtype(), true)).isEqualTo(3712);
  }

  @Test
  void f32IsTheGraphItself() {
    Graph g = conv();
    assertThat(lower(g, Lowering.Quantize.F32)).isSameAs(g);
  }

  @Test
  void theTiuRateFollowsTheDtype() {
    RooflineCostModel m = new RooflineCostModel();
    Graph f32 = lower(conv(), Lowering.Quantize.F32);
    Graph i8 = lower(conv(), Lowering.Quantize.INT8);
    // 96·96·900 MACs over 64 lanes × 16 (F32) or × 64 (INT8) per cycle
    assertThat(m.tiuCycles(f32, f32.ops().get(0), BM1684X)).isEqualTo(96L * 96 * 900 / 1024);
    assertThat(m.tiuCycles(i8, i8.ops().get(0), BM1684X)).isEqualTo(96L * 96 * 900 / 4096);
    assertThat(RooflineCostModel.assumptions(BM1684X))
        .contains("F32 1024, BF16/F16 2048, INT8 4096");
  }

  /** x[1,4,16,64] -> LayerNorm (axis -1) -> Gelu -> Softmax (axis) -> out. */
  private static Graph transformerish(long softmaxAxis) {
    Graph.Builder b = Graph.builder("t");
    b.input("x", DType.F32, 1, 4, 16, 64);
    b.weight("g", DType.F32, 64);
    b.weight("beta", DType.F32, 64);
    b.op(
        "ln",
        OpKind.LAYER_NORMALIZATION,
        Attributes.builder().put("axis", -1L).build(),
        "x",
        "g",
        "beta");
    b.op("gelu", OpKind.GELU, Attributes.empty(), "ln");
    b.op("sm", OpKind.SOFTMAX, Attributes.builder().put("axis", softmaxAxis).build(), "gelu");
    return b.output("sm").build();
  }

  @Test
  void inInt8LayerNormIsF16SoftmaxOnTheLastAxisF16AndGeluInt8() {
    Graph g = lower(transformerish(-1), Lowering.Quantize.INT8);
    assertThat(g.tensor("ln").dtype()).isEqualTo(DType.F16);
    assertThat(g.tensor("g").dtype()).isEqualTo(DType.F16);
    assertThat(g.tensor("gelu").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("sm").dtype()).isEqualTo(DType.F16);
    assertThat(g.tensor("sm").bytes()).isEqualTo(4 * 16 * 64 * 2);
    // Softmax on axis 1 of a 4-D tensor has an INT8 lowering
    assertThat(lower(transformerish(1), Lowering.Quantize.INT8).tensor("sm").dtype())
        .isEqualTo(DType.I8);
  }

  @Test
  void inBf16GeluStaysF32OnBm1684xAndKeepsFourBytes() {
    Graph g = lower(transformerish(-1), Lowering.Quantize.BF16);
    assertThat(g.tensor("ln").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("gelu").dtype()).isEqualTo(DType.F32);
    assertThat(g.tensor("gelu").bytes()).isEqualTo(4L * 16 * 64 * 4);
    assertThat(g.tensor("sm").dtype()).isEqualTo(DType.BF16);
  }

  @Test
  void matMulIsLocalOnlyWhenItsLeftInputIsNotF32() {
    // a 4-D left operand with C < H by a 2-D right one: a local shape (in a SMALL_C group)
    Graph.Builder b = Graph.builder("mm");
    b.input("a", DType.F32, 1, 4, 128, 64);
    b.weight("w", DType.F32, 64, 32);
    b.op("mm", OpKind.MAT_MUL, Attributes.empty(), "a", "w");
    Graph g = b.output("mm").build();
    Graph f32 = lower(g, Lowering.Quantize.F32);
    assertThat(OpSemantics.whyGlobal(f32, f32.ops().get(0), BM1684X))
        .contains("fp32 MatMul is global");
    Graph i8 = lower(g, Lowering.Quantize.INT8);
    assertThat(OpSemantics.whyGlobal(i8, i8.ops().get(0), BM1684X)).isEmpty();
    Graph bf16 = lower(g, Lowering.Quantize.BF16);
    assertThat(OpSemantics.whyGlobal(bf16, bf16.ops().get(0), BM1684X)).isEmpty();
  }

  @Test
  void integerTensorsKeepTheirTypeAndAnInt8EmbeddingIsF16() {
    // Gather.cpp at d50059d620: GatherLowering::LoweringINT8 calls LoweringF16 (clone_f16 table)
    Graph.Builder b = Graph.builder("gather");
    b.weight("table", DType.F32, 100, 16);
    b.input("ids", DType.I64, 1, 8);
    b.op("emb", OpKind.GATHER, Attributes.empty(), "table", "ids");
    Graph g = lower(b.output("emb").build(), Lowering.Quantize.INT8);
    assertThat(g.tensor("ids").dtype()).isEqualTo(DType.I64);
    assertThat(g.tensor("emb").dtype()).isEqualTo(DType.F16);
    assertThat(g.tensor("table").dtype()).isEqualTo(DType.F16);
    // 100·16 two-byte elements
    assertThat(g.tensor("table").bytes()).isEqualTo(3200);
  }

  @Test
  void cv18xxRefusesF16AndF32WithOneLine() {
    Chip cv = Chips.get("cv183x");
    assertThatThrownBy(
            () -> FrontEnd.apply(conv(), cv, FrontEnd.Options.ALL, Lowering.Quantize.F16))
        .hasMessage("--quantize F16 is not supported on cv183x (allowed: BF16, INT8)");
    assertThatThrownBy(() -> Lowering.Quantize.F32.check(cv))
        .hasMessage("--quantize F32 is not supported on cv183x (allowed: BF16, INT8)");
    // the default F32 is the graph as imported, as before precisions existed
    Graph g = conv();
    assertThat(FrontEnd.apply(g, cv, FrontEnd.Options.NONE, Lowering.Quantize.F32)).isSameAs(g);
    assertThat(
            FrontEnd.apply(conv(), cv, FrontEnd.Options.ALL, Lowering.Quantize.BF16)
                .tensor("y")
                .dtype())
        .isEqualTo(DType.BF16);
  }

  // CV18xx: TPU-MLIR's own lowering, lib/Conversion/TopToTpu/CV18xx/*.cpp (Cv18xxLowering).

  private static final Chip CV183X = Chips.get("cv183x");

  private static Graph cv18(Graph g, Lowering.Quantize q) {
    return Lowering.apply(g, CV183X, q);
  }

  @Test
  void onCv18xxInt8LayerNormAndSoftmaxOnAnyAxisAreBf16AndGeluAnInt8Table() {
    // LayerNorm.cpp and Softmax.cpp: LoweringINT8 calls LoweringBF16; GELU.cpp: an INT8 LutOp.
    // The softmax on axis 1 of a 4-D tensor, INT8 on bm1684x, is BF16 here: 4·16·64·2 = 8192 B.
    for (long axis : new long[] {-1, 1}) {
      Graph g = cv18(transformerish(axis), Lowering.Quantize.INT8);
      assertThat(g.tensor("ln").dtype()).isEqualTo(DType.BF16);
      assertThat(g.tensor("g").dtype()).isEqualTo(DType.BF16);
      assertThat(g.tensor("gelu").dtype()).isEqualTo(DType.I8);
      assertThat(g.tensor("sm").dtype()).isEqualTo(DType.BF16);
      assertThat(g.tensor("sm").bytes()).isEqualTo(8192);
    }
    assertThat(lower(transformerish(1), Lowering.Quantize.INT8).tensor("sm").dtype())
        .isEqualTo(DType.I8);
  }

  /**
   * x[1,16,64] -> q = x·wq + bq, k = x·wk -> kt = k transposed [1,64,16] -> s = q·kt [1,16,16]; l =
   * e·s with e[16,16] a weight on the left.
   */
  private static Graph attentionScores() {
    Graph.Builder b = Graph.builder("scores");
    b.input("x", DType.F32, 1, 16, 64);
    b.weight("wq", DType.F32, 64, 64);
    b.weight("bq", DType.F32, 64);
    b.weight("wk", DType.F32, 64, 64);
    b.weight("e", DType.F32, 16, 16);
    b.op("q", OpKind.MAT_MUL, Attributes.empty(), "x", "wq", "bq");
    b.op("k", OpKind.MAT_MUL, Attributes.empty(), "x", "wk");
    b.op("kt", OpKind.TRANSPOSE, Attributes.builder().put("perm", 0L, 2L, 1L).build(), "k");
    b.op("s", OpKind.MAT_MUL, Attributes.empty(), "q", "kt");
    b.op("l", OpKind.MAT_MUL, Attributes.empty(), "e", "s");
    return b.output("l").build();
  }

  @Test
  void onCv18xxInt8AMatMulIsInt8OnlyWhenItsRightOperandIsAWeight() {
    // MatMul.cpp, LoweringINT8: a right operand that is not a top::WeightOp goes LoweringBF16.
    Graph g = cv18(attentionScores(), Lowering.Quantize.INT8);
    assertThat(g.tensor("q").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("wq").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("bq").dtype()).isEqualTo(DType.I32);
    assertThat(g.tensor("k").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("s").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("s").bytes()).isEqualTo(16 * 16 * 2);
    // a weight on the left and an activation on the right: BF16 (bm1684x: F16)
    assertThat(g.tensor("l").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("e").dtype()).isEqualTo(DType.BF16);
    assertThat(lower(attentionScores(), Lowering.Quantize.INT8).tensor("l").dtype())
        .isEqualTo(DType.F16);
    // in BF16 mode every op is BF16 (no F16 or F32 path on CV18xx)
    Graph bf = cv18(attentionScores(), Lowering.Quantize.BF16);
    assertThat(bf.tensor("q").dtype()).isEqualTo(DType.BF16);
    assertThat(bf.tensor("l").dtype()).isEqualTo(DType.BF16);
  }

  /**
   * x[1,16,64]: r0 = Reshape(x); ln = LayerNorm(x); Transpose, Slice, Pad, Reshape and Unsqueeze of
   * ln (t, s, p, r, u).
   */
  private static Graph moves() {
    Graph.Builder b = Graph.builder("moves");
    b.input("x", DType.F32, 1, 16, 64);
    b.weight("g", DType.F32, 64);
    b.weight("beta", DType.F32, 64);
    b.op("r0", OpKind.RESHAPE, Attributes.builder().put("shape", 1L, 16L, 4L, 16L).build(), "x");
    b.op("ln", OpKind.LAYER_NORMALIZATION, Attributes.empty(), "x", "g", "beta");
    b.op("t", OpKind.TRANSPOSE, Attributes.builder().put("perm", 0L, 2L, 1L).build(), "ln");
    b.op(
        "s",
        OpKind.SLICE,
        Attributes.builder().put("axes", 1L).put("starts", 0L).put("ends", 8L).build(),
        "ln");
    b.op("p", OpKind.PAD, Attributes.builder().put("pads", 0L, 1L, 0L, 0L, 1L, 0L).build(), "ln");
    b.op("r", OpKind.RESHAPE, Attributes.builder().put("shape", 1L, 16L, 4L, 16L).build(), "ln");
    b.op("u", OpKind.UNSQUEEZE, Attributes.builder().put("axes", 0L).build(), "ln");
    for (String o : new String[] {"r0", "t", "s", "p", "r"}) {
      b.output(o);
    }
    return b.output("u").build();
  }

  @Test
  void onCv18xxInt8ATransposeIsInt8AfterABf16ProducerWhileAReshapeTakesItsInputsType() {
    // Permute.cpp: lowering_common_int8 (a cast is inserted before it); TopToTpuPass.cpp:
    // ForwardTypePattern<tpu::ReshapeOp> gives a Reshape its input's type, except after an input.
    Graph g = cv18(moves(), Lowering.Quantize.INT8);
    assertThat(g.tensor("ln").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("t").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("r").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("r0").dtype()).isEqualTo(DType.I8);
  }

  /** x, y[1,8,4,4] -> Add (or kind) of x and y, and of x and each weight shape given. */
  private static Graph binaries(OpKind kind, long[]... weights) {
    Graph.Builder b = Graph.builder("binaries");
    b.input("x", DType.F32, 1, 8, 4, 4);
    b.input("y", DType.F32, 1, 8, 4, 4);
    b.op("xy", kind, Attributes.empty(), "x", "y");
    for (int i = 0; i < weights.length; i++) {
      b.weight("w" + i, DType.F32, weights[i]);
      b.op("xw" + i, kind, Attributes.empty(), "x", "w" + i);
      b.output("xw" + i);
    }
    return b.output("xy").build();
  }

  private static final long[] SCALAR = {};
  private static final long[] PER_CHANNEL = {1, 8, 1, 1};
  private static final long[] FULL = {1, 8, 4, 4};

  @Test
  void onCv18xxInt8AnAddWithAWeightIsBf16UnlessThatWeightIsPerChannel() {
    // Add.cpp, LoweringINT8: a weight operand goes LoweringBF16 (a scalar one too: AddToAddConst,
    // then OptimizeCV18XX's ConvertAddConstOp makes it an Add with a weight again); a per-channel
    // weight is a Scale (Canonicalize/Add.cpp, AddToScale), a depthwise Conv (Scale.cpp): INT8.
    Graph g = cv18(binaries(OpKind.ADD, SCALAR, PER_CHANNEL, FULL), Lowering.Quantize.INT8);
    assertThat(g.tensor("xy").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("xw0").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("xw1").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("xw2").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("w2").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("xw2").bytes()).isEqualTo(8 * 4 * 4 * 2);
    // a per-channel weight on 5-D operands is a 3-D depthwise Conv: BF16
    Graph.Builder b = Graph.builder("add5d");
    b.input("x", DType.F32, 1, 8, 2, 4, 4);
    b.weight("w", DType.F32, 1, 8, 1, 1, 1);
    b.op("xw", OpKind.ADD, Attributes.empty(), "x", "w");
    assertThat(cv18(b.output("xw").build(), Lowering.Quantize.INT8).tensor("xw").dtype())
        .isEqualTo(DType.BF16);
  }

  @Test
  void onCv18xxInt8AMulByAScalarOrPerChannelWeightIsInt8AndByAnotherWeightBf16() {
    // Canonicalize/Mul.cpp: MulToMulConst (MulConst.cpp, an INT8 table), MulToScale (a depthwise
    // Conv); Mul.cpp, LoweringINT8: an operand 1 with no calibrated type (a weight) goes BF16.
    Graph g = cv18(binaries(OpKind.MUL, SCALAR, PER_CHANNEL, FULL), Lowering.Quantize.INT8);
    assertThat(g.tensor("xy").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("xw0").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("xw1").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("xw2").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("w2").dtype()).isEqualTo(DType.BF16);
  }

  @Test
  void onCv18xxInt8ASubIsInt8FromAScalarWeightOrBetweenActivationsAndBf16Otherwise() {
    // convert_sub_op: scalar - x is a SubConst (SubConst.cpp, an INT8 table); x - scalar an
    // AddConst, then an Add with a weight (BF16); Sub.cpp: a weight operand goes BF16.
    Graph.Builder b = Graph.builder("subs");
    b.input("x", DType.F32, 1, 8, 4, 4);
    b.input("y", DType.F32, 1, 8, 4, 4);
    b.constant("one", DType.F32);
    b.weight("w", DType.F32, 1, 8, 4, 4);
    b.op("xy", OpKind.SUB, Attributes.empty(), "x", "y");
    b.op("oneMinusX", OpKind.SUB, Attributes.empty(), "one", "x");
    b.op("xMinusOne", OpKind.SUB, Attributes.empty(), "x", "one");
    b.op("xMinusW", OpKind.SUB, Attributes.empty(), "x", "w");
    b.output("xy");
    b.output("oneMinusX");
    b.output("xMinusOne");
    Graph g = cv18(b.output("xMinusW").build(), Lowering.Quantize.INT8);
    assertThat(g.tensor("xy").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("oneMinusX").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("xMinusOne").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("xMinusW").dtype()).isEqualTo(DType.BF16);
  }

  /** x, y[1,8,4,4], a scalar constant: xy = x / y, xs = x / scale, sx = scale / x. */
  private static Graph divs() {
    Graph.Builder b = Graph.builder("divs");
    b.input("x", DType.F32, 1, 8, 4, 4);
    b.input("y", DType.F32, 1, 8, 4, 4);
    b.constant("scale", DType.F32);
    b.op("xy", OpKind.DIV, Attributes.empty(), "x", "y");
    b.op("xs", OpKind.DIV, Attributes.empty(), "x", "scale");
    b.op("sx", OpKind.DIV, Attributes.empty(), "scale", "x");
    b.output("xy");
    b.output("xs");
    return b.output("sx").build();
  }

  @Test
  void onCv18xxInt8ADivByAnActivationIsBf16AndByAWeightAnInt8MulConst() {
    // convert_div_op / ConvertDivOp: x / w is a MulConst (INT8 table), s / x with s a scalar a
    // Reciprocal with const_val (INT8 table); x / y a Reciprocal and a Mul, both left uncalibrated,
    // which Reciprocal.cpp and Mul.cpp send to BF16.
    Graph g = cv18(divs(), Lowering.Quantize.INT8);
    assertThat(g.tensor("xy").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("xs").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("sx").dtype()).isEqualTo(DType.I8);
  }

  /** x[1,16,64]: withCls = Concat(cls weight, x); both = Concat(LayerNorm(x), x). */
  private static Graph concats() {
    Graph.Builder b = Graph.builder("concats");
    b.input("x", DType.F32, 1, 16, 64);
    b.weight("cls", DType.F32, 1, 1, 64);
    b.weight("g", DType.F32, 64);
    b.weight("beta", DType.F32, 64);
    b.op("withCls", OpKind.CONCAT, Attributes.builder().put("axis", 1L).build(), "cls", "x");
    b.op("ln", OpKind.LAYER_NORMALIZATION, Attributes.empty(), "x", "g", "beta");
    b.op("both", OpKind.CONCAT, Attributes.builder().put("axis", 1L).build(), "ln", "x");
    b.output("withCls");
    return b.output("both").build();
  }

  @Test
  void onCv18xxInt8AConcatWithAWeightIsBf16AndOtherwiseInt8WhateverItsInputs() {
    // Concat.cpp, LoweringINT8: a weight operand goes LoweringBF16 (vit's class token); else INT8,
    // even when an input is BF16 (here a LayerNorm's result).
    Graph g = cv18(concats(), Lowering.Quantize.INT8);
    assertThat(g.tensor("withCls").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("cls").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("ln").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("both").dtype()).isEqualTo(DType.I8);
  }

  @Test
  void onCv18xxInt8AnEmbeddingGatherIsBf16AndAGatherOfAnActivationAtAConstantIndexInt8() {
    // Gather.cpp: LoweringINT8 calls LoweringBF16 (a CPU embedding op); OptimizeCV18XX.cpp,
    // ConvertGatherOp: a Gather of an activation at constant indices is a Slice (INT8).
    Graph.Builder b = Graph.builder("gathers");
    b.weight("table", DType.F32, 100, 16);
    b.input("ids", DType.I64, 1, 8);
    b.constant("first", DType.I64);
    b.op("emb", OpKind.GATHER, Attributes.empty(), "table", "ids");
    b.op("cls", OpKind.GATHER, Attributes.builder().put("axis", 1L).build(), "emb", "first");
    b.output("emb");
    Graph g = cv18(b.output("cls").build(), Lowering.Quantize.INT8);
    assertThat(g.tensor("emb").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("table").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("ids").dtype()).isEqualTo(DType.I64);
    assertThat(g.tensor("cls").dtype()).isEqualTo(DType.I8);
    // bm1684x: the embedding is F16 (Gather.cpp calls LoweringF16), the constant-index Gather a
    // Slice (Canonicalize/Gather.cpp, TopGatherToSlice): INT8
    Graph bm = lower(b.build(), Lowering.Quantize.INT8);
    assertThat(bm.tensor("emb").dtype()).isEqualTo(DType.F16);
    assertThat(bm.tensor("cls").dtype()).isEqualTo(DType.I8);
  }

  @Test
  void onCv18xxInt8AConvIsBf16WhenItsFilterIsAnActivationOrItsKernel3d() {
    // Conv.cpp, LoweringINT8: a filter that is not a weight, or a 3-D kernel, goes LoweringBF16.
    Graph.Builder b = Graph.builder("convs");
    b.input("x", DType.F32, 1, 4, 8, 8);
    b.input("f", DType.F32, 4, 4, 3, 3);
    b.weight("w", DType.F32, 4, 4, 3, 3);
    b.input("v", DType.F32, 1, 4, 2, 8, 8);
    b.weight("w3", DType.F32, 4, 4, 1, 1, 1);
    Attributes k2 = Attributes.builder().put("kernel_shape", 3L, 3L).build();
    b.op("byWeight", OpKind.CONV, k2, "x", "w");
    b.op("byInput", OpKind.CONV, k2, "x", "f");
    b.op(
        "conv3d",
        OpKind.CONV,
        Attributes.builder().put("kernel_shape", 1L, 1L, 1L).build(),
        "v",
        "w3");
    b.output("byWeight");
    b.output("byInput");
    Graph g = cv18(b.output("conv3d").build(), Lowering.Quantize.INT8);
    assertThat(g.tensor("byWeight").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("byInput").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("conv3d").dtype()).isEqualTo(DType.BF16);
  }

  @Test
  void onCv18xxInt8A3dAveragePoolAndAReduceL2AreBf16() {
    // AvgPool.cpp: a 3-D kernel goes LoweringBF16; Reduce.cpp: ReduceL2 goes LoweringBF16.
    Graph.Builder b = Graph.builder("pools");
    b.input("x", DType.F32, 1, 4, 8, 8);
    b.input("v", DType.F32, 1, 4, 2, 8, 8);
    b.op("gap", OpKind.GLOBAL_AVERAGE_POOL, Attributes.empty(), "x");
    b.op("gap3d", OpKind.GLOBAL_AVERAGE_POOL, Attributes.empty(), "v");
    Attributes axes = Attributes.builder().put("axes", 2L, 3L).build();
    b.op("mean", OpKind.REDUCE_MEAN, axes, "x");
    b.op("l2", OpKind.REDUCE_L2, axes, "x");
    b.output("gap");
    b.output("gap3d");
    b.output("mean");
    Graph g = cv18(b.output("l2").build(), Lowering.Quantize.INT8);
    assertThat(g.tensor("gap").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("gap3d").dtype()).isEqualTo(DType.BF16);
    assertThat(g.tensor("mean").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("l2").dtype()).isEqualTo(DType.BF16);
  }

  // BM168x: TPU-MLIR's BM1684X lowering, lib/Conversion/TopToTpu/BM1684X/*.cpp (Bm168xLowering).

  private static Graph bm(Graph g, String chip, Lowering.Quantize q) {
    return Lowering.apply(g, Chips.get(chip), q);
  }

  private static DType dtype(Graph g, String chip, Lowering.Quantize q, String tensor) {
    return bm(g, chip, q).tensor(tensor).dtype();
  }

  @Test
  void onBm1684xInt8TransposeSlicePadAreInt8AfterAnF16ProducerWhileShapeOpsForwardTheirInputType() {
    // Permute.cpp, Slice.cpp, Pad.cpp: lowering_common_int8 whatever the input's type (the
    // LayerNorm's F16); TopToTpuPass.cpp: ForwardTypePattern<tpu::ReshapeOp> (and Unsqueeze) gives
    // the result its input's type, the graph input's F32 too (no CV18xx exception here).
    Graph g = bm(moves(), "bm1684x", Lowering.Quantize.INT8);
    assertThat(g.tensor("ln").dtype()).isEqualTo(DType.F16);
    assertThat(g.tensor("t").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("s").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("p").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("r").dtype()).isEqualTo(DType.F16);
    assertThat(g.tensor("u").dtype()).isEqualTo(DType.F16);
    // the Reshape of the input keeps F32 (16·64·4 bytes), and so does the input it reads
    assertThat(g.tensor("r0").dtype()).isEqualTo(DType.F32);
    assertThat(g.tensor("r0").bytes()).isEqualTo(4096);
    assertThat(g.tensor("x").dtype()).isEqualTo(DType.F32);
  }

  @Test
  void onBm1684xInt8AConcatIsInt8WhateverItsInputsAndF16WithAWeightOperand() {
    // Concat.cpp, ConcatLowering::LoweringINT8: a weight operand calls LoweringF16 (ViT's class
    // token, cloned to F16; LoweringBF16 on MARS3 and SGTPUV8); otherwise an INT8 Concat, even of
    // a LayerNorm's F16 result.
    Graph g = bm(concats(), "bm1684x", Lowering.Quantize.INT8);
    assertThat(g.tensor("withCls").dtype()).isEqualTo(DType.F16);
    assertThat(g.tensor("withCls").bytes()).isEqualTo(17 * 64 * 2);
    assertThat(g.tensor("cls").dtype()).isEqualTo(DType.F16);
    assertThat(g.tensor("ln").dtype()).isEqualTo(DType.F16);
    assertThat(g.tensor("both").dtype()).isEqualTo(DType.I8);
    assertThat(dtype(concats(), "sgtpuv8", Lowering.Quantize.INT8, "withCls"))
        .isEqualTo(DType.BF16);
  }

  /** x[1,8,4,4] -> Relu -> y, then {@code kind}(y) for each kind, each an output. */
  private static Graph unaries(OpKind... kinds) {
    Graph.Builder b = Graph.builder("unaries");
    b.input("x", DType.F32, 1, 8, 4, 4);
    b.op("y", OpKind.RELU, Attributes.empty(), "x");
    for (OpKind k : kinds) {
      b.op(k.name().toLowerCase(java.util.Locale.ROOT), k, Attributes.empty(), "y");
      b.output(k.name().toLowerCase(java.util.Locale.ROOT));
    }
    return b.build();
  }

  @Test
  void onBm1684xTheActivationsAreInt8TablesAndSomeStayF32InBf16AndF16() {
    // Sigmoid.cpp, Sqrt.cpp: BF16/F16 call lowering_common_f32; SiLU.cpp: LoweringF32 off
    // BM1690; Tanh.cpp: F32 in both; HardSigmoid.cpp: BF16 in BF16, F32 in F16; HardSwish.cpp:
    // the mode's type; every INT8 lowering an INT8 LutOp.
    Graph g =
        unaries(
            OpKind.SIGMOID,
            OpKind.SQRT,
            OpKind.SILU,
            OpKind.TANH,
            OpKind.HARD_SIGMOID,
            OpKind.HARD_SWISH);
    Graph bf = bm(g, "bm1684x", Lowering.Quantize.BF16);
    Graph f16 = bm(g, "bm1684x", Lowering.Quantize.F16);
    Graph i8 = bm(g, "bm1684x", Lowering.Quantize.INT8);
    for (String t : new String[] {"sigmoid", "sqrt", "silu", "tanh"}) {
      assertThat(bf.tensor(t).dtype()).as(t).isEqualTo(DType.F32);
      assertThat(f16.tensor(t).dtype()).as(t).isEqualTo(DType.F32);
      assertThat(i8.tensor(t).dtype()).as(t).isEqualTo(DType.I8);
    }
    assertThat(bf.tensor("sigmoid").bytes()).isEqualTo(8 * 4 * 4 * 4);
    assertThat(bf.tensor("hard_sigmoid").dtype()).isEqualTo(DType.BF16);
    assertThat(f16.tensor("hard_sigmoid").dtype()).isEqualTo(DType.F32);
    assertThat(bf.tensor("hard_swish").dtype()).isEqualTo(DType.BF16);
    assertThat(f16.tensor("hard_swish").dtype()).isEqualTo(DType.F16);
    assertThat(i8.tensor("hard_sigmoid").dtype()).isEqualTo(DType.I8);
    // BM1690: SiLU has BF16 and F16 paths; Sigmoid does not
    assertThat(dtype(g, "bm1690", Lowering.Quantize.BF16, "silu")).isEqualTo(DType.BF16);
    assertThat(dtype(g, "bm1690", Lowering.Quantize.F16, "silu")).isEqualTo(DType.F16);
    assertThat(dtype(g, "bm1690", Lowering.Quantize.F16, "sigmoid")).isEqualTo(DType.F32);
  }

  @Test
  void onCv184xF16LowersAsBf16AndTheF32FallbacksOfMars3AndSgtpuv8AreBf16() {
    // TopLowering.h, getOpQuantMode: F16 is BF16 on MARS3 (cv184x); Sigmoid.cpp and SiLU.cpp:
    // LoweringF32 is lowering_common_bf16 on MARS3 and SGTPUV8; Tanh.cpp's LoweringF16 is F32.
    Graph g = unaries(OpKind.SIGMOID, OpKind.SILU, OpKind.TANH, OpKind.HARD_SWISH);
    Graph mars = bm(g, "cv184x", Lowering.Quantize.F16);
    for (String t : new String[] {"y", "sigmoid", "silu", "tanh", "hard_swish"}) {
      assertThat(mars.tensor(t).dtype()).as(t).isEqualTo(DType.BF16);
    }
    Graph v8 = bm(g, "sgtpuv8", Lowering.Quantize.F16);
    assertThat(v8.tensor("y").dtype()).isEqualTo(DType.F16);
    assertThat(v8.tensor("sigmoid").dtype()).isEqualTo(DType.BF16);
    assertThat(v8.tensor("silu").dtype()).isEqualTo(DType.BF16);
    assertThat(v8.tensor("tanh").dtype()).isEqualTo(DType.F32);
  }

  @Test
  void onBm1684xGeluStaysF32OnlyThereAndLayerNormInBf16IsF32OnBm1688AndSg2380() {
    // GELU.cpp at 16232af4db: isBM1684X() only (BM1690 has BF16 and F16 paths); LayerNorm.cpp at
    // 7fae13f11d: BF16 is F32 on BM1688 and SG2380, INT8 is F16 but BF16 on MARS3 and SGTPUV8.
    Graph g = transformerish(-1);
    assertThat(dtype(g, "bm1684x", Lowering.Quantize.BF16, "gelu")).isEqualTo(DType.F32);
    assertThat(dtype(g, "bm1690", Lowering.Quantize.BF16, "gelu")).isEqualTo(DType.BF16);
    assertThat(dtype(g, "bm1690", Lowering.Quantize.F16, "gelu")).isEqualTo(DType.F16);
    assertThat(dtype(g, "sg2380", Lowering.Quantize.BF16, "ln")).isEqualTo(DType.F32);
    assertThat(dtype(g, "bm1688", Lowering.Quantize.BF16, "ln")).isEqualTo(DType.F32);
    assertThat(dtype(g, "bm1690", Lowering.Quantize.BF16, "ln")).isEqualTo(DType.BF16);
    assertThat(dtype(g, "bm1684x", Lowering.Quantize.INT8, "ln")).isEqualTo(DType.F16);
    assertThat(dtype(g, "sgtpuv8", Lowering.Quantize.INT8, "ln")).isEqualTo(DType.BF16);
    // MatMul.cpp: a weight on the left goes LoweringF16, LoweringBF16 on MARS3 and SGTPUV8
    assertThat(dtype(attentionScores(), "sgtpuv8", Lowering.Quantize.INT8, "l"))
        .isEqualTo(DType.BF16);
    assertThat(dtype(attentionScores(), "bm1684x", Lowering.Quantize.INT8, "l"))
        .isEqualTo(DType.F16);
  }

  @Test
  void onBm1684xAnInt8SoftmaxOffAxis1IsF16UnlessItsAxisIsTooLongThenF32() {
    // Softmax.cpp: LoweringINT8 off axis 1 calls LoweringF16, which calls LoweringF32 when the
    // axis is longer than LMEM_BANK_BYTES / 2 = 16384 / 2 = 8192 on bm1684x.
    Graph.Builder b = Graph.builder("softmax");
    b.input("x", DType.F32, 1, 2, 8200);
    b.input("z", DType.F32, 1, 2, 8000);
    b.op("long", OpKind.SOFTMAX, Attributes.builder().put("axis", -1L).build(), "x");
    b.op("short", OpKind.SOFTMAX, Attributes.builder().put("axis", -1L).build(), "z");
    b.output("long");
    Graph g = bm(b.output("short").build(), "bm1684x", Lowering.Quantize.INT8);
    assertThat(g.tensor("long").dtype()).isEqualTo(DType.F32);
    assertThat(g.tensor("long").bytes()).isEqualTo(2 * 8200 * 4);
    assertThat(g.tensor("short").dtype()).isEqualTo(DType.F16);
  }

  @Test
  void onBm1684xTheAveragePoolsAreF32InF16AndAReduceMeanOverHwIsOne() {
    // AvgPool.cpp at f3632a4c01: LoweringF16 calls LoweringF32; Canonicalize/Reduce.cpp,
    // ReduceToRPoolPattern: a 4-D ReduceMean (ReduceMax) over axes 2, 3 is an AvgPool (MaxPool);
    // Reduce.cpp: any other reduction goes LoweringF16 in INT8.
    Graph.Builder b = Graph.builder("pools");
    b.input("x", DType.F32, 1, 8, 4, 4);
    b.op("y", OpKind.RELU, Attributes.empty(), "x");
    b.op("gap", OpKind.GLOBAL_AVERAGE_POOL, Attributes.empty(), "y");
    b.op("meanHw", OpKind.REDUCE_MEAN, Attributes.builder().put("axes", -2L, -1L).build(), "y");
    b.op("maxHw", OpKind.REDUCE_MAX, Attributes.builder().put("axes", 2L, 3L).build(), "y");
    b.op("meanC", OpKind.REDUCE_MEAN, Attributes.builder().put("axes", 1L).build(), "y");
    for (String o : new String[] {"gap", "meanHw", "maxHw"}) {
      b.output(o);
    }
    Graph g = b.output("meanC").build();
    Graph f16 = bm(g, "bm1684x", Lowering.Quantize.F16);
    assertThat(f16.tensor("gap").dtype()).isEqualTo(DType.F32);
    assertThat(f16.tensor("gap").bytes()).isEqualTo(8 * 4);
    assertThat(f16.tensor("meanHw").dtype()).isEqualTo(DType.F32);
    assertThat(f16.tensor("maxHw").dtype()).isEqualTo(DType.F16);
    assertThat(f16.tensor("meanC").dtype()).isEqualTo(DType.F16);
    assertThat(dtype(g, "bm1684x", Lowering.Quantize.BF16, "gap")).isEqualTo(DType.BF16);
    Graph i8 = bm(g, "bm1684x", Lowering.Quantize.INT8);
    assertThat(i8.tensor("gap").dtype()).isEqualTo(DType.I8);
    assertThat(i8.tensor("meanHw").dtype()).isEqualTo(DType.I8);
    assertThat(i8.tensor("maxHw").dtype()).isEqualTo(DType.I8);
    assertThat(i8.tensor("meanC").dtype()).isEqualTo(DType.F16);
  }

  @Test
  void onBm1684xAReductionKeepingItsElementsIsAReshapeThatForwardsItsInputType() {
    // Canonicalize/Reduce.cpp, ReduceToReshapePattern: a ReduceSum over a unit axis is a Reshape;
    // in BF16 it forwards the GELU's F32 (GELU.cpp: F32 on BM1684X), where a ReduceSum is BF16.
    Graph.Builder b = Graph.builder("reduce");
    b.input("x", DType.F32, 1, 8, 4, 4);
    b.op("gelu", OpKind.GELU, Attributes.empty(), "x");
    b.op("unit", OpKind.REDUCE_SUM, Attributes.builder().put("axes", 0L).build(), "gelu");
    b.op("sum", OpKind.REDUCE_SUM, Attributes.builder().put("axes", 1L).build(), "gelu");
    b.output("unit");
    Graph g = bm(b.output("sum").build(), "bm1684x", Lowering.Quantize.BF16);
    assertThat(g.tensor("unit").dtype()).isEqualTo(DType.F32);
    assertThat(g.tensor("sum").dtype()).isEqualTo(DType.BF16);
  }

  @Test
  void onBm1684xADivByAnActivationIsF32AndByAScalarAnInt8MulConst() {
    // OnnxConverter.py, convert_div_op: x / scalar is a MulConst (INT8), scalar / x a Reciprocal
    // (an INT8 table; Reciprocal.cpp: F32 in F16); Div.cpp: x / y is F32 on BM1684X in every mode,
    // F16 on BM1688 in F16.
    Graph g = divs();
    Graph i8 = bm(g, "bm1684x", Lowering.Quantize.INT8);
    assertThat(i8.tensor("xy").dtype()).isEqualTo(DType.F32);
    assertThat(i8.tensor("xs").dtype()).isEqualTo(DType.I8);
    assertThat(i8.tensor("sx").dtype()).isEqualTo(DType.I8);
    Graph f16 = bm(g, "bm1684x", Lowering.Quantize.F16);
    assertThat(f16.tensor("xy").dtype()).isEqualTo(DType.F32);
    assertThat(f16.tensor("xs").dtype()).isEqualTo(DType.F16);
    assertThat(f16.tensor("sx").dtype()).isEqualTo(DType.F32);
    assertThat(dtype(g, "bm1688", Lowering.Quantize.F16, "xy")).isEqualTo(DType.F16);
  }

  @Test
  void onBm1684xANearestResizeByTwoIsAnInt8UpsampleAndALinearOneF16() {
    // Canonicalize/Interp.cpp, InterpToUpsampleMergePattern: nearest, one use, H and W by one
    // integer factor: an Upsample (Upsample.cpp, INT8); Interp.cpp: LoweringINT8 is F16. A nearest
    // Resize with two uses stays an Interp.
    Graph.Builder b = Graph.builder("resizes");
    b.input("x", DType.F32, 1, 8, 4, 4);
    Attributes nearest =
        Attributes.builder().put("mode", "nearest").put("scales", 1.0, 1.0, 2.0, 2.0).build();
    b.op("up", OpKind.RESIZE, nearest, "x");
    b.op(
        "lin",
        OpKind.RESIZE,
        Attributes.builder().put("mode", "linear").put("scales", 1.0, 1.0, 2.0, 2.0).build(),
        "x");
    b.op("twice", OpKind.RESIZE, nearest, "x");
    b.op("a", OpKind.RELU, Attributes.empty(), "twice");
    b.op("c", OpKind.RELU, Attributes.empty(), "twice");
    b.output("up");
    b.output("lin");
    b.output("a");
    Graph g = bm(b.output("c").build(), "bm1684x", Lowering.Quantize.INT8);
    assertThat(g.tensor("up").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("lin").dtype()).isEqualTo(DType.F16);
    assertThat(g.tensor("lin").bytes()).isEqualTo(8 * 8 * 8 * 2);
    assertThat(g.tensor("twice").dtype()).isEqualTo(DType.F16);
  }

  @Test
  void onBm1684xAnInt8ClipIsF16UnlessItIsAReluAndAnLstmIsF32InEveryMode() {
    // OnnxConverter.py, convert_clip_op: Clip(0, 6) is a ReLU (INT8); Clip.cpp: LoweringINT8 calls
    // LoweringF16 ("nodechip fix8b to be implemented"); LSTM.cpp: every mode lowers as F32.
    Graph.Builder b = Graph.builder("clips");
    b.input("x", DType.F32, 1, 8, 4, 4);
    b.input("s", DType.F32, 5, 1, 10);
    b.weight("w", DType.F32, 1, 16, 10);
    b.weight("r", DType.F32, 1, 16, 4);
    b.op("relu6", OpKind.CLIP, Attributes.builder().put("min", 0.0).put("max", 6.0).build(), "x");
    b.op("clip", OpKind.CLIP, Attributes.builder().put("min", -1.0).put("max", 1.0).build(), "x");
    b.op("lstm", OpKind.LSTM, Attributes.empty(), "s", "w", "r");
    b.output("relu6");
    b.output("clip");
    Graph g = b.output("lstm").build();
    Graph i8 = bm(g, "bm1684x", Lowering.Quantize.INT8);
    assertThat(i8.tensor("relu6").dtype()).isEqualTo(DType.I8);
    assertThat(i8.tensor("clip").dtype()).isEqualTo(DType.F16);
    assertThat(i8.tensor("lstm").dtype()).isEqualTo(DType.F32);
    assertThat(i8.tensor("w").dtype()).isEqualTo(DType.F32);
    assertThat(dtype(g, "bm1684x", Lowering.Quantize.BF16, "lstm")).isEqualTo(DType.F32);
  }

  @Test
  void onBm1684xAnInt8ConvOrConvTransposeWithAnActivationFilterIsF32() {
    // Conv.cpp, Deconv.cpp: LoweringINT8 with a filter that is not a weight calls LoweringF32
    // (Conv: BF16 on MARS3 and SGTPUV8); with a weight filter an INT8 op.
    Graph.Builder b = Graph.builder("convs");
    b.input("x", DType.F32, 1, 4, 8, 8);
    b.input("f", DType.F32, 4, 4, 3, 3);
    b.weight("w", DType.F32, 4, 4, 3, 3);
    Attributes k3 = Attributes.builder().put("kernel_shape", 3L, 3L).build();
    b.op("byWeight", OpKind.CONV, k3, "x", "w");
    b.op("byInput", OpKind.CONV, k3, "x", "f");
    b.op("upByWeight", OpKind.CONV_TRANSPOSE, k3, "x", "w");
    b.op("upByInput", OpKind.CONV_TRANSPOSE, k3, "x", "f");
    for (String o : new String[] {"byWeight", "byInput", "upByWeight"}) {
      b.output(o);
    }
    Graph g = b.output("upByInput").build();
    Graph i8 = bm(g, "bm1684x", Lowering.Quantize.INT8);
    assertThat(i8.tensor("byWeight").dtype()).isEqualTo(DType.I8);
    assertThat(i8.tensor("byInput").dtype()).isEqualTo(DType.F32);
    assertThat(i8.tensor("upByWeight").dtype()).isEqualTo(DType.I8);
    assertThat(i8.tensor("upByInput").dtype()).isEqualTo(DType.F32);
    assertThat(dtype(g, "cv184x", Lowering.Quantize.INT8, "byInput")).isEqualTo(DType.BF16);
    assertThat(dtype(g, "bm1684x", Lowering.Quantize.F16, "upByInput")).isEqualTo(DType.F32);
  }

  @Test
  void anUnknownValueFailsWithOneLineNamingTheAllowedOnes() {
    assertThat(Lowering.Quantize.parse("int8")).isEqualTo(Lowering.Quantize.INT8);
    assertThatThrownBy(() -> Lowering.Quantize.parse("INT4"))
        .hasMessage("unknown --quantize value 'INT4' (allowed: F32, BF16, F16, INT8)");
  }
}
