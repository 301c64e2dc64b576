package io.github.memplan.datasets.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Schedule;
import io.github.memplan.core.ir.Shape;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Properties every image builder of the zoo shares: batch and input size are parameters. */
class ImageZooTest {
  static Stream<Arguments> builders() {
    return Stream.of(
        builder("resnet18", 224, (n, s) -> new ResNet(18, n, s)),
        builder("resnet34", 224, (n, s) -> new ResNet(34, n, s)),
        builder("resnet50", 224, (n, s) -> new ResNet(50, n, s)),
        builder("resnet101", 224, (n, s) -> new ResNet(101, n, s)),
        builder("mobilenetv1", 224, MobileNetV1::new),
        builder("squeezenet1.0", 224, SqueezeNet::new),
        builder("vgg16", 224, Vgg16::new),
        builder("densenet121", 224, DenseNet121::new),
        builder("shufflenetv2", 224, ShuffleNetV2::new),
        builder("efficientnet-b0", 224, EfficientNetB0::new),
        builder("inception-v3", 299, InceptionV3::new),
        builder("unet", 572, UNet::new),
        builder("yolov3", 416, YoloV3::new),
        builder("yolov5s", 640, YoloV5s::new));
  }

  private static Arguments builder(
      String id, long size, BiFunction<Long, Long, ModelProvider> factory) {
    return Arguments.of(id, size, factory);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("builders")
  void entryIsBatchOneAtTheStandardSizeAndBatchTwoDoublesTheWork(
      String id, long size, BiFunction<Long, Long, ModelProvider> factory) {
    ModelProvider entry = Models.get(id);
    assertThat(entry.getClass()).isAssignableTo(factory.apply(1L, size).getClass());
    assertThat(entry.description())
        .isEqualTo(factory.apply(1L, size).description())
        .contains("1x", "x" + size + ",");
    Graph one = entry.build();
    Shape input = one.tensor(one.inputs().get(0)).shape();
    assertThat(input.rank()).isEqualTo(4);
    assertThat(input.dim(0)).isEqualTo(1);
    assertThat(input.dim(2)).isEqualTo(size);
    assertThat(input.dim(3)).isEqualTo(size);
    assertThat(Schedule.topological(one))
        .extracting(Op::name)
        .containsExactlyElementsOf(one.ops().stream().map(Op::name).toList());

    Graph two = factory.apply(2L, size).build();
    assertThat(two.parameterCount()).isEqualTo(one.parameterCount());
    assertThat(Macs.of(two)).isEqualTo(2 * Macs.of(one));
    assertThat(two.ops()).hasSameSizeAs(one.ops());
    assertThat(two.tensor(two.inputs().get(0)).shape()).isEqualTo(input.with(0, 2));
    for (String t : two.outputs()) {
      assertThat(two.tensor(t).shape()).isEqualTo(one.tensor(t).shape().with(0, 2));
    }
  }
}
