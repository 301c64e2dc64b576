package io.github.memplan.datasets.zoo;

import static io.github.memplan.datasets.zoo.ZooGraphs.count;
import static io.github.memplan.datasets.zoo.ZooGraphs.parametersUnder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import org.junit.jupiter.api.Test;

class UNetTest {
  private static final Graph G = new UNet().build();

  @Test
  void parameterCountIsTheSumOverFigure1() {
    assertThat(G.parameterCount()).isEqualTo(31_030_658L);
    // by hand: 3*3*1*64 + 64; 2*2*1024*512 + 512 (ConvTranspose weights are [in, out, k, k]);
    // 64*2 + 2
    assertThat(parametersUnder(G, "down1.conv1")).isEqualTo(640L);
    assertThat(parametersUnder(G, "up4.upconv")).isEqualTo(2_097_664L);
    assertThat(G.tensor("up4.upconv.weight").shape()).isEqualTo(Shape.of(1024, 512, 2, 2));
    assertThat(parametersUnder(G, "final")).isEqualTo(130L);
  }

  @Test
  void mapSizesFollowFigure1() {
    assertThat(G.tensor("input").shape()).isEqualTo(Shape.of(1, 1, 572, 572));
    assertThat(G.tensor("down1.relu1").shape()).isEqualTo(Shape.of(1, 64, 570, 570));
    assertThat(G.tensor("down1.relu2").shape()).isEqualTo(Shape.of(1, 64, 568, 568));
    assertThat(G.tensor("down1.pool").shape()).isEqualTo(Shape.of(1, 64, 284, 284));
    assertThat(G.tensor("down2.relu2").shape()).isEqualTo(Shape.of(1, 128, 280, 280));
    assertThat(G.tensor("down3.relu2").shape()).isEqualTo(Shape.of(1, 256, 136, 136));
    assertThat(G.tensor("down4.relu2").shape()).isEqualTo(Shape.of(1, 512, 64, 64));
    assertThat(G.tensor("down5.relu2").shape()).isEqualTo(Shape.of(1, 1024, 28, 28));
    assertThat(G.tensor("up4.upconv").shape()).isEqualTo(Shape.of(1, 512, 56, 56));
    assertThat(G.tensor("up4.crop").shape()).isEqualTo(Shape.of(1, 512, 56, 56));
    assertThat(G.tensor("up4.concat").shape()).isEqualTo(Shape.of(1, 1024, 56, 56));
    assertThat(G.tensor("up4.relu2").shape()).isEqualTo(Shape.of(1, 512, 52, 52));
    assertThat(G.tensor("up3.relu2").shape()).isEqualTo(Shape.of(1, 256, 100, 100));
    assertThat(G.tensor("up2.relu2").shape()).isEqualTo(Shape.of(1, 128, 196, 196));
    assertThat(G.tensor("up1.concat").shape()).isEqualTo(Shape.of(1, 128, 392, 392));
    assertThat(G.tensor("up1.relu2").shape()).isEqualTo(Shape.of(1, 64, 388, 388));
    assertThat(G.outputs()).containsExactly("final");
    assertThat(G.tensor("final").shape()).isEqualTo(Shape.of(1, 2, 388, 388));
  }

  @Test
  void cropsAreCentered() {
    // 568 -> 392: (568 - 392) / 2 = 88 on each side
    assertThat(G.op("up1.crop").attributes().getInts("starts", null)).containsExactly(88, 88);
    assertThat(G.op("up1.crop").attributes().getInts("ends", null)).containsExactly(480, 480);
    assertThat(G.op("up1.crop").inputs()).containsExactly("down1.relu2");
    assertThat(G.op("up1.concat").inputs()).containsExactly("up1.crop", "up1.upconv");
  }

  @Test
  void layerCounts() {
    // 23 convolutional layers (Section 3): 18 3x3 convs, 4 up-convs, the 1x1 conv
    assertThat(count(G, OpKind.CONV) + count(G, OpKind.CONV_TRANSPOSE)).isEqualTo(23);
    assertThat(count(G, OpKind.CONV_TRANSPOSE)).isEqualTo(4);
    assertThat(count(G, OpKind.MAX_POOL)).isEqualTo(4);
    assertThat(count(G, OpKind.SLICE)).isEqualTo(4);
    assertThat(count(G, OpKind.BATCH_NORMALIZATION)).isZero();
  }

  @Test
  void otherValidSizes() {
    Graph g = new UNet(2, 188).build();
    assertThat(g.tensor("down5.relu2").shape()).isEqualTo(Shape.of(2, 1024, 4, 4));
    assertThat(g.tensor("final").shape()).isEqualTo(Shape.of(2, 2, 4, 4));
    assertThatThrownBy(() -> new UNet(1, 570))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unet: input size 570");
    assertThatThrownBy(() -> new UNet(1, 172))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unet: input size 172");
  }

  @Test
  void registered() {
    assertThat(Models.get("unet")).isInstanceOf(UNet.class);
  }
}
