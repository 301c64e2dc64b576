package io.github.memplan.core.frontend;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/**
 * {@link AttentionFusion} on a two-head self-attention block as BERT exports it: x [1,4,8] (batch
 * 1, sequence 4, hidden 8), heads 2 of d = 4, q/k/v/out linear layers with biases.
 */
class AttentionFusionTest {
  private static final Chip BM1684X = Chips.get("bm1684x");

  private static Attributes perm(long... p) {
    return Attributes.builder().put("perm", p).build();
  }

  private static Attributes shape(long... s) {
    return Attributes.builder().put("shape", s).build();
  }

  /** A linear layer as exported: MatMul then Add of the bias. */
  private static String linear(Graph.Builder b, String name, String x) {
    b.weight(name + ".w", DType.F32, 8, 8);
    b.weight(name + ".b", DType.F32, 8);
    b.op(name + ".mm", OpKind.MAT_MUL, Attributes.empty(), x, name + ".w");
    b.op(name, OpKind.ADD, Attributes.empty(), name + ".mm", name + ".b");
    return name;
  }

  /**
   * x → q, k, v (linear, Reshape [1,4,2,4], Transpose: q and v (0,2,1,3), k (0,2,3,1)) → scores =
   * q·k [1,2,4,4] → Div by the scalar {@code scale} → Add mask [1,1,1,4] → Softmax → ctx = probs·v
   * [1,2,4,4] → Transpose (0,2,1,3) → Reshape [1,4,8] → out (linear) → relu; {@code probsOut} makes
   * the Softmax's result a graph output too.
   */
  static Graph block(boolean probsOut) {
    Graph.Builder b = Graph.builder("attn");
    b.input("x", DType.F32, 1, 4, 8);
    b.input("mask", DType.F32, 1, 1, 1, 4);
    b.constant("scale", DType.F32);
    String[] heads = {"q", "k", "v"};
    for (String h : heads) {
      linear(b, h, "x");
      b.op(h + ".split", OpKind.RESHAPE, shape(1, 4, 2, 4), h);
      b.op(
          h + ".t",
          OpKind.TRANSPOSE,
          h.equals("k") ? perm(0, 2, 3, 1) : perm(0, 2, 1, 3),
          h + ".split");
    }
    b.op("scores", OpKind.MAT_MUL, Attributes.empty(), "q.t", "k.t");
    b.op("scaled", OpKind.DIV, Attributes.empty(), "scores", "scale");
    b.op("masked", OpKind.ADD, Attributes.empty(), "scaled", "mask");
    b.op("probs", OpKind.SOFTMAX, Attributes.builder().put("axis", -1).build(), "masked");
    b.op("ctx", OpKind.MAT_MUL, Attributes.empty(), "probs", "v.t");
    b.op("ctx.t", OpKind.TRANSPOSE, perm(0, 2, 1, 3), "ctx");
    b.op("ctx.merge", OpKind.RESHAPE, shape(1, 4, 8), "ctx.t");
    linear(b, "out", "ctx.merge");
    b.op("relu", OpKind.RELU, Attributes.empty(), "out");
    b.output("relu");
    if (probsOut) {
      b.output("probs");
    }
    return b.build();
  }

  private static Graph fuse(Graph g, Chip chip) {
    return FrontEnd.apply(
        g,
        chip,
        new FrontEnd.Options(EnumSet.of(FrontEnd.Pass.MATMUL_BIAS, FrontEnd.Pass.ATTENTION)));
  }

  /**
   * After MatMulWithBias the q, k, v and out MatMuls carry their biases and take the Adds' names.
   * The pattern starts at "out": its left operand is Reshape ← Transpose ← ctx (a MatMul); ctx
   * reads Softmax (one use) ← Add (mask [1,1,1,4]: batch 1 · 4 = its 4 elements) ← Div by a scalar
   * (a MulConst in TPU-MLIR) ← scores; scores' left is Transpose ← Reshape ← q, its right the
   * Transpose (0,2,3,1) ← Reshape ← k, ctx's right Transpose ← Reshape ← v; q, k, v read x. head =
   * ctx's dim 1 = 2. Size limits: 32 ≤ 2048·320·4 and (2·64 + 64 + 64) / 2 = 128 ≤ 1024·128·4.
   *
   * <p>Lowered per head: head i reads x, q.w[:, 4i:4i+4] [8,4], q.b[4i:4i+4] [4], the same for k
   * and v, out.w[4i:4i+4, :] [4,8], out's bias on head 0 only (has_bias 0b1111 = 15, then 0b0111 =
   * 7), and the mask; the two heads' results [1,4,8] are summed by an Add that takes out's name.
   * Everything else of the block dies; relu and the mask input stay: 2 + 1 + 1 = 4 ops.
   */
  @Test
  void aTwoHeadBlockBecomesTwoAttentionHeadsAndAnAdd() {
    Graph f = fuse(block(false), BM1684X);
    assertThat(f.ops())
        .extracting(Op::name)
        .containsExactly("out_head_0", "out_head_1", "out", "relu");
    Op h0 = f.ops().get(0);
    Op h1 = f.ops().get(1);
    assertThat(h0.kind()).isEqualTo(OpKind.ATTENTION);
    assertThat(h0.inputs())
        .containsExactly(
            "x",
            "q.w_weight_head_0",
            "q.b_bias_head_0",
            "k.w_weight_head_0",
            "k.b_bias_head_0",
            "v.w_weight_head_0",
            "v.b_bias_head_0",
            "out.w_weight_head_0",
            "out.b",
            "mask");
    assertThat(h0.attributes().getInt("has_bias", -1)).isEqualTo(15);
    assertThat(h1.attributes().getInt("has_bias", -1)).isEqualTo(7);
    assertThat(h1.inputs()).doesNotContain("out.b").contains("out.w_weight_head_1", "mask");
    assertThat(h0.attributes().getInt("dim", -1)).isEqualTo(4);
    assertThat(f.tensor("q.w_weight_head_1").shape()).isEqualTo(Shape.of(8, 4));
    assertThat(f.tensor("q.b_bias_head_1").shape()).isEqualTo(Shape.of(4));
    assertThat(f.tensor("out.w_weight_head_1").shape()).isEqualTo(Shape.of(4, 8));
    assertThat(f.tensor("out_head_0").shape()).isEqualTo(Shape.of(1, 4, 8));
    Op add = f.ops().get(2);
    assertThat(add.kind()).isEqualTo(OpKind.ADD);
    assertThat(add.inputs()).containsExactly("out_head_0", "out_head_1");
    assertThat(add.outputs()).containsExactly("out");
    assertThat(add.attributes().getInt(AttentionFusion.FUSE, 0)).isEqualTo(1);
    assertThat(f.tensors()).doesNotContainKeys("q.w", "out.w", "scale", "probs");
  }

  @Test
  void otherChipsAndASoftmaxWithASecondUseAreLeftAlone() {
    Graph biased =
        FrontEnd.apply(
            block(false), BM1684X, new FrontEnd.Options(EnumSet.of(FrontEnd.Pass.MATMUL_BIAS)));
    // CV18xx and BM1688 do not run the pattern
    assertThat(fuse(block(false), Chips.get("cv183x")).ops()).hasSameSizeAs(biased.ops());
    assertThat(fuse(block(false), Chips.get("bm1688")).ops()).hasSameSizeAs(biased.ops());
    // probs is also a graph output: softmax->hasOneUse() fails
    assertThat(fuse(block(true), BM1684X).ops())
        .extracting(o -> o.kind())
        .doesNotContain(OpKind.ATTENTION);
  }

  /**
   * The lowering of the heads (BM1684X/Attention.cpp): F32 mode gives F16 heads, weights and sum
   * (relu stays F32); INT8 gives INT32 heads and sum, INT8 weights and INT32 biases, and the sum
   * (renamed out_attention_out_fuse_1) requantised to INT8 by a Cast that takes out's name
   * (lowering_multi_attention_int's do_requant).
   */
  @Test
  void headsLowerToF16InF32AndToInt32WithInt8WeightsInInt8() {
    Graph f = fuse(block(false), BM1684X);
    Graph f32 = Lowering.apply(f, BM1684X, Lowering.Quantize.F32);
    assertThat(f32.tensor("out_head_1").dtype()).isEqualTo(DType.F16);
    assertThat(f32.tensor("out").dtype()).isEqualTo(DType.F16);
    assertThat(f32.tensor("q.w_weight_head_0").dtype()).isEqualTo(DType.F16);
    assertThat(f32.tensor("relu").dtype()).isEqualTo(DType.F32);
    Graph i8 = Lowering.apply(f, BM1684X, Lowering.Quantize.INT8);
    assertThat(i8.tensor("out_head_0").dtype()).isEqualTo(DType.I32);
    assertThat(i8.tensor("out_attention_out_fuse_1").dtype()).isEqualTo(DType.I32);
    assertThat(i8.op("out_attention_out_fuse_1").kind()).isEqualTo(OpKind.ADD);
    assertThat(i8.op("out").kind()).isEqualTo(OpKind.CAST);
    assertThat(i8.op("out").inputs()).containsExactly("out_attention_out_fuse_1");
    assertThat(i8.tensor("out").dtype()).isEqualTo(DType.I8);
    assertThat(i8.ops()).hasSize(f.ops().size() + 1);
    // relu reads the requantised block output
    assertThat(i8.consumers("out")).extracting(Op::name).containsExactly("relu");
    // no requant in the float modes
    assertThat(f32.ops()).hasSameSizeAs(f.ops());
    assertThat(Lowering.apply(f, BM1684X, Lowering.Quantize.BF16).op("out").kind())
        .isEqualTo(OpKind.ADD);
    assertThat(i8.tensor("k.w_weight_head_1").dtype()).isEqualTo(DType.I8);
    assertThat(i8.tensor("k.b_bias_head_1").dtype()).isEqualTo(DType.I32);
    assertThat(i8.tensor("out.b").dtype()).isEqualTo(DType.I32);
    // without attention ops F32 is the graph as imported
    Graph plain = block(false);
    assertThat(Lowering.apply(plain, BM1684X, Lowering.Quantize.F32)).isSameAs(plain);
  }
}
