package io.github.memplan.datasets.zoo;

import static io.github.memplan.datasets.zoo.ZooGraphs.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import org.junit.jupiter.api.Test;

class Vgg16Test {
  private static final Graph G = new Vgg16().build();

  @Test
  void parameterCountMatchesTorchvision() {
    assertThat(G.parameterCount()).isEqualTo(138_357_544L);
  }

  @Test
  void macs() {
    // models.md §6: 15.5 GMACs; torchvision's weights metadata: 15.47
    assertThat((double) Macs.of(G)).isCloseTo(15.5e9, withinPercentage(0.5));
    assertThat(Macs.of(G) / 1e9).isCloseTo(15.47, within(0.005));
  }

  @Test
  void shapesFollowTable1() {
    assertThat(G.tensor("features.3").shape()).isEqualTo(Shape.of(1, 64, 224, 224));
    assertThat(G.tensor("features.4").shape()).isEqualTo(Shape.of(1, 64, 112, 112));
    assertThat(G.tensor("features.16").shape()).isEqualTo(Shape.of(1, 256, 28, 28));
    assertThat(G.tensor("features.29").shape()).isEqualTo(Shape.of(1, 512, 14, 14));
    assertThat(G.tensor("features.30").shape()).isEqualTo(Shape.of(1, 512, 7, 7));
    assertThat(G.tensor("flatten").shape()).isEqualTo(Shape.of(1, 25088));
    assertThat(G.outputs()).containsExactly("classifier.6");
    assertThat(G.tensor("classifier.6").shape()).isEqualTo(Shape.of(1, 1000));
    assertThat(count(G, OpKind.CONV)).isEqualTo(13);
    assertThat(count(G, OpKind.GEMM)).isEqualTo(3);
    assertThat(count(G, OpKind.MAX_POOL)).isEqualTo(5);
    assertThat(count(G, OpKind.AVERAGE_POOL)).isZero();
  }

  @Test
  void largerInputsPoolToSevenBySeven() {
    Graph g = new Vgg16(2, 448).build();
    assertThat(g.tensor("features.30").shape()).isEqualTo(Shape.of(2, 512, 14, 14));
    assertThat(g.tensor("avgpool").shape()).isEqualTo(Shape.of(2, 512, 7, 7));
    assertThat(g.tensor("classifier.6").shape()).isEqualTo(Shape.of(2, 1000));
    assertThat(g.parameterCount()).isEqualTo(138_357_544L);
    assertThatThrownBy(() -> new Vgg16(1, 256))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("vgg16: input size 256 gives 8x8 maps");
  }

  @Test
  void registered() {
    assertThat(Models.get("vgg16")).isInstanceOf(Vgg16.class);
  }
}
