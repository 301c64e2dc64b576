package io.github.memplan.datasets.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

  @Test
  void sequence384ForSquad() {
    BertBase.Seq384 registered = new BertBase.Seq384();
    assertThat(registered.name()).isEqualTo("bert-base-384");
    Graph g = registered.build();
    assertThat(g.name()).isEqualTo("bert-base-384");
    // the 512 learned positions do not depend on the sequence length
    assertThat(g.parameterCount()).isEqualTo(109_482_240L);
    assertThat(g.tensor("encoder.layer.11.output.LayerNorm").shape())
        .isEqualTo(Shape.of(1, 384, 768));
    assertThat(g.tensor("encoder.layer.0.attention.self.probs").shape())
        .isEqualTo(Shape.of(1, 12, 384, 384));
    assertThat(g.tensor("embeddings.position_ids").shape()).isEqualTo(Shape.of(1, 384));
  }

  @Test
  void batchOfSequences() {
    Graph g = new BertBase(128, 8).build();
    assertThat(g.name()).isEqualTo("bert-base-128-b8");
    assertThat(g.parameterCount()).isEqualTo(109_482_240L);
    assertThat(g.tensor("extended_attention_mask").shape()).isEqualTo(Shape.of(8, 1, 1, 128));
    assertThat(g.tensor("encoder.layer.0.attention.self.key.transpose").shape())
        .isEqualTo(Shape.of(8, 12, 64, 128));
    assertThat(g.tensor("pooler_output").shape()).isEqualTo(Shape.of(8, 768));
  }

  @Test
  void rejectsSequencesBeyondThePositionTable() {
    assertThatThrownBy(() -> new BertBase(513, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bert-base: sequence 513 must be in [1, 512]");
  }
}
