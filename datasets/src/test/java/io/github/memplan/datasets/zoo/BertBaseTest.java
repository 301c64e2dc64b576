package io.github.memplan.datasets.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Shape;
import org.junit.jupiter.api.Test;

class BertBaseTest {
  private final Graph g = new BertBase().build();

  @Test
  void parameterCountMatchesHuggingFaceBertModel() {
    assertThat(g.parameterCount()).isEqualTo(109_482_240L);
  }

  @Test
  void inputsAndOutputs() {
    assertThat(g.inputs()).containsExactly("input_ids", "token_type_ids", "attention_mask");
    assertThat(g.tensor("input_ids").dtype()).isEqualTo(DType.I64);
    assertThat(g.outputs()).containsExactly("encoder.layer.11.output.LayerNorm", "pooler_output");
    assertThat(g.tensor("encoder.layer.11.output.LayerNorm").shape())
        .isEqualTo(Shape.of(1, 128, 768));
    assertThat(g.tensor("pooler_output").shape()).isEqualTo(Shape.of(1, 768));
  }

  @Test
  void attentionShapes() {
    String self = "encoder.layer.0.attention.self";
    assertThat(g.tensor(self + ".query.transpose").shape()).isEqualTo(Shape.of(1, 12, 128, 64));
    assertThat(g.tensor(self + ".key.transpose").shape()).isEqualTo(Shape.of(1, 12, 64, 128));
    assertThat(g.tensor(self + ".probs").shape()).isEqualTo(Shape.of(1, 12, 128, 128));
    assertThat(g.tensor(self + ".context.reshape").shape()).isEqualTo(Shape.of(1, 128, 768));
    assertThat(g.tensor("encoder.layer.0.intermediate.gelu").shape())
        .isEqualTo(Shape.of(1, 128, 3072));
    assertThat(g.tensor("extended_attention_mask").shape()).isEqualTo(Shape.of(1, 1, 1, 128));
  }

  @Test
  void layerCountsAndConstants() {
    // 6 linear layers and 2 attention products per encoder layer; the pooler is one Gemm
    assertThat(g.ops().stream().filter(o -> o.kind() == OpKind.MAT_MUL)).hasSize(12 * 8);
    assertThat(g.ops().stream().filter(o -> o.kind() == OpKind.GEMM)).hasSize(1);
    assertThat(g.tensor("pooler.dense.weight").shape()).isEqualTo(Shape.of(768, 768));
    assertThat(g.ops().stream().filter(o -> o.kind() == OpKind.LAYER_NORMALIZATION))
        .hasSize(1 + 12 * 2);
    assertThat(g.ops().stream().filter(o -> o.kind() == OpKind.SOFTMAX)).hasSize(12);
    assertThat(g.tensor("embeddings.position_ids").role()).isEqualTo(Role.CONSTANT);
    assertThat(g.tensor("embeddings.word_embeddings.weight").shape())
        .isEqualTo(Shape.of(30522, 768));
    assertThat(g.consumers("extended_attention_mask")).hasSize(12);
  }
}
