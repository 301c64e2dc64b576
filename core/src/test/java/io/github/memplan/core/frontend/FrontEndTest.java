package io.github.memplan.core.frontend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each pass on small hand-built graphs, worked out by hand from the pattern's conditions. */
class FrontEndTest {
  private static final Attributes CONV3 =
      Attributes.builder().put("kernel_shape", 3L, 3L).put("pads", 1L, 1L, 1L, 1L).build();

  /** x -> conv (8 -> 8, 3x3, no bias) -> ...; the conv's output is named "conv". */
  private static Graph.Builder convInput(String name) {
    Graph.Builder b = Graph.builder(name);
    b.input("x", DType.F32, 1, 8, 4, 4);
    b.weight("w", DType.F32, 8, 8, 3, 3);
    b.op("conv", OpKind.CONV, CONV3, "x", "w");
    return b;
  }

  private static void bn(Graph.Builder b, String name, String x) {
    b.weight(name + ".scale", DType.F32, 8);
    b.weight(name + ".B", DType.F32, 8);
    b.constant(name + ".mean", DType.F32, 8);
    b.constant(name + ".var", DType.F32, 8);
    b.op(
        name,
        OpKind.BATCH_NORMALIZATION,
        Attributes.builder().put("epsilon", 1e-5).build(),
        x,
        name + ".scale",
        name + ".B",
        name + ".mean",
        name + ".var");
  }

  private static final Chip BM1684X = Chips.get("bm1684x");

  private static Graph only(Graph g, FrontEnd.Pass p) {
    return FrontEnd.apply(g, BM1684X, new FrontEnd.Options(EnumSet.of(p)));
  }

  private static List<String> kinds(Graph g) {
    return g.ops().stream().map(o -> o.kind().onnxName()).toList();
  }

  @Test
  void batchNormFoldsIntoASingleUseConvAndItsBiasBecomesTheConvBias() {
    Graph.Builder b = convInput("bn");
    bn(b, "bn", "conv");
    b.op("relu", OpKind.RELU, Attributes.empty(), "bn");
    Graph g = b.output("relu").build();

    Graph f = only(g, FrontEnd.Pass.BN_TO_CONV);

    assertThat(kinds(f)).containsExactly("Conv", "Relu");
    Op conv = f.ops().get(0);
    // named after the BatchNorm (the Scale's loc), defining its output, bias = BN's B
    assertThat(conv.name()).isEqualTo("bn");
    assertThat(conv.inputs()).containsExactly("x", "w", "bn.B");
    assertThat(conv.outputs()).containsExactly("bn");
    // scale, mean and var leave: 4 x 8 floats of BN become the conv's 8-float bias
    assertThat(f.tensors()).doesNotContainKeys("bn.scale", "bn.mean", "bn.var", "conv");
    assertThat(g.storedBytes() - f.storedBytes()).isEqualTo(3 * 8 * 4);
    assertThat(f.parameterCount()).isEqualTo(g.parameterCount() - 8);
  }

  @Test
  void aConvWithItsOwnBiasKeepsItAndTheBatchNormBiasLeaves() {
    Graph.Builder b = Graph.builder("bias");
    b.input("x", DType.F32, 1, 8, 4, 4);
    b.weight("w", DType.F32, 8, 8, 3, 3);
    b.weight("cb", DType.F32, 8);
    b.op("conv", OpKind.CONV, CONV3, "x", "w", "cb");
    bn(b, "bn", "conv");
    Graph f = only(b.output("bn").build(), FrontEnd.Pass.BN_TO_CONV);
    assertThat(f.ops())
        .singleElement()
        .satisfies(o -> assertThat(o.inputs()).containsExactly("x", "w", "cb"));
    assertThat(f.tensors()).doesNotContainKey("bn.B");
  }

  @Test
  void batchNormStaysWhenTheConvHasTwoUsesOrIsAGraphOutput() {
    Graph.Builder b = convInput("two");
    bn(b, "bn", "conv");
    b.op("add", OpKind.ADD, Attributes.empty(), "bn", "conv");
    Graph g = b.output("add").build();
    assertThat(only(g, FrontEnd.Pass.BN_TO_CONV)).isSameAs(g);

    Graph.Builder o = convInput("out");
    bn(o, "bn", "conv");
    Graph g2 = o.output("bn").output("conv").build();
    assertThat(kinds(only(g2, FrontEnd.Pass.BN_TO_CONV)))
        .containsExactly("Conv", "BatchNormalization");
  }

  @Test
  void reluFusesIntoASingleUseProducerAndTakesItsName() {
    Graph.Builder b = convInput("relu");
    b.op("relu", OpKind.RELU, Attributes.empty(), "conv");
    Graph f = only(b.output("relu").build(), FrontEnd.Pass.FUSE_RELU);
    Op conv = f.ops().get(0);
    assertThat(f.ops()).hasSize(1);
    assertThat(conv.kind()).isEqualTo(OpKind.CONV);
    assertThat(conv.name()).isEqualTo("relu");
    assertThat(conv.outputs()).containsExactly("relu");
    assertThat(FrontEnd.doRelu(conv)).isTrue();
    assertThat(conv.attributes().getFloat(FrontEnd.RELU_LIMIT, 0)).isEqualTo(-1.0);
  }

  @Test
  void reluIsNotFusedWhenTheConvHasTwoUsers() {
    Graph.Builder b = convInput("two");
    b.op("relu", OpKind.RELU, Attributes.empty(), "conv");
    b.op("add", OpKind.ADD, Attributes.empty(), "relu", "conv");
    Graph g = b.output("add").build();
    assertThat(only(g, FrontEnd.Pass.FUSE_RELU)).isSameAs(g);
  }

  @Test
  void reluIsNotFusedIntoOpsWithoutSupportFuseRelu() {
    Graph.Builder b = Graph.builder("concat");
    b.input("x", DType.F32, 1, 8, 4, 4);
    b.input("y", DType.F32, 1, 8, 4, 4);
    b.op("cat", OpKind.CONCAT, Attributes.builder().put("axis", 1L).build(), "x", "y");
    b.op("relu", OpKind.RELU, Attributes.empty(), "cat");
    b.op("div", OpKind.DIV, Attributes.empty(), "relu", "relu");
    b.op("relu2", OpKind.RELU, Attributes.empty(), "div");
    Graph g = b.output("relu2").build();
    assertThat(only(g, FrontEnd.Pass.FUSE_RELU)).isSameAs(g);
  }

  @Test
  void aDivByAScalarConstantIsAMulConstAndTakesTheRelu() {
    Graph.Builder b = Graph.builder("div");
    b.input("x", DType.F32, 1, 8);
    b.constant("two", DType.F32, 1);
    b.op("div", OpKind.DIV, Attributes.empty(), "x", "two");
    b.op("relu", OpKind.RELU, Attributes.empty(), "div");
    Graph f = only(b.output("relu").build(), FrontEnd.Pass.FUSE_RELU);
    assertThat(kinds(f)).containsExactly("Div");
    assertThat(FrontEnd.doRelu(f.ops().get(0))).isTrue();
  }

  @Test
  void clipToZeroSixIsAReluWithLimitSixButOtherClipsAreNot() {
    Graph.Builder b = convInput("relu6");
    b.op(
        "relu6", OpKind.CLIP, Attributes.builder().put("min", 0.0).put("max", 6.0).build(), "conv");
    b.op("add", OpKind.ADD, Attributes.empty(), "relu6", "relu6");
    b.op("clip", OpKind.CLIP, Attributes.builder().put("min", -1.0).put("max", 1.0).build(), "add");
    Graph f = only(b.output("clip").build(), FrontEnd.Pass.FUSE_RELU);
    assertThat(kinds(f)).containsExactly("Conv", "Add", "Clip");
    assertThat(f.ops().get(0).attributes().getFloat(FrontEnd.RELU_LIMIT, 0)).isEqualTo(6.0);
    assertThat(FrontEnd.doRelu(f.ops().get(1))).isFalse();
  }

  @Test
  void reluAfterReluFoldsAtTheFixedPointKeepingTheSmallerPositiveLimit() {
    Graph.Builder b = convInput("chain");
    b.op("r6", OpKind.CLIP, Attributes.builder().put("min", 0.0).put("max", 6.0).build(), "conv");
    b.op("r4", OpKind.CLIP, Attributes.builder().put("min", 0.0).put("max", 8.0).build(), "r6");
    Graph f = only(b.output("r4").build(), FrontEnd.Pass.FUSE_RELU);
    assertThat(f.ops()).singleElement().satisfies(o -> assertThat(o.name()).isEqualTo("r4"));
    assertThat(f.ops().get(0).attributes().getFloat(FrontEnd.RELU_LIMIT, 0)).isEqualTo(6.0);
  }

  @Test
  void reluOnAnInt8TensorIsNotFused() {
    Graph.Builder b = Graph.builder("int8");
    b.input("x", DType.I8, 1, 8);
    b.input("y", DType.I8, 1, 8);
    b.op("add", OpKind.ADD, Attributes.empty(), "x", "y");
    b.op("relu", OpKind.RELU, Attributes.empty(), "add");
    Graph g = b.output("relu").build();
    assertThat(only(g, FrontEnd.Pass.FUSE_RELU)).isSameAs(g);
  }

  /** x [1, 4, 8] times a [8, 16] weight, then Add of {@code bias}. */
  private static Graph.Builder linear(String biasName, long... biasDims) {
    Graph.Builder b = Graph.builder("linear");
    b.input("x", DType.F32, 1, 4, 8);
    b.weight("w", DType.F32, 8, 16);
    b.weight(biasName, DType.F32, biasDims);
    b.op("mm", OpKind.MAT_MUL, Attributes.empty(), "x", "w");
    return b;
  }

  @Test
  void matMulAndItsBiasAddBecomeOneMatMulNamedAfterTheAdd() {
    Graph.Builder b = linear("bias", 16);
    b.op("dense", OpKind.ADD, Attributes.empty(), "bias", "mm");
    Graph f = only(b.output("dense").build(), FrontEnd.Pass.MATMUL_BIAS);
    assertThat(f.ops())
        .singleElement()
        .satisfies(
            o -> {
              assertThat(o.kind()).isEqualTo(OpKind.MAT_MUL);
              assertThat(o.name()).isEqualTo("dense");
              assertThat(o.inputs()).containsExactly("x", "w", "bias");
            });
    assertThat(f.tensor("dense").shape().dims()).containsExactly(1, 4, 16);
  }

  @Test
  void matMulBiasNeedsNElementsAWeightRightOperandAndOneUse() {
    Graph.Builder wrong = linear("bias", 4, 1);
    wrong.op("add", OpKind.ADD, Attributes.empty(), "mm", "bias");
    Graph g1 = wrong.output("add").build();
    assertThat(only(g1, FrontEnd.Pass.MATMUL_BIAS)).isSameAs(g1);

    Graph.Builder act = Graph.builder("act");
    act.input("x", DType.F32, 1, 4, 8);
    act.input("y", DType.F32, 1, 8, 16);
    act.weight("bias", DType.F32, 16);
    act.op("mm", OpKind.MAT_MUL, Attributes.empty(), "x", "y");
    act.op("add", OpKind.ADD, Attributes.empty(), "mm", "bias");
    Graph g2 = act.output("add").build();
    assertThat(only(g2, FrontEnd.Pass.MATMUL_BIAS)).isSameAs(g2);

    Graph.Builder two = linear("bias", 16);
    two.op("add", OpKind.ADD, Attributes.empty(), "mm", "bias");
    two.op("sum", OpKind.ADD, Attributes.empty(), "add", "mm");
    Graph g3 = two.output("sum").build();
    assertThat(only(g3, FrontEnd.Pass.MATMUL_BIAS)).isSameAs(g3);

    // the one use is the graph output
    Graph g4 = linear("bias", 16).output("mm").build();
    assertThat(only(g4, FrontEnd.Pass.MATMUL_BIAS)).isSameAs(g4);
  }

  @Test
  void aResidualBlockReachesLayerGroupAsTwoConvsAndAnAddWithReluFused() {
    // conv-bn-relu-conv-bn-add(x)-relu: 7 ops in ONNX, 3 in TPU-MLIR
    Graph.Builder b = convInput("block");
    bn(b, "bn1", "conv");
    b.op("relu1", OpKind.RELU, Attributes.empty(), "bn1");
    b.weight("w2", DType.F32, 8, 8, 3, 3);
    b.op("conv2", OpKind.CONV, CONV3, "relu1", "w2");
    bn(b, "bn2", "conv2");
    b.op("add", OpKind.ADD, Attributes.empty(), "bn2", "x");
    b.op("relu2", OpKind.RELU, Attributes.empty(), "add");
    Graph g = b.output("relu2").build();
    Graph f = FrontEnd.apply(g, BM1684X);
    assertThat(g.ops()).hasSize(7);
    assertThat(kinds(f)).containsExactly("Conv", "Conv", "Add");
    assertThat(f.ops()).extracting(Op::name).containsExactly("relu1", "bn2", "relu2");
    assertThat(f.ops()).extracting(FrontEnd::doRelu).containsExactly(true, false, true);
    assertThat(FrontEnd.apply(g, BM1684X, FrontEnd.Options.NONE)).isSameAs(g);
    assertThat(FrontEnd.apply(f, BM1684X)).isSameAs(f);

    // BM1684 has no MergeScale2Conv: the BatchNorms stay (as Scales), the ReLU fuses into bn1
    Graph bm1684 = FrontEnd.apply(g, Chips.get("bm1684"));
    assertThat(kinds(bm1684))
        .containsExactly("Conv", "BatchNormalization", "Conv", "BatchNormalization", "Add");
    assertThat(bm1684.ops())
        .extracting(FrontEnd::doRelu)
        .containsExactly(false, true, false, false, true);
  }

  @Test
  void optionsParseAllNoneListsAndExclusions() {
    assertThat(FrontEnd.Options.parse("all")).isEqualTo(FrontEnd.Options.ALL);
    assertThat(FrontEnd.Options.parse("none")).isEqualTo(FrontEnd.Options.NONE);
    assertThat(FrontEnd.Options.parse("all,-fuse-relu").passes())
        .containsExactly(
            FrontEnd.Pass.ONNX_OPT,
            FrontEnd.Pass.BN_TO_CONV,
            FrontEnd.Pass.MATMUL_BIAS,
            FrontEnd.Pass.ATTENTION);
    assertThat(FrontEnd.Options.parse("fuse-relu, bn-to-conv").toString())
        .isEqualTo("bn-to-conv,fuse-relu");
    assertThat(FrontEnd.Options.ALL.toString()).isEqualTo("all");
    assertThatThrownBy(() -> FrontEnd.Options.parse("fuse-gelu"))
        .hasMessageContaining("unknown front-end pass 'fuse-gelu'")
        .hasMessageContaining("onnx-opt, bn-to-conv, matmul-bias, fuse-relu, attention");
  }
}
