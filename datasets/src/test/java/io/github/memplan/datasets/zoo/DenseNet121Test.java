package io.github.memplan.datasets.zoo;

import static io.github.memplan.datasets.zoo.ZooGraphs.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import org.junit.jupiter.api.Test;

class DenseNet121Test {
  private static final Graph G = new DenseNet121().build();

  @Test
  void parameterCountMatchesTorchvision() {
    assertThat(G.parameterCount()).isEqualTo(7_978_856L);
  }

  @Test
  void macs() {
    // models.md §6 lists 2.9 G, torchvision's weights metadata 2.834 G
    assertThat((double) Macs.of(G)).isCloseTo(2.9e9, withinPercentage(3));
    assertThat(Macs.of(G) / 1e9).isCloseTo(2.834, within(0.0005));
  }

  @Test
  void shapesFollowTable1() {
    assertThat(G.tensor("features.relu0").shape()).isEqualTo(Shape.of(1, 64, 112, 112));
    assertThat(G.tensor("features.pool0").shape()).isEqualTo(Shape.of(1, 64, 56, 56));
    // growth 32: 64 + 6*32, 128 + 12*32, 256 + 24*32, 512 + 16*32 channels
    assertThat(G.tensor("features.denseblock1.concat").shape()).isEqualTo(Shape.of(1, 256, 56, 56));
    assertThat(G.tensor("features.transition1.pool").shape()).isEqualTo(Shape.of(1, 128, 28, 28));
    assertThat(G.tensor("features.denseblock2.concat").shape()).isEqualTo(Shape.of(1, 512, 28, 28));
    assertThat(G.tensor("features.transition2.pool").shape()).isEqualTo(Shape.of(1, 256, 14, 14));
    assertThat(G.tensor("features.denseblock3.concat").shape())
        .isEqualTo(Shape.of(1, 1024, 14, 14));
    assertThat(G.tensor("features.transition3.pool").shape()).isEqualTo(Shape.of(1, 512, 7, 7));
    assertThat(G.tensor("features.denseblock4.concat").shape()).isEqualTo(Shape.of(1, 1024, 7, 7));
    assertThat(G.tensor("features.denseblock2.denselayer5.conv1").shape())
        .isEqualTo(Shape.of(1, 128, 28, 28));
    assertThat(G.outputs()).containsExactly("classifier");
    assertThat(G.tensor("classifier").shape()).isEqualTo(Shape.of(1, 1000));
  }

  @Test
  void everyLayerReadsAllEarlierFeatures() {
    // layer 5 of block 2 concatenates the block input and layers 1-4
    assertThat(G.op("features.denseblock2.denselayer5.concat").inputs())
        .containsExactly(
            "features.transition1.pool",
            "features.denseblock2.denselayer1.conv2",
            "features.denseblock2.denselayer2.conv2",
            "features.denseblock2.denselayer3.conv2",
            "features.denseblock2.denselayer4.conv2");
    assertThat(G.op("features.denseblock1.denselayer1.norm1").inputs().get(0))
        .isEqualTo("features.pool0");
  }

  @Test
  void layerCounts() {
    // 121 weight layers: conv0, 2 convs in each of the 58 dense layers, 3 transitions, the FC
    assertThat(count(G, OpKind.CONV)).isEqualTo(1 + 2 * 58 + 3);
    assertThat(count(G, OpKind.GEMM)).isEqualTo(1);
    // one concat per dense layer but the first of each block, plus each block's output
    assertThat(count(G, OpKind.CONCAT)).isEqualTo(58);
  }

  @Test
  void registered() {
    assertThat(Models.get("densenet121")).isInstanceOf(DenseNet121.class);
  }
}
