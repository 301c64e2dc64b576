package io.github.memplan.datasets.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Shape;
import org.junit.jupiter.api.Test;

class VitB16Test {
  private static final Graph G = new VitB16().build();

  @Test
  void parameterCountMatchesHuggingFaceAndTimm() {
    assertThat(G.parameterCount()).isEqualTo(86_567_656L);
  }

  @Test
  void inputsAndOutputs() {
    assertThat(G.inputs()).containsExactly("pixel_values");
    assertThat(G.outputs()).containsExactly("classifier");
    assertThat(G.tensor("classifier").shape()).isEqualTo(Shape.of(1, 1000));
  }

  @Test
  void patchEmbeddingAndTokens() {
    assertThat(G.tensor("embeddings.patch_embeddings.projection").shape())
        .isEqualTo(Shape.of(1, 768, 14, 14));
    assertThat(G.tensor("embeddings.patch_embeddings.projection.weight").shape())
        .isEqualTo(Shape.of(768, 3, 16, 16));
    assertThat(G.op("embeddings.patch_embeddings.projection").attributes().getInts("strides", null))
        .containsExactly(16, 16);
    assertThat(G.tensor("embeddings.patch_embeddings.transpose").shape())
        .isEqualTo(Shape.of(1, 196, 768));
    // the class token goes first
    assertThat(G.op("embeddings.concat").inputs().get(0)).isEqualTo("embeddings.cls_token");
    assertThat(G.tensor("embeddings.concat").shape()).isEqualTo(Shape.of(1, 197, 768));
    assertThat(G.tensor("embeddings.position_embeddings").role()).isEqualTo(Role.WEIGHT);
    assertThat(G.tensor("embeddings.position_embeddings").shape()).isEqualTo(Shape.of(1, 197, 768));
  }

  @Test
  void encoderShapesAndLayerCounts() {
    String self = "encoder.layer.0.attention.attention";
    assertThat(G.tensor(self + ".query.transpose").shape()).isEqualTo(Shape.of(1, 12, 197, 64));
    assertThat(G.tensor(self + ".probs").shape()).isEqualTo(Shape.of(1, 12, 197, 197));
    assertThat(G.tensor("encoder.layer.11.intermediate.gelu").shape())
        .isEqualTo(Shape.of(1, 197, 3072));
    assertThat(G.tensor("class_token").shape()).isEqualTo(Shape.of(1, 768));
    // pre-LN: two per layer and the final one
    assertThat(G.ops().stream().filter(o -> o.kind() == OpKind.LAYER_NORMALIZATION))
        .hasSize(12 * 2 + 1);
    assertThat(G.op("encoder.layer.0.layernorm_before").inputs().get(0))
        .isEqualTo("embeddings.add_positions");
    assertThat(G.ops().stream().filter(o -> o.kind() == OpKind.MAT_MUL)).hasSize(12 * 8);
  }

  @Test
  void resolution384HasItsOwnPositionTable() {
    Graph g = new VitB16(384, 1).build();
    assertThat(g.name()).isEqualTo("vit-b16-384");
    // 24 x 24 patches + the class token: 380 more position embeddings of 768
    assertThat(g.parameterCount()).isEqualTo(86_567_656L + 380L * 768);
    assertThat(g.tensor("embeddings.add_positions").shape()).isEqualTo(Shape.of(1, 577, 768));
  }

  @Test
  void batchRepeatsTheClassToken() {
    Graph g = new VitB16(224, 2).build();
    assertThat(g.name()).isEqualTo("vit-b16-224-b2");
    assertThat(g.parameterCount()).isEqualTo(86_567_656L);
    assertThat(g.tensor("embeddings.cls_token.expand").shape()).isEqualTo(Shape.of(2, 1, 768));
    assertThat(g.tensor("embeddings.cls_token.expand_indices").role()).isEqualTo(Role.CONSTANT);
    assertThat(g.tensor("classifier").shape()).isEqualTo(Shape.of(2, 1000));
  }

  @Test
  void rejectsResolutionsThatAreNotWholePatches() {
    assertThatThrownBy(() -> new VitB16(225, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("vit-b16: resolution 225 must be a multiple of the patch size 16");
  }
}
