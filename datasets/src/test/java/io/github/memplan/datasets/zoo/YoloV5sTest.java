package io.github.memplan.datasets.zoo;

import static io.github.memplan.datasets.zoo.ZooGraphs.count;
import static io.github.memplan.datasets.zoo.ZooGraphs.parametersUnder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Shape;
import org.junit.jupiter.api.Test;

class YoloV5sTest {
  private static final Graph G = new YoloV5s().build();

  @Test
  void parameterCountMatchesUltralyticsSummary() {
    // "YOLOv5s summary: 214 layers, 7235389 parameters" (unfused, nc=80)
    assertThat(G.parameterCount()).isEqualTo(7_235_389L);
  }

  @Test
  void moduleParametersMatchUltralyticsSummary() {
    // the per-module "params" column Ultralytics prints when it builds yolov5s.yaml
    assertThat(parametersUnder(G, "model.0.")).isEqualTo(3_520L);
    assertThat(parametersUnder(G, "model.2.")).isEqualTo(18_816L);
    assertThat(parametersUnder(G, "model.4.")).isEqualTo(115_712L);
    assertThat(parametersUnder(G, "model.6.")).isEqualTo(625_152L);
    assertThat(parametersUnder(G, "model.8.")).isEqualTo(1_182_720L);
    assertThat(parametersUnder(G, "model.9.")).isEqualTo(656_896L);
    assertThat(parametersUnder(G, "model.13.")).isEqualTo(361_984L);
    assertThat(parametersUnder(G, "model.17.")).isEqualTo(90_880L);
    assertThat(parametersUnder(G, "model.20.")).isEqualTo(296_448L);
    assertThat(parametersUnder(G, "model.23.")).isEqualTo(1_182_720L);
    assertThat(parametersUnder(G, "model.24.")).isEqualTo(229_245L);
  }

  @Test
  void macsAreHalfOfTheReadmeFlops() {
    // models.md §6 and Ultralytics's README: 16.5 GFLOPs = 2 x MACs at 640x640
    assertThat(2.0 * Macs.of(G)).isCloseTo(16.5e9, withinPercentage(1));
  }

  @Test
  void backboneAndNeckShapes() {
    assertThat(G.tensor("model.0.act").shape()).isEqualTo(Shape.of(1, 32, 320, 320));
    assertThat(G.tensor("model.2.cv3.act").shape()).isEqualTo(Shape.of(1, 64, 160, 160));
    assertThat(G.tensor("model.4.cv3.act").shape()).isEqualTo(Shape.of(1, 128, 80, 80));
    assertThat(G.tensor("model.6.cv3.act").shape()).isEqualTo(Shape.of(1, 256, 40, 40));
    assertThat(G.tensor("model.9.concat").shape()).isEqualTo(Shape.of(1, 1024, 20, 20));
    assertThat(G.tensor("model.9.cv2.act").shape()).isEqualTo(Shape.of(1, 512, 20, 20));
    assertThat(G.tensor("model.12").shape()).isEqualTo(Shape.of(1, 512, 40, 40));
    assertThat(G.tensor("model.17.cv3.act").shape()).isEqualTo(Shape.of(1, 128, 80, 80));
    assertThat(G.tensor("model.20.cv3.act").shape()).isEqualTo(Shape.of(1, 256, 40, 40));
    assertThat(G.tensor("model.23.cv3.act").shape()).isEqualTo(Shape.of(1, 512, 20, 20));
    assertThat(G.op("model.12").inputs()).containsExactly("model.11", "model.6.cv3.act");
    assertThat(G.op("model.22").inputs()).containsExactly("model.21.act", "model.10.act");
  }

  @Test
  void c3RepeatsAndShortcuts() {
    // depth 0.33: 3, 6, 9, 3 backbone repeats become 1, 2, 3, 1; only backbone C3s add
    assertThat(G.ops().stream().filter(o -> o.name().matches("model\\.6\\.m\\.\\d+\\.cv2\\.conv")))
        .hasSize(3);
    assertThat(count(G, OpKind.ADD) - 3).isEqualTo(1 + 2 + 3 + 1);
    assertThat(G.op("model.13.cv3.conv").inputs().get(0)).isEqualTo("model.13.concat");
    assertThat(G.op("model.13.concat").inputs())
        .containsExactly("model.13.m.0.cv2.act", "model.13.cv2.act");
  }

  @Test
  void detectDecodesThreeLevels() {
    assertThat(G.outputs()).containsExactly("model.24.concat");
    assertThat(G.tensor("model.24.concat").shape()).isEqualTo(Shape.of(1, 25200, 85));
    assertThat(G.tensor("model.24.m.0").shape()).isEqualTo(Shape.of(1, 255, 80, 80));
    assertThat(G.tensor("model.24.0.permute").shape()).isEqualTo(Shape.of(1, 3, 80, 80, 85));
    assertThat(G.tensor("model.24.2.permute").shape()).isEqualTo(Shape.of(1, 3, 20, 20, 85));
    assertThat(G.tensor("model.24.1.conf").shape()).isEqualTo(Shape.of(1, 3, 40, 40, 81));
    assertThat(G.tensor("model.24.1.wh.scale").shape()).isEqualTo(Shape.of(1, 3, 40, 40, 2));
    assertThat(G.tensor("model.24.0.flatten").shape()).isEqualTo(Shape.of(1, 19200, 85));
    assertThat(G.tensor("model.24.0.grid").role()).isEqualTo(Role.CONSTANT);
    assertThat(G.tensor("model.24.0.anchor_grid").shape()).isEqualTo(Shape.of(1, 3, 80, 80, 2));
    assertThat(count(G, OpKind.SIGMOID)).isEqualTo(3);
    assertThat(count(G, OpKind.POW)).isEqualTo(3);
  }

  @Test
  void batchAndSize() {
    Graph g = new YoloV5s(2, 320).build();
    assertThat(g.tensor("model.24.concat").shape()).isEqualTo(Shape.of(2, 6300, 85));
    assertThat(g.parameterCount()).isEqualTo(7_235_389L);
    assertThatThrownBy(() -> new YoloV5s(1, 300))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("yolov5s: input size 300 must be a multiple of 32");
  }

  @Test
  void registered() {
    assertThat(Models.get("yolov5s")).isInstanceOf(YoloV5s.class);
  }
}
