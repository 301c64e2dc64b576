package io.github.memplan.core.frontend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.cost.RooflineCostModel;
import io.github.memplan.core.group.Nchw;
import io.github.memplan.core.group.OpSemantics;
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
  void integerTensorsKeepTheirType() {
    Graph.Builder b = Graph.builder("gather");
    b.weight("table", DType.F32, 100, 16);
    b.input("ids", DType.I64, 1, 8);
    b.op("emb", OpKind.GATHER, Attributes.empty(), "table", "ids");
    Graph g = lower(b.output("emb").build(), Lowering.Quantize.INT8);
    assertThat(g.tensor("ids").dtype()).isEqualTo(DType.I64);
    assertThat(g.tensor("emb").dtype()).isEqualTo(DType.I8);
    assertThat(g.tensor("table").dtype()).isEqualTo(DType.I8);
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

  @Test
  void anUnknownValueFailsWithOneLineNamingTheAllowedOnes() {
    assertThat(Lowering.Quantize.parse("int8")).isEqualTo(Lowering.Quantize.INT8);
    assertThatThrownBy(() -> Lowering.Quantize.parse("INT4"))
        .hasMessage("unknown --quantize value 'INT4' (allowed: F32, BF16, F16, INT8)");
  }
}
