package io.github.memplan.datasets.zoo;

import static io.github.memplan.datasets.zoo.ZooGraphs.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import org.junit.jupiter.api.Test;

class MobileNetV1Test {
  private static final Graph G = new MobileNetV1().build();

  @Test
  void parameterCountMatchesKeras() {
    // Keras MobileNet(alpha=1.0): 4,231,976 trainable (BN moving statistics are not parameters)
    assertThat(G.parameterCount()).isEqualTo(4_231_976L);
  }

  @Test
  void macsMatchTable1() {
    // Howard et al. Tables 7 and 8: 569 M mult-adds at 224, width 1.0
    assertThat((double) Macs.of(G)).isCloseTo(569e6, withinPercentage(0.1));
  }

  @Test
  void computeSharesMatchTable2() {
    // Table 2: Conv 1x1 94.86%, Conv DW 3x3 3.06%, Fully Connected 0.18% of the mult-adds; its
    // "Conv 3x3 1.19%" is 1.91% with the digits swapped (the four rows then add up to 100%)
    double total = Macs.of(G);
    assertThat(macsOf("conv_pw_") / total).isCloseTo(0.9486, within(0.00005));
    assertThat(macsOf("conv_dw_") / total).isCloseTo(0.0306, within(0.00005));
    assertThat(macsOf("conv1") / total).isCloseTo(0.0191, within(0.00005));
    assertThat(macsOf("fc") / total).isCloseTo(0.0018, within(0.00005));
  }

  private static double macsOf(String prefix) {
    long n = 0;
    for (Op op : G.ops()) {
      if (op.name().startsWith(prefix)) {
        n += Macs.of(G, op);
      }
    }
    return n;
  }

  @Test
  void shapesFollowTable1() {
    assertThat(G.tensor("conv1.relu").shape()).isEqualTo(Shape.of(1, 32, 112, 112));
    assertThat(G.tensor("conv_pw_1.relu").shape()).isEqualTo(Shape.of(1, 64, 112, 112));
    assertThat(G.tensor("conv_dw_2.relu").shape()).isEqualTo(Shape.of(1, 64, 56, 56));
    assertThat(G.tensor("conv_pw_3.relu").shape()).isEqualTo(Shape.of(1, 128, 56, 56));
    assertThat(G.tensor("conv_pw_5.relu").shape()).isEqualTo(Shape.of(1, 256, 28, 28));
    assertThat(G.tensor("conv_pw_11.relu").shape()).isEqualTo(Shape.of(1, 512, 14, 14));
    assertThat(G.tensor("conv_pw_13.relu").shape()).isEqualTo(Shape.of(1, 1024, 7, 7));
    assertThat(G.tensor("avgpool").shape()).isEqualTo(Shape.of(1, 1024, 1, 1));
    assertThat(G.outputs()).containsExactly("fc");
    assertThat(G.tensor("fc").shape()).isEqualTo(Shape.of(1, 1000));
    assertThat(G.op("conv_dw_2").attributes().getInt("group", 1)).isEqualTo(64);
    assertThat(G.tensor("conv_dw_2.weight").shape()).isEqualTo(Shape.of(64, 1, 3, 3));
  }

  @Test
  void layerCounts() {
    // 28 layers counting depthwise and pointwise convs separately (Section 3.2)
    assertThat(count(G, OpKind.CONV) + count(G, OpKind.GEMM)).isEqualTo(28);
    assertThat(count(G, OpKind.BATCH_NORMALIZATION)).isEqualTo(27);
    assertThat(count(G, OpKind.RELU)).isEqualTo(27);
  }

  @Test
  void sizeIsAParameter() {
    Graph g = new MobileNetV1(1, 160).build();
    assertThat(g.tensor("conv_pw_13.relu").shape()).isEqualTo(Shape.of(1, 1024, 5, 5));
    assertThat(g.parameterCount()).isEqualTo(4_231_976L);
    // Table 7: 1.0 MobileNet-160 has 290 M mult-adds
    assertThat((double) Macs.of(g)).isCloseTo(290e6, withinPercentage(0.5));
  }

  @Test
  void registered() {
    assertThat(Models.get("mobilenetv1")).isInstanceOf(MobileNetV1.class);
  }
}
