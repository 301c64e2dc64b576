package io.github.memplan.datasets.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Shape;
import org.junit.jupiter.api.Test;

class Gpt2Test {
  private static final Graph G = new Gpt2().build();

  @Test
  void parameterCountMatchesHuggingFaceWithTheTiedHeadCountedOnce() {
    // wte 50257*768 + wpe 1024*768 + 12 blocks * 7,087,872 + ln_f 2*768
    assertThat(G.parameterCount()).isEqualTo(124_439_808L);
    assertThat(G.tensors().values().stream().filter(t -> t.role() == Role.WEIGHT))
        .noneMatch(t -> t.name().startsWith("lm_head"));
  }

  @Test
  void lmHeadReadsTheTokenEmbeddingTransposed() {
    assertThat(G.consumers("transformer.wte.weight"))
        .extracting(Op::name)
        .containsExactly("transformer.wte", "lm_head");
    Op head = G.op("lm_head");
    assertThat(head.kind()).isEqualTo(OpKind.GEMM);
    assertThat(head.attributes().getInt("transB", 0)).isEqualTo(1);
    assertThat(G.tensor("lm_head").shape()).isEqualTo(Shape.of(1024, 50257));
  }

  @Test
  void inputsAndOutputs() {
    assertThat(G.inputs()).containsExactly("input_ids");
    assertThat(G.outputs()).containsExactly("logits");
    assertThat(G.tensor("logits").shape()).isEqualTo(Shape.of(1, 1024, 50257));
  }

  @Test
  void attentionShapesAndCausalMask() {
    String attn = "transformer.h.0.attn";
    assertThat(G.tensor(attn + ".c_attn").shape()).isEqualTo(Shape.of(1, 1024, 2304));
    assertThat(G.tensor(attn + ".query.transpose").shape()).isEqualTo(Shape.of(1, 12, 1024, 64));
    assertThat(G.tensor(attn + ".key.transpose").shape()).isEqualTo(Shape.of(1, 12, 64, 1024));
    assertThat(G.tensor(attn + ".probs").shape()).isEqualTo(Shape.of(1, 12, 1024, 1024));
    assertThat(G.tensor("transformer.h.0.mlp.act").shape()).isEqualTo(Shape.of(1, 1024, 3072));
    assertThat(G.op("transformer.h.0.mlp.act").attributes().getString("approximate", "none"))
        .isEqualTo("tanh");
    assertThat(G.tensor("transformer.causal_mask").role()).isEqualTo(Role.CONSTANT);
    assertThat(G.tensor("transformer.causal_mask").shape()).isEqualTo(Shape.of(1, 1, 1024, 1024));
    assertThat(G.consumers("transformer.causal_mask")).hasSize(12);
  }

  @Test
  void layerCounts() {
    // pre-LN: two LayerNorms per block and ln_f; four linear layers and two products per block
    assertThat(G.ops().stream().filter(o -> o.kind() == OpKind.LAYER_NORMALIZATION))
        .hasSize(12 * 2 + 1);
    assertThat(G.ops().stream().filter(o -> o.kind() == OpKind.MAT_MUL)).hasSize(12 * 6);
    assertThat(G.ops().stream().filter(o -> o.kind() == OpKind.SLICE)).hasSize(12 * 3);
    assertThat(G.ops().stream().filter(o -> o.kind() == OpKind.GEMM)).hasSize(1);
  }

  @Test
  void shorterPrefillAndLargerBatchKeepTheParameters() {
    Gpt2 small = new Gpt2(64, 2);
    Graph g = small.build();
    assertThat(small.name()).isEqualTo("gpt2-64-b2");
    assertThat(g.name()).isEqualTo("gpt2-64-b2");
    assertThat(g.parameterCount()).isEqualTo(124_439_808L);
    assertThat(g.tensor("logits").shape()).isEqualTo(Shape.of(2, 64, 50257));
    assertThat(g.tensor("transformer.h.11.attn.probs").shape()).isEqualTo(Shape.of(2, 12, 64, 64));
    assertThat(g.tensor("transformer.wpe").shape()).isEqualTo(Shape.of(1, 64, 768));
  }

  @Test
  void rejectsContextsBeyondTheLearnedPositions() {
    assertThatThrownBy(() -> new Gpt2(1025, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gpt2: sequence 1025 must be in [1, 1024]");
    assertThatThrownBy(() -> new Gpt2(16, 0)).hasMessageContaining("batch 0");
  }
}
