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

class InceptionV3Test {
  private static final Graph G = new InceptionV3().build();

  @Test
  void parameterCountMatchesTorchvisionWithoutAuxHead() {
    // torchvision inception_v3: 27,161,264 with the auxiliary head, whose BasicConv2d(768, 128, 1),
    // BasicConv2d(128, 768, 5) and Linear(768, 1000) hold (98,304 + 256) + (2,457,600 + 1,536) +
    // 769,000 = 3,326,696 parameters
    assertThat(G.parameterCount()).isEqualTo(27_161_264L - 3_326_696L).isEqualTo(23_834_568L);
  }

  @Test
  void kerasCountsBatchNormDifferently() {
    // Keras's InceptionV3 reports 23,851,784 "total params": its BNs have no scale (gamma), and
    // the total includes the 34,432 non-trainable moving means and variances. Per BN channel
    // Keras thus counts 3 values where torchvision counts 2.
    long bnChannels =
        G.ops().stream()
            .filter(o -> o.kind() == OpKind.BATCH_NORMALIZATION)
            .mapToLong(o -> G.tensor(o.outputs().get(0)).shape().dim(1))
            .sum();
    assertThat(2 * bnChannels).isEqualTo(34_432L);
    assertThat(G.parameterCount() + bnChannels).isEqualTo(23_851_784L);
  }

  @Test
  void macs() {
    // models.md §6: ~5.7 G; torchvision's weights metadata: 5.713 G
    assertThat((double) Macs.of(G)).isCloseTo(5.7e9, withinPercentage(1));
    assertThat(Macs.of(G) / 1e9).isCloseTo(5.713, within(0.0005));
  }

  @Test
  void gridSizesFollowTable1() {
    assertThat(G.tensor("Conv2d_1a_3x3.relu").shape()).isEqualTo(Shape.of(1, 32, 149, 149));
    assertThat(G.tensor("Conv2d_2a_3x3.relu").shape()).isEqualTo(Shape.of(1, 32, 147, 147));
    assertThat(G.tensor("Conv2d_2b_3x3.relu").shape()).isEqualTo(Shape.of(1, 64, 147, 147));
    assertThat(G.tensor("maxpool1").shape()).isEqualTo(Shape.of(1, 64, 73, 73));
    assertThat(G.tensor("Conv2d_4a_3x3.relu").shape()).isEqualTo(Shape.of(1, 192, 71, 71));
    assertThat(G.tensor("maxpool2").shape()).isEqualTo(Shape.of(1, 192, 35, 35));
    assertThat(G.tensor("Mixed_5b.concat").shape()).isEqualTo(Shape.of(1, 256, 35, 35));
    assertThat(G.tensor("Mixed_5d.concat").shape()).isEqualTo(Shape.of(1, 288, 35, 35));
    assertThat(G.tensor("Mixed_6a.concat").shape()).isEqualTo(Shape.of(1, 768, 17, 17));
    assertThat(G.tensor("Mixed_6e.concat").shape()).isEqualTo(Shape.of(1, 768, 17, 17));
    assertThat(G.tensor("Mixed_7a.concat").shape()).isEqualTo(Shape.of(1, 1280, 8, 8));
    assertThat(G.tensor("Mixed_7c.concat").shape()).isEqualTo(Shape.of(1, 2048, 8, 8));
    assertThat(G.outputs()).containsExactly("fc");
    assertThat(G.tensor("fc").shape()).isEqualTo(Shape.of(1, 1000));
  }

  @Test
  void factorizedConvolutions() {
    assertThat(G.tensor("Mixed_6b.branch7x7_2.conv.weight").shape())
        .isEqualTo(Shape.of(128, 128, 1, 7));
    assertThat(G.tensor("Mixed_6b.branch7x7_3.conv.weight").shape())
        .isEqualTo(Shape.of(192, 128, 7, 1));
    assertThat(G.op("Mixed_6b.branch7x7_3.conv").attributes().getInts("pads", null))
        .containsExactly(3, 0, 3, 0);
    assertThat(G.tensor("Mixed_7b.branch3x3.concat").shape()).isEqualTo(Shape.of(1, 768, 8, 8));
    assertThat(G.op("Mixed_5b.avg_pool").attributes().getInt("count_include_pad", 0)).isEqualTo(1);
    // 94 BasicConv2d: stem 5, 3 x 7 (A), 4 (B), 4 x 10 (C), 6 (D), 2 x 9 (E)
    assertThat(count(G, OpKind.CONV)).isEqualTo(5 + 21 + 4 + 40 + 6 + 18);
  }

  @Test
  void registered() {
    assertThat(Models.get("inception-v3")).isInstanceOf(InceptionV3.class);
  }
}
