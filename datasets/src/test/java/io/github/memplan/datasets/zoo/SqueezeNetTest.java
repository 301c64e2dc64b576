package io.github.memplan.datasets.zoo;

import static io.github.memplan.datasets.zoo.ZooGraphs.count;
import static io.github.memplan.datasets.zoo.ZooGraphs.parametersUnder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import org.junit.jupiter.api.Test;

class SqueezeNetTest {
  private static final Graph G = new SqueezeNet().build();

  @Test
  void parameterCountMatchesTorchvision() {
    assertThat(G.parameterCount()).isEqualTo(1_248_424L);
  }

  @Test
  void layerParametersMatchTable1() {
    // Table 1, "# parameter before pruning" (weights and biases), worked by hand:
    // conv1 7*7*3*96 + 96; fire2 (96*16 + 16) + (16*64 + 64) + (9*16*64 + 64); conv10 512*1000 +
    // 1000
    assertThat(parametersUnder(G, "features.0")).isEqualTo(14_208L);
    assertThat(parametersUnder(G, "features.3.")).isEqualTo(11_920L);
    assertThat(parametersUnder(G, "classifier.1")).isEqualTo(513_000L);
  }

  @Test
  void macsMatchTorchvisionMetadata() {
    // not in models.md §6 nor the paper; torchvision's weights metadata lists 0.819 GMACs
    assertThat(Macs.of(G) / 1e9).isCloseTo(0.819, within(0.0005));
  }

  @Test
  void torchvisionShapesAt224() {
    assertThat(G.tensor("features.0").shape()).isEqualTo(Shape.of(1, 96, 109, 109));
    assertThat(G.tensor("features.2").shape()).isEqualTo(Shape.of(1, 96, 54, 54));
    assertThat(G.tensor("features.6").shape()).isEqualTo(Shape.of(1, 256, 27, 27));
    assertThat(G.tensor("features.11").shape()).isEqualTo(Shape.of(1, 512, 13, 13));
    assertThat(G.outputs()).containsExactly("flatten");
    assertThat(G.tensor("flatten").shape()).isEqualTo(Shape.of(1, 1000));
  }

  @Test
  void table1ShapesAt227() {
    Graph g = new SqueezeNet(1, 227).build();
    assertThat(g.tensor("features.0").shape()).isEqualTo(Shape.of(1, 96, 111, 111));
    assertThat(g.tensor("features.2").shape()).isEqualTo(Shape.of(1, 96, 55, 55));
    assertThat(g.tensor("features.3.concat").shape()).isEqualTo(Shape.of(1, 128, 55, 55));
    assertThat(g.tensor("features.4.concat").shape()).isEqualTo(Shape.of(1, 128, 55, 55));
    assertThat(g.tensor("features.5.concat").shape()).isEqualTo(Shape.of(1, 256, 55, 55));
    assertThat(g.tensor("features.6").shape()).isEqualTo(Shape.of(1, 256, 27, 27));
    assertThat(g.tensor("features.8.concat").shape()).isEqualTo(Shape.of(1, 384, 27, 27));
    assertThat(g.tensor("features.10.concat").shape()).isEqualTo(Shape.of(1, 512, 27, 27));
    assertThat(g.tensor("features.11").shape()).isEqualTo(Shape.of(1, 512, 13, 13));
    assertThat(g.tensor("features.12.concat").shape()).isEqualTo(Shape.of(1, 512, 13, 13));
    assertThat(g.tensor("classifier.1").shape()).isEqualTo(Shape.of(1, 1000, 13, 13));
    assertThat(g.tensor("classifier.3").shape()).isEqualTo(Shape.of(1, 1000, 1, 1));
  }

  @Test
  void layerCounts() {
    // conv1, 8 fire modules of 3 convs, conv10
    assertThat(count(G, OpKind.CONV)).isEqualTo(1 + 8 * 3 + 1);
    assertThat(count(G, OpKind.CONCAT)).isEqualTo(8);
    assertThat(count(G, OpKind.MAX_POOL)).isEqualTo(3);
    assertThat(G.op("features.2").attributes().getInt("ceil_mode", 0)).isEqualTo(1);
  }

  @Test
  void registered() {
    assertThat(Models.get("squeezenet1.0")).isInstanceOf(SqueezeNet.class);
  }
}
