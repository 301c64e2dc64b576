package io.github.memplan.datasets.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Shape;
import org.junit.jupiter.api.Test;

class WhisperTinyEncoderTest {
  private static final Graph G = new WhisperTinyEncoder().build();

  @Test
  void parameterCountIsTheReferenceEncoders() {
    // conv1 384*80*3+384, conv2 384*384*3+384, ln_post 2*384, and per block: query, value, out
    // 384*384+384 each, key 384*384 (no bias), two LayerNorms 2*384 each, mlp 384*1536+1536 and
    // 1536*384+384
    long block =
        3 * (384L * 384 + 384) + 384L * 384 + 2 * 768 + (384L * 1536 + 1536) + 1536L * 384 + 384;
    assertThat(block).isEqualTo(1_774_080L);
    assertThat(G.parameterCount())
        .isEqualTo((384L * 80 * 3 + 384) + (384L * 384 * 3 + 384) + 4 * block + 768)
        .isEqualTo(7_632_384L);
  }

  @Test
  void positionEmbeddingIsAConstantAndTheKeyHasNoBias() {
    assertThat(G.tensor("positional_embedding").role()).isEqualTo(Role.CONSTANT);
    assertThat(G.tensor("positional_embedding").shape()).isEqualTo(Shape.of(1500, 384));
    assertThat(G.tensors()).doesNotContainKey("blocks.0.attn.key.bias");
    assertThat(G.op("blocks.0.attn.key").kind()).isEqualTo(OpKind.MAT_MUL);
    assertThat(G.tensors()).containsKey("blocks.0.attn.query.bias");
  }

  @Test
  void stemHalvesTheFrames() {
    assertThat(G.inputs()).containsExactly("mel");
    assertThat(G.tensor("mel").shape()).isEqualTo(Shape.of(1, 80, 3000));
    assertThat(G.tensor("conv1.gelu").shape()).isEqualTo(Shape.of(1, 384, 3000));
    assertThat(G.tensor("conv2.gelu").shape()).isEqualTo(Shape.of(1, 384, 1500));
    assertThat(G.tensor("conv2.weight").shape()).isEqualTo(Shape.of(384, 384, 3));
    assertThat(G.tensor("add_positional_embedding").shape()).isEqualTo(Shape.of(1, 1500, 384));
  }

  @Test
  void blocksAndOutput() {
    assertThat(G.tensor("blocks.0.attn.query.scaled").shape()).isEqualTo(Shape.of(1, 6, 1500, 64));
    assertThat(G.tensor("blocks.0.attn.key.scaled").shape()).isEqualTo(Shape.of(1, 6, 64, 1500));
    assertThat(G.tensor("blocks.3.attn.probs").shape()).isEqualTo(Shape.of(1, 6, 1500, 1500));
    assertThat(G.tensor("blocks.3.mlp.1").shape()).isEqualTo(Shape.of(1, 1500, 1536));
    assertThat(G.outputs()).containsExactly("ln_post");
    assertThat(G.tensor("ln_post").shape()).isEqualTo(Shape.of(1, 1500, 384));
    assertThat(G.ops().stream().filter(o -> o.kind() == OpKind.LAYER_NORMALIZATION))
        .hasSize(4 * 2 + 1);
  }

  @Test
  void macsWorkedOutByHand() {
    // no published figure for the encoder alone: conv1 3000*384*(80*3), conv2 1500*384*(384*3),
    // per block 1500 tokens * (4*384^2 + 2*384*1536) in linear layers and 2 * 6 heads * 1500^2 *
    // 64 in the two attention products
    long convs = 3000L * 384 * 240 + 1500L * 384 * 1152;
    long linear = 1500L * (4 * 384 * 384 + 2 * 384 * 1536);
    long attention = 2L * 6 * 1500 * 1500 * 64;
    assertThat(Macs.of(G)).isEqualTo(convs + 4 * (linear + attention));
  }

  @Test
  void otherLengthsAndBatches() {
    Graph g = new WhisperTinyEncoder(1000, 2).build();
    assertThat(g.name()).isEqualTo("whisper-tiny-encoder-1000-b2");
    assertThat(g.parameterCount()).isEqualTo(7_632_384L);
    assertThat(g.tensor("ln_post").shape()).isEqualTo(Shape.of(2, 500, 384));
    assertThat(g.tensor("positional_embedding").shape()).isEqualTo(Shape.of(500, 384));
  }
}
