package io.github.memplan.datasets.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.Models;
import org.junit.jupiter.api.Test;

class ZooTest {
  @Test
  void serviceLoaderFindsTheZoo() {
    assertThat(Models.all())
        .extracting(ModelProvider::name)
        .contains(
            "bert-base",
            "bert-base-384",
            "crnn",
            "densenet121",
            "efficientnet-b0",
            "gpt2",
            "inception-v3",
            "mobilenetv1",
            "mobilenetv2",
            "resnet101",
            "resnet18",
            "resnet34",
            "resnet50",
            "shufflenetv2",
            "squeezenet1.0",
            "unet",
            "vgg16",
            "vit-b16",
            "whisper-tiny-encoder",
            "yolov3",
            "yolov5s");
    assertThat(Models.get("resnet18")).isInstanceOf(ResNet18.class);
    assertThat(Models.get("mobilenetv2")).isInstanceOf(MobileNetV2.class);
    assertThat(Models.get("bert-base")).isInstanceOf(BertBase.class);
    assertThat(Models.get("bert-base-384")).isInstanceOf(BertBase.Seq384.class);
    assertThat(Models.get("gpt2")).isInstanceOf(Gpt2.class);
    assertThat(Models.get("vit-b16")).isInstanceOf(VitB16.class);
    assertThat(Models.get("whisper-tiny-encoder")).isInstanceOf(WhisperTinyEncoder.class);
    assertThat(Models.get("crnn")).isInstanceOf(Crnn.class);
  }

  @Test
  void everyModelDescribesItselfAndBuildsUnderItsName() {
    for (ModelProvider p : Models.all()) {
      // file-safe: lower case, digits, '-' and '.' (squeezenet1.0)
      assertThat(p.name()).matches("[a-z0-9][a-z0-9.-]*");
      assertThat(p.description()).isNotBlank();
      assertThat(p.citation()).isNotBlank();
      assertThat(p.build().name()).isEqualTo(p.name());
    }
  }

  @Test
  void unknownModelListsTheKnownOnes() {
    assertThatThrownBy(() -> Models.get("resnet1000"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown model 'resnet1000'")
        .hasMessageContaining("resnet18");
  }
}
