package io.github.memplan.datasets.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import org.junit.jupiter.api.Test;

class MobileNetV2Test {
  private final Graph g = new MobileNetV2().build();

  @Test
  void parameterCountMatchesTorchvision() {
    assertThat(g.parameterCount()).isEqualTo(3_504_872L);
  }

  @Test
  void outputIsOneThousandLogits() {
    assertThat(g.outputs()).containsExactly("classifier.1");
    assertThat(g.tensor("classifier.1").shape()).isEqualTo(Shape.of(1, 1000));
  }

  @Test
  void shapesFollowTable2() {
    assertThat(g.tensor("features.0.2").shape()).isEqualTo(Shape.of(1, 32, 112, 112));
    assertThat(g.tensor("features.1.conv.2").shape()).isEqualTo(Shape.of(1, 16, 112, 112));
    assertThat(g.tensor("features.3.add").shape()).isEqualTo(Shape.of(1, 24, 56, 56));
    assertThat(g.tensor("features.6.add").shape()).isEqualTo(Shape.of(1, 32, 28, 28));
    assertThat(g.tensor("features.10.add").shape()).isEqualTo(Shape.of(1, 64, 14, 14));
    assertThat(g.tensor("features.13.add").shape()).isEqualTo(Shape.of(1, 96, 14, 14));
    assertThat(g.tensor("features.16.add").shape()).isEqualTo(Shape.of(1, 160, 7, 7));
    assertThat(g.tensor("features.17.conv.3").shape()).isEqualTo(Shape.of(1, 320, 7, 7));
    assertThat(g.tensor("features.18.2").shape()).isEqualTo(Shape.of(1, 1280, 7, 7));
    // block 2 expands 16 -> 96 and runs a 96-group depthwise conv
    assertThat(g.tensor("features.2.conv.0.0").shape()).isEqualTo(Shape.of(1, 96, 112, 112));
    assertThat(g.op("features.2.conv.1.0").attributes().getInt("group", 1)).isEqualTo(96);
    assertThat(g.tensor("features.2.conv.1.0.weight").shape()).isEqualTo(Shape.of(96, 1, 3, 3));
  }

  @Test
  void layerCounts() {
    // stem + 2 convs in block 1 + 3 in each of 16 blocks + the 1280 conv
    assertThat(g.ops().stream().filter(o -> o.kind() == OpKind.CONV)).hasSize(52);
    // residual sums: n - 1 per row of Table 2 where s = 1 repeats keep the width
    assertThat(g.ops().stream().filter(o -> o.kind() == OpKind.ADD)).hasSize(10);
    assertThat(g.ops().stream().filter(o -> o.kind() == OpKind.CLIP)).hasSize(35);
  }
}
