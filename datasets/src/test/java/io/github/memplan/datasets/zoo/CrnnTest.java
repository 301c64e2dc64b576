package io.github.memplan.datasets.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Shape;
import io.github.memplan.core.ir.Tensor;
import org.junit.jupiter.api.Test;

class CrnnTest {
  private static final Graph G = new Crnn().build();

  private static long weights(String prefix) {
    return G.tensors().values().stream()
        .filter(t -> t.role() == Role.WEIGHT && t.name().startsWith(prefix))
        .mapToLong(t -> t.shape().elements())
        .sum();
  }

  @Test
  void parameterCountOfTable4() {
    // 3x3 convs 1->64->128->256->256->512->512 and the 2x2 conv 512->512, all with bias
    long convs =
        (64L * 9 + 64)
            + (128L * 64 * 9 + 128)
            + (256L * 128 * 9 + 256)
            + (256L * 256 * 9 + 256)
            + (512L * 256 * 9 + 512)
            + (512L * 512 * 9 + 512)
            + (512L * 512 * 4 + 512);
    assertThat(weights("conv")).isEqualTo(convs).isEqualTo(5_548_800L);
    assertThat(weights("bn")).isEqualTo(2 * 2 * 512L);
    // per direction 4*256 x (512 inputs + 256 hidden) weights and two 4*256 biases
    long blstm = 2 * (1024L * 512 + 1024L * 256 + 2048);
    assertThat(weights("blstm1")).isEqualTo(blstm).isEqualTo(1_576_960L);
    assertThat(weights("blstm2")).isEqualTo(blstm);
    assertThat(weights("fc")).isEqualTo(512L * 37 + 37);
    assertThat(G.parameterCount()).isEqualTo(8_723_749L);
  }

  @Test
  void paperCountIsTheAuthorsNetworkWithJoinedDirections() {
    // bgshih/crnn: the second BiLSTM reads 256 joined inputs instead of 512 concatenated ones;
    // each BiRnnJoin projects both directions (two Linear(256, out) summed): out 256, then 37;
    // BatchNorm after conv3 (256 channels), conv5 and conv7 instead of after conv5 and conv6
    long secondLstmInputs = 2 * 1024L * 256;
    long joins = 2 * (256L * 256 + 256) + 2 * (256L * 37 + 37);
    long batchNorm = 2 * (256L + 512 + 512);
    long authors =
        G.parameterCount() - secondLstmInputs - weights("fc") + joins - weights("bn") + batchNorm;
    assertThat(authors).isEqualTo(8_331_594L);
    assertThat((double) authors).isCloseTo(8.3e6, withinPercentage(1));
  }

  @Test
  void featureMapsFollowTable4() {
    assertThat(G.tensor("relu1").shape()).isEqualTo(Shape.of(1, 64, 32, 100));
    assertThat(G.tensor("pool1").shape()).isEqualTo(Shape.of(1, 64, 16, 50));
    assertThat(G.tensor("pool2").shape()).isEqualTo(Shape.of(1, 128, 8, 25));
    // the 1x2 pools halve the height only
    assertThat(G.tensor("pool3").shape()).isEqualTo(Shape.of(1, 256, 4, 25));
    assertThat(G.tensor("pool4").shape()).isEqualTo(Shape.of(1, 512, 2, 25));
    assertThat(G.tensor("relu7").shape()).isEqualTo(Shape.of(1, 512, 1, 24));
    assertThat(G.op("relu5").inputs()).containsExactly("bn5");
    assertThat(G.op("relu6").inputs()).containsExactly("bn6");
    assertThat(G.ops().stream().filter(o -> o.kind() == OpKind.BATCH_NORMALIZATION)).hasSize(2);
    assertThat(G.ops().stream().filter(o -> o.kind() == OpKind.CONV)).hasSize(7);
  }

  @Test
  void sequenceLayers() {
    assertThat(G.tensor("map_to_sequence").shape()).isEqualTo(Shape.of(24, 1, 512));
    assertThat(G.tensor("blstm1").shape()).isEqualTo(Shape.of(24, 2, 1, 256));
    assertThat(G.tensor("blstm1.concat").shape()).isEqualTo(Shape.of(24, 1, 512));
    assertThat(G.op("blstm2").kind()).isEqualTo(OpKind.LSTM);
    assertThat(G.op("blstm2").attributes().getString("direction", "forward"))
        .isEqualTo("bidirectional");
    Tensor w = G.tensor("blstm2.W");
    assertThat(w.shape()).isEqualTo(Shape.of(2, 1024, 512));
    assertThat(G.outputs()).containsExactly("fc");
    assertThat(G.tensor("fc").shape()).isEqualTo(Shape.of(24, 1, 37));
  }

  @Test
  void macsWorkedOutByHand() {
    // conv output positions x output channels x (input channels x kernel area)
    long convs =
        32L * 100 * 64 * 9
            + 16L * 50 * 128 * 64 * 9
            + 8L * 25 * 256 * 128 * 9
            + 8L * 25 * 256 * 256 * 9
            + 4L * 25 * 512 * 256 * 9
            + 4L * 25 * 512 * 512 * 9
            + 24L * 512 * 512 * 4;
    // 24 steps x 2 directions x 4*256 gates x (512 + 256), for each BiLSTM
    long lstms = 2 * 24L * 2 * 1024 * 768;
    assertThat(Macs.of(G)).isEqualTo(convs + lstms + 24L * 512 * 37);
  }

  @Test
  void widerImagesGiveLongerSequences() {
    Graph g = new Crnn(200, 4).build();
    assertThat(g.name()).isEqualTo("crnn-200-b4");
    assertThat(g.parameterCount()).isEqualTo(8_723_749L);
    assertThat(g.tensor("fc").shape()).isEqualTo(Shape.of(49, 4, 37));
    assertThatThrownBy(() -> new Crnn(7, 1)).hasMessage("crnn: width 7 must be in [8, 1048576]");
  }
}
