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

class EfficientNetB0Test {
  private static final Graph G = new EfficientNetB0().build();

  @Test
  void parameterCountMatchesTorchvision() {
    assertThat(G.parameterCount()).isEqualTo(5_288_548L);
  }

  @Test
  void macs() {
    // Table 2: 0.39 B FLOPs (multiply-adds); torchvision's weights metadata: 0.386 G
    assertThat((double) Macs.of(G)).isCloseTo(0.39e9, withinPercentage(1.5));
    assertThat(Macs.of(G) / 1e9).isCloseTo(0.386, within(0.0005));
  }

  @Test
  void stageShapesFollowTable1() {
    assertThat(G.tensor("features.0.2").shape()).isEqualTo(Shape.of(1, 32, 112, 112));
    assertThat(G.tensor("features.1.0.block.2.1").shape()).isEqualTo(Shape.of(1, 16, 112, 112));
    assertThat(G.tensor("features.2.1.add").shape()).isEqualTo(Shape.of(1, 24, 56, 56));
    assertThat(G.tensor("features.3.1.add").shape()).isEqualTo(Shape.of(1, 40, 28, 28));
    assertThat(G.tensor("features.4.2.add").shape()).isEqualTo(Shape.of(1, 80, 14, 14));
    assertThat(G.tensor("features.5.2.add").shape()).isEqualTo(Shape.of(1, 112, 14, 14));
    assertThat(G.tensor("features.6.3.add").shape()).isEqualTo(Shape.of(1, 192, 7, 7));
    assertThat(G.tensor("features.7.0.block.3.1").shape()).isEqualTo(Shape.of(1, 320, 7, 7));
    assertThat(G.tensor("features.8.2").shape()).isEqualTo(Shape.of(1, 1280, 7, 7));
    assertThat(G.outputs()).containsExactly("classifier.1");
    assertThat(G.tensor("classifier.1").shape()).isEqualTo(Shape.of(1, 1000));
  }

  @Test
  void mbConvBlocks() {
    // stage 4, block 1: 24 -> 144 expansion, 5x5/2 depthwise, SE squeezing to 24 / 4 = 6
    assertThat(G.tensor("features.3.0.block.0.0").shape()).isEqualTo(Shape.of(1, 144, 56, 56));
    assertThat(G.tensor("features.3.0.block.1.0.weight").shape()).isEqualTo(Shape.of(144, 1, 5, 5));
    assertThat(G.tensor("features.3.0.block.1.0").shape()).isEqualTo(Shape.of(1, 144, 28, 28));
    assertThat(G.tensor("features.3.0.block.2.fc1.weight").shape())
        .isEqualTo(Shape.of(6, 144, 1, 1));
    assertThat(G.tensor("features.3.0.block.2.fc2.bias").shape()).isEqualTo(Shape.of(144));
    assertThat(G.tensor("features.3.0.block.2.mul").shape()).isEqualTo(Shape.of(1, 144, 28, 28));
    // MBConv1: no expansion, SE squeezes 32 to 8
    assertThat(G.tensor("features.1.0.block.1.fc1.weight").shape())
        .isEqualTo(Shape.of(8, 32, 1, 1));
    // 16 blocks, each with squeeze-and-excitation; 9 keep stride 1 and width (residual)
    assertThat(count(G, OpKind.SIGMOID)).isEqualTo(16);
    assertThat(count(G, OpKind.MUL)).isEqualTo(16);
    assertThat(count(G, OpKind.ADD)).isEqualTo(9);
    // swish after the stem, the head, every expansion (15), depthwise (16) and SE squeeze (16)
    assertThat(count(G, OpKind.SILU)).isEqualTo(2 + 15 + 16 + 16);
  }

  @Test
  void registered() {
    assertThat(Models.get("efficientnet-b0")).isInstanceOf(EfficientNetB0.class);
  }
}
