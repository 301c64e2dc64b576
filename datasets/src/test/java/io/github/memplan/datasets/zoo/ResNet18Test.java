package io.github.memplan.datasets.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Schedule;
import io.github.memplan.core.ir.Shape;
import org.junit.jupiter.api.Test;

class ResNet18Test {
  private final Graph g = new ResNet18().build();

  @Test
  void parameterCountMatchesTorchvision() {
    assertThat(g.parameterCount()).isEqualTo(11_689_512L);
  }

  @Test
  void outputIsOneThousandLogits() {
    assertThat(g.inputs()).containsExactly("input");
    assertThat(g.outputs()).containsExactly("fc");
    assertThat(g.tensor("fc").shape()).isEqualTo(Shape.of(1, 1000));
  }

  @Test
  void stageShapesFollowTable1() {
    assertThat(g.tensor("relu").shape()).isEqualTo(Shape.of(1, 64, 112, 112));
    assertThat(g.tensor("maxpool").shape()).isEqualTo(Shape.of(1, 64, 56, 56));
    assertThat(g.tensor("layer1.1.relu2").shape()).isEqualTo(Shape.of(1, 64, 56, 56));
    assertThat(g.tensor("layer2.1.relu2").shape()).isEqualTo(Shape.of(1, 128, 28, 28));
    assertThat(g.tensor("layer3.1.relu2").shape()).isEqualTo(Shape.of(1, 256, 14, 14));
    assertThat(g.tensor("layer4.1.relu2").shape()).isEqualTo(Shape.of(1, 512, 7, 7));
    assertThat(g.tensor("avgpool").shape()).isEqualTo(Shape.of(1, 512, 1, 1));
  }

  @Test
  void layerCountsAndRoles() {
    // 17 convs of the 18 weight layers + 3 projection shortcuts; the 18th weight layer is fc
    assertThat(g.ops().stream().filter(o -> o.kind() == OpKind.CONV)).hasSize(20);
    assertThat(g.ops().stream().filter(o -> o.kind() == OpKind.GEMM)).hasSize(1);
    assertThat(g.ops().stream().filter(o -> o.kind() == OpKind.ADD)).hasSize(8);
    assertThat(g.op("layer1.0.add").inputs()).containsExactly("layer1.0.bn2", "maxpool");
    assertThat(g.op("layer2.0.add").inputs())
        .containsExactly("layer2.0.bn2", "layer2.0.downsample.1");
    assertThat(g.tensor("layer2.0.downsample.0.weight").shape()).isEqualTo(Shape.of(128, 64, 1, 1));
    assertThat(g.tensor("bn1.running_mean").role()).isEqualTo(Role.CONSTANT);
    assertThat(g.tensor("bn1.weight").role()).isEqualTo(Role.WEIGHT);
    assertThat(g.op("conv1").inputs()).hasSize(2);
  }

  @Test
  void insertionOrderIsASchedule() {
    assertThat(Schedule.topological(g))
        .extracting(Op::name)
        .containsExactlyElementsOf(g.ops().stream().map(Op::name).toList());
  }
}
