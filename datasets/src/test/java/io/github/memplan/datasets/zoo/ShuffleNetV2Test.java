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

class ShuffleNetV2Test {
  private static final Graph G = new ShuffleNetV2().build();

  @Test
  void parameterCountMatchesTorchvision() {
    assertThat(G.parameterCount()).isEqualTo(2_278_604L);
  }

  @Test
  void macs() {
    // Table 5: 146 M FLOPs (the paper's FLOPs are multiply-adds); torchvision's metadata: 0.145 G
    assertThat((double) Macs.of(G)).isCloseTo(146e6, withinPercentage(1));
    assertThat(Macs.of(G) / 1e9).isCloseTo(0.145, within(0.0005));
  }

  @Test
  void shapesFollowTable5() {
    assertThat(G.tensor("conv1.2").shape()).isEqualTo(Shape.of(1, 24, 112, 112));
    assertThat(G.tensor("maxpool").shape()).isEqualTo(Shape.of(1, 24, 56, 56));
    assertThat(G.tensor("stage2.3.shuffle.flatten").shape()).isEqualTo(Shape.of(1, 116, 28, 28));
    assertThat(G.tensor("stage3.7.shuffle.flatten").shape()).isEqualTo(Shape.of(1, 232, 14, 14));
    assertThat(G.tensor("stage4.3.shuffle.flatten").shape()).isEqualTo(Shape.of(1, 464, 7, 7));
    assertThat(G.tensor("conv5.2").shape()).isEqualTo(Shape.of(1, 1024, 7, 7));
    assertThat(G.outputs()).containsExactly("fc");
    assertThat(G.tensor("fc").shape()).isEqualTo(Shape.of(1, 1000));
  }

  @Test
  void unitsSplitConcatAndShuffle() {
    assertThat(G.tensor("stage3.1.split.0").shape()).isEqualTo(Shape.of(1, 116, 14, 14));
    assertThat(G.tensor("stage3.1.split.1").shape()).isEqualTo(Shape.of(1, 116, 14, 14));
    assertThat(G.op("stage3.1.concat").inputs())
        .containsExactly("stage3.1.split.0", "stage3.1.branch2.7");
    assertThat(G.op("stage3.0.concat").inputs())
        .containsExactly("stage3.0.branch1.4", "stage3.0.branch2.7");
    assertThat(G.tensor("stage3.1.shuffle.reshape").shape()).isEqualTo(Shape.of(1, 2, 116, 14, 14));
    assertThat(G.tensor("stage3.1.shuffle.transpose").shape())
        .isEqualTo(Shape.of(1, 116, 2, 14, 14));
    assertThat(G.op("stage3.0.branch1.0").attributes().getInt("group", 1)).isEqualTo(116);
    // 16 units, 13 of stride 1 (two Slices each)
    assertThat(count(G, OpKind.TRANSPOSE)).isEqualTo(16);
    assertThat(count(G, OpKind.RESHAPE)).isEqualTo(32);
    assertThat(count(G, OpKind.SLICE)).isEqualTo(26);
    assertThat(count(G, OpKind.CONCAT)).isEqualTo(16);
  }

  @Test
  void registered() {
    assertThat(Models.get("shufflenetv2")).isInstanceOf(ShuffleNetV2.class);
  }
}
