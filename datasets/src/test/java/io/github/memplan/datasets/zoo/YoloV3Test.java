package io.github.memplan.datasets.zoo;

import static io.github.memplan.datasets.zoo.ZooGraphs.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import org.junit.jupiter.api.Test;

class YoloV3Test {
  private static final Graph G = new YoloV3().build();

  @Test
  void parameterCountMatchesDarknetWeights() {
    // Ultralytics's PyTorch port and Keras's port both report 61,949,149 (models.md §4: 61.95 M)
    assertThat(G.parameterCount()).isEqualTo(61_949_149L);
  }

  @Test
  void macsAreHalfOfDarknetsFlops() {
    // "Floating Point Operations" printed by `darknet ops cfg/yolov3.cfg` (Debian's darknet
    // 0.0.0+git20180914), which counts 2 x the conv layers' MACs: 65,864,075,264 with width and
    // height set to 416 (the YOLOv3 release's "65.86 Bn"), 140,691,900,416 at the cfg's 608
    assertThat(2 * Macs.of(G)).isEqualTo(65_864_075_264L);
    Graph big = new YoloV3(1, 608).build();
    assertThat(2 * Macs.of(big)).isEqualTo(140_691_900_416L);
    assertThat(big.parameterCount()).isEqualTo(61_949_149L);
  }

  @Test
  void headsAtThreeScales() {
    assertThat(G.outputs()).containsExactly("layer81.conv", "layer93.conv", "layer105.conv");
    assertThat(G.tensor("layer81.conv").shape()).isEqualTo(Shape.of(1, 255, 13, 13));
    assertThat(G.tensor("layer93.conv").shape()).isEqualTo(Shape.of(1, 255, 26, 26));
    assertThat(G.tensor("layer105.conv").shape()).isEqualTo(Shape.of(1, 255, 52, 52));
  }

  @Test
  void darknetLayerShapes() {
    // the layer table `darknet ops` prints for cfg/yolov3.cfg at 416x416
    assertThat(G.tensor("layer1.leaky").shape()).isEqualTo(Shape.of(1, 64, 208, 208));
    assertThat(G.tensor("layer4.shortcut").shape()).isEqualTo(Shape.of(1, 64, 208, 208));
    assertThat(G.tensor("layer36.shortcut").shape()).isEqualTo(Shape.of(1, 256, 52, 52));
    assertThat(G.tensor("layer61.shortcut").shape()).isEqualTo(Shape.of(1, 512, 26, 26));
    assertThat(G.tensor("layer74.shortcut").shape()).isEqualTo(Shape.of(1, 1024, 13, 13));
    assertThat(G.tensor("layer85.upsample").shape()).isEqualTo(Shape.of(1, 256, 26, 26));
    assertThat(G.op("layer86.route").inputs())
        .containsExactly("layer85.upsample", "layer61.shortcut");
    assertThat(G.tensor("layer86.route").shape()).isEqualTo(Shape.of(1, 768, 26, 26));
    assertThat(G.op("layer84.conv").inputs().get(0)).isEqualTo("layer79.leaky");
    assertThat(G.op("layer96.conv").inputs().get(0)).isEqualTo("layer91.leaky");
    assertThat(G.tensor("layer98.route").shape()).isEqualTo(Shape.of(1, 384, 52, 52));
    assertThat(G.op("layer4.shortcut").inputs()).containsExactly("layer3.leaky", "layer1.leaky");
  }

  @Test
  void layerCounts() {
    // 75 convs, 23 shortcuts, 2 upsamples, 2 two-layer routes
    assertThat(count(G, OpKind.CONV)).isEqualTo(75);
    assertThat(count(G, OpKind.BATCH_NORMALIZATION)).isEqualTo(72);
    assertThat(count(G, OpKind.LEAKY_RELU)).isEqualTo(72);
    assertThat(count(G, OpKind.ADD)).isEqualTo(23);
    assertThat(count(G, OpKind.RESIZE)).isEqualTo(2);
    assertThat(count(G, OpKind.CONCAT)).isEqualTo(2);
    assertThat(G.op("layer0.leaky").attributes().getFloat("alpha", 0)).isEqualTo(0.1);
  }

  @Test
  void sizeMustBeAMultipleOf32() {
    assertThatThrownBy(() -> new YoloV3(1, 400))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("yolov3: input size 400 must be a multiple of 32");
  }

  @Test
  void registered() {
    assertThat(Models.get("yolov3")).isInstanceOf(YoloV3.class);
  }
}
