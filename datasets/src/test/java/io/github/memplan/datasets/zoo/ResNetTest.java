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
import io.github.memplan.datasets.zoo.ResNet.Downsampling;
import org.junit.jupiter.api.Test;

/** ResNet-34/50/101/152; ResNet-18 has its own test. */
class ResNetTest {
  private static final Graph R34 = new ResNet34().build();
  private static final Graph R50 = new ResNet50().build();
  private static final Graph R101 = new ResNet101().build();
  private static final Graph R152 = new ResNet(152, 1, 224).build();

  @Test
  void parameterCountsMatchTorchvision() {
    assertThat(R34.parameterCount()).isEqualTo(21_797_672L);
    assertThat(R50.parameterCount()).isEqualTo(25_557_032L);
    assertThat(R101.parameterCount()).isEqualTo(44_549_160L);
    assertThat(R152.parameterCount()).isEqualTo(60_192_808L);
    // the stride's position changes no weight
    assertThat(new ResNet(50, 1, 224, Downsampling.PAPER).build().parameterCount())
        .isEqualTo(25_557_032L);
  }

  @Test
  void macsMatchTorchvisionMetadata() {
    // torchvision's weights metadata (_ops, conv and linear MACs in G, 3 decimals)
    assertThat(Macs.of(R34) / 1e9).isCloseTo(3.664, within(0.0005));
    assertThat(Macs.of(R50) / 1e9).isCloseTo(4.089, within(0.0005));
    assertThat(Macs.of(R101) / 1e9).isCloseTo(7.801, within(0.0005));
    assertThat(Macs.of(R152) / 1e9).isCloseTo(11.514, within(0.0005));
  }

  @Test
  void paperStridePlacementGivesTable1Flops() {
    // He et al. Table 1, FLOPs (multiply-adds) rounded to two digits; models.md §6: 3.8-4.1 G
    assertThat((double) Macs.of(R34)).isCloseTo(3.6e9, withinPercentage(2));
    assertThat((double) Macs.of(new ResNet(50, 1, 224, Downsampling.PAPER).build()))
        .isCloseTo(3.8e9, withinPercentage(2));
    assertThat((double) Macs.of(new ResNet(101, 1, 224, Downsampling.PAPER).build()))
        .isCloseTo(7.6e9, withinPercentage(1));
    assertThat((double) Macs.of(new ResNet(152, 1, 224, Downsampling.PAPER).build()))
        .isCloseTo(11.3e9, withinPercentage(1));
    assertThat((double) Macs.of(R50)).isBetween(3.8e9, 4.1e9);
  }

  @Test
  void stageShapesFollowTable1() {
    assertThat(R50.tensor("maxpool").shape()).isEqualTo(Shape.of(1, 64, 56, 56));
    assertThat(R50.tensor("layer1.2.relu3").shape()).isEqualTo(Shape.of(1, 256, 56, 56));
    assertThat(R50.tensor("layer2.3.relu3").shape()).isEqualTo(Shape.of(1, 512, 28, 28));
    assertThat(R50.tensor("layer3.5.relu3").shape()).isEqualTo(Shape.of(1, 1024, 14, 14));
    assertThat(R50.tensor("layer4.2.relu3").shape()).isEqualTo(Shape.of(1, 2048, 7, 7));
    assertThat(R101.tensor("layer3.22.relu3").shape()).isEqualTo(Shape.of(1, 1024, 14, 14));
    assertThat(R34.tensor("layer3.5.relu2").shape()).isEqualTo(Shape.of(1, 256, 14, 14));
    for (Graph g : new Graph[] {R34, R50, R101}) {
      assertThat(g.outputs()).containsExactly("fc");
      assertThat(g.tensor("fc").shape()).isEqualTo(Shape.of(1, 1000));
    }
  }

  @Test
  void layerCounts() {
    // conv1 + 2 or 3 convs per block + projection shortcuts (3 for BasicBlocks, 4 for Bottlenecks)
    assertThat(count(R34, OpKind.CONV)).isEqualTo(1 + 2 * 16 + 3);
    assertThat(count(R50, OpKind.CONV)).isEqualTo(1 + 3 * 16 + 4);
    assertThat(count(R101, OpKind.CONV)).isEqualTo(1 + 3 * 33 + 4);
    assertThat(count(R101, OpKind.ADD)).isEqualTo(33);
    assertThat(R50.tensor("layer1.0.downsample.0.weight").shape())
        .isEqualTo(Shape.of(256, 64, 1, 1));
    assertThat(R50.op("layer2.0.add").inputs())
        .containsExactly("layer2.0.bn3", "layer2.0.downsample.1");
    assertThat(R50.op("layer2.1.add").inputs()).containsExactly("layer2.1.bn3", "layer2.0.relu3");
  }

  @Test
  void downsamplingVariantMovesTheStride() {
    assertThat(R50.op("layer2.0.conv1").attributes().getInts("strides", null))
        .containsExactly(1, 1);
    assertThat(R50.op("layer2.0.conv2").attributes().getInts("strides", null))
        .containsExactly(2, 2);
    assertThat(R50.tensor("layer2.0.conv1").shape()).isEqualTo(Shape.of(1, 128, 56, 56));
    Graph v1 = new ResNet(50, 1, 224, Downsampling.PAPER).build();
    assertThat(v1.op("layer2.0.conv1").attributes().getInts("strides", null)).containsExactly(2, 2);
    assertThat(v1.op("layer2.0.conv2").attributes().getInts("strides", null)).containsExactly(1, 1);
    assertThat(v1.tensor("layer2.0.conv1").shape()).isEqualTo(Shape.of(1, 128, 28, 28));
    assertThat(v1.tensor("fc").shape()).isEqualTo(Shape.of(1, 1000));
  }

  @Test
  void batchAndSizeAreParameters() {
    Graph g = new ResNet(50, 2, 256).build();
    assertThat(g.tensor("input").shape()).isEqualTo(Shape.of(2, 3, 256, 256));
    assertThat(g.tensor("layer4.2.relu3").shape()).isEqualTo(Shape.of(2, 2048, 8, 8));
    assertThat(g.tensor("fc").shape()).isEqualTo(Shape.of(2, 1000));
    assertThat(g.parameterCount()).isEqualTo(25_557_032L);
    assertThat(new ResNet(50, 2, 256).description()).isEqualTo("ResNet-50, 2x3x256x256, fp32");
  }

  @Test
  void registeredUnderTheirIds() {
    assertThat(Models.get("resnet34")).isInstanceOf(ResNet34.class);
    assertThat(Models.get("resnet50")).isInstanceOf(ResNet50.class);
    assertThat(Models.get("resnet101")).isInstanceOf(ResNet101.class);
    assertThat(Models.get("resnet50").description()).isEqualTo("ResNet-50, 1x3x224x224, fp32");
  }

  @Test
  void rejectsDepthsOutsideTable1() {
    assertThatThrownBy(() -> new ResNet(20, 1, 224))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("depth 20");
    assertThatThrownBy(() -> new ResNet(50, 0, 224))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resnet50: batch 0");
  }
}
