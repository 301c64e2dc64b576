package io.github.memplan.core.frontend;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link OnnxOpt}'s patterns on graphs laid out as torch exports them. */
class OnnxOptTest {
  private static final Attributes LAST = Attributes.builder().put("axes", new long[] {-1}).build();

  private static Graph opt(Graph g) {
    return FrontEnd.apply(
        g, Chips.get("bm1684x"), new FrontEnd.Options(EnumSet.of(FrontEnd.Pass.ONNX_OPT)));
  }

  /** x [1, 4, 8], then torch's LayerNorm as exported (nine ops), then a Relu reading it. */
  private static Graph.Builder layerNorm(boolean affine, Attributes axes) {
    Graph.Builder b = Graph.builder("ln");
    b.input("x", DType.F32, 1, 4, 8);
    for (String c : new String[] {"two", "eps"}) {
      b.constant(c, DType.F32);
    }
    b.weight("gamma", DType.F32, 8);
    b.weight("beta", DType.F32, 8);
    b.op("mean", OpKind.REDUCE_MEAN, axes, "x");
    b.op("sub", OpKind.SUB, Attributes.empty(), "x", "mean");
    b.op("pow", OpKind.POW, Attributes.empty(), "sub", "two");
    b.op("var", OpKind.REDUCE_MEAN, axes, "pow");
    b.op("add", OpKind.ADD, Attributes.empty(), "eps", "var");
    b.op("sqrt", OpKind.SQRT, Attributes.empty(), "add");
    b.op("div", OpKind.DIV, Attributes.empty(), "sub", "sqrt");
    String last = "div";
    if (affine) {
      b.op("mul", OpKind.MUL, Attributes.empty(), "div", "gamma");
      b.op("ln", OpKind.ADD, Attributes.empty(), "beta", "mul");
      last = "ln";
    }
    b.op("relu", OpKind.RELU, Attributes.empty(), last);
    return b.output("relu");
  }

  @Test
  void torchLayerNormBecomesOneLayerNormalizationWithItsAffineParameters() {
    Graph f = opt(layerNorm(true, LAST).build());
    assertThat(f.ops()).hasSize(2);
    Op ln = f.ops().get(0);
    assertThat(ln.kind()).isEqualTo(OpKind.LAYER_NORMALIZATION);
    assertThat(ln.name()).isEqualTo("ln");
    assertThat(ln.inputs()).containsExactly("x", "gamma", "beta");
    assertThat(ln.attributes().getInt("axis", 0)).isEqualTo(-1);
    // the constants 2 and eps leave with the ops that read them
    assertThat(f.tensors()).doesNotContainKeys("two", "eps", "mean", "sub", "div");
  }

  @Test
  void withoutMulAndAddItIsALayerNormWithoutAffine() {
    Graph f = opt(layerNorm(false, LAST).build());
    assertThat(f.ops())
        .extracting(Op::kind)
        .containsExactly(OpKind.LAYER_NORMALIZATION, OpKind.RELU);
    assertThat(f.ops().get(0).inputs()).containsExactly("x");
    assertThat(f.ops().get(0).name()).isEqualTo("div");
  }

  @Test
  void axesThatDoNotEndAtMinusOneDoNotMatch() {
    Graph g = layerNorm(true, Attributes.builder().put("axes", new long[] {2}).build()).build();
    assertThat(opt(g)).isSameAs(g);
  }

  /**
   * torch's erf GELU of x [1, 8] as exported (Div, Erf, Add, Mul, Mul), with an unrelated Relu of y
   * between Erf and Add when {@code gap}; the GELU's output is "gelu".
   */
  private static Graph.Builder gelu(boolean gap) {
    Graph.Builder b = Graph.builder("gelu");
    b.input("x", DType.F32, 1, 8);
    b.input("y", DType.F32, 1, 8);
    b.constant("c", DType.F32);
    b.constant("one", DType.F32);
    b.constant("half", DType.F32);
    b.op("div", OpKind.DIV, Attributes.empty(), "x", "c");
    b.op("erf", OpKind.ERF, Attributes.empty(), "div");
    if (gap) {
      b.op("other", OpKind.RELU, Attributes.empty(), "y");
      b.output("other");
    }
    b.op("add", OpKind.ADD, Attributes.empty(), "one", "erf");
    b.op("mul", OpKind.MUL, Attributes.empty(), "add", "x");
    b.op("gelu", OpKind.MUL, Attributes.empty(), "half", "mul");
    return b.output("gelu");
  }

  @Test
  void anOpBetweenThePatternsOpsBreaksTheMatchAsInReForm() {
    // ReForm matches runs of consecutive nodes: an unrelated op inside the chain stops it
    Graph g = gelu(true).build();
    assertThat(opt(g)).isSameAs(g);
  }

  @Test
  void erfGeluBecomesGeluAndAnOutsideReaderOfAnIntermediateKeepsTheChain() {
    Graph f = opt(gelu(false).build());
    assertThat(f.ops())
        .singleElement()
        .satisfies(
            o -> {
              assertThat(o.kind()).isEqualTo(OpKind.GELU);
              assertThat(o.inputs()).containsExactly("x");
              assertThat(o.outputs()).containsExactly("gelu");
            });
    Graph g = gelu(false).output("erf").build();
    assertThat(opt(g)).isSameAs(g);
  }

  @Test
  void hardSwishFromAddClipMulDivAndFromHardSigmoidMul() {
    Graph.Builder b = Graph.builder("hswish");
    b.input("x", DType.F32, 1, 8);
    b.constant("three", DType.F32);
    b.constant("six", DType.F32);
    b.op("add", OpKind.ADD, Attributes.empty(), "x", "three");
    b.op("clip", OpKind.CLIP, Attributes.builder().put("min", 0.0).put("max", 6.0).build(), "add");
    b.op("mul", OpKind.MUL, Attributes.empty(), "x", "clip");
    b.op("hs", OpKind.DIV, Attributes.empty(), "mul", "six");
    b.op(
        "hsig",
        OpKind.HARD_SIGMOID,
        Attributes.builder().put("alpha", (double) (1 / 6f)).put("beta", 0.5).build(),
        "hs");
    b.op("hs2", OpKind.MUL, Attributes.empty(), "hsig", "hs");
    Graph f = opt(b.output("hs2").build());
    assertThat(f.ops()).extracting(Op::kind).containsExactly(OpKind.HARD_SWISH, OpKind.HARD_SWISH);
    assertThat(f.ops()).extracting(Op::name).isEqualTo(List.of("hs", "hs2"));
  }
}
