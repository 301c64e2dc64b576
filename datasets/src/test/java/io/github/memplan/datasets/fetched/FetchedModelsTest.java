package io.github.memplan.datasets.fetched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.Models;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The manifest of npm model files and the zoo source over the cache, without the real files. */
class FetchedModelsTest {
  /**
   * The manifest lists the 27 .tflite and 25 .onnx files of the 13 pinned packages (models.md's npm
   * count), each with a full SHA-256 and a name unique in the zoo.
   */
  @Test
  void manifestListsTheNpmFiles() {
    List<FetchedModel> all = FetchedModels.manifest();
    assertThat(all.stream().filter(m -> m.format().equals("tflite"))).hasSize(27);
    assertThat(all.stream().filter(m -> m.format().equals("onnx"))).hasSize(25);
    assertThat(all.stream().map(FetchedModel::pkg).distinct()).hasSize(13);
    Set<String> names = new HashSet<>();
    for (FetchedModel m : all) {
      assertThat(names.add(m.name())).as(m.name()).isTrue();
      assertThat(m.name()).matches("[a-z0-9][a-z0-9.-]*");
      assertThat(m.sha256()).as(m.name()).matches("[0-9a-f]{64}");
      assertThat(m.description()).isNotBlank();
    }
    for (ModelProvider p : Models.all()) {
      if (!FetchedModels.isFetched(p)) {
        assertThat(names).as("zoo name %s", p.name()).doesNotContain(p.name());
      }
    }
  }

  /** npm pack's tarball name, which is the package's cache folder. */
  @Test
  void packageFolderIsTheTarballName() {
    FetchedModel scoped = model("@mediapipe/pose@0.5.1675469404", "pose_landmark_lite.tflite");
    assertThat(scoped.packageFolder()).isEqualTo("mediapipe-pose-0.5.1675469404");
    FetchedModel plain = model("jp.keijiro.mlsd@1.0.0", "ONNX/mlsd_320x320_tiny.onnx");
    assertThat(plain.packageFolder()).isEqualTo("jp.keijiro.mlsd-1.0.0");
    assertThat(plain.path(Path.of("/c")))
        .isEqualTo(Path.of("/c/jp.keijiro.mlsd-1.0.0/ONNX/mlsd_320x320_tiny.onnx"));
  }

  /**
   * The zoo lists an entry only when its file is in the cache and its row says zoo; building checks
   * the file's SHA-256 first.
   */
  @Test
  void listsCachedFilesAndChecksTheirSums(@TempDir Path cache) throws Exception {
    FetchedModel alexa =
        FetchedModels.manifest().stream()
            .filter(m -> m.name().equals("oww-alexa"))
            .findFirst()
            .orElseThrow();
    String before = System.getProperty("memplan.models");
    System.setProperty("memplan.models", cache.toString());
    try {
      assertThat(new FetchedModels().models()).isEmpty();
      Path file = alexa.path(cache);
      Files.createDirectories(file.getParent());
      Files.writeString(file, "not the model");
      List<ModelProvider> listed = new FetchedModels().models();
      assertThat(listed).extracting(ModelProvider::name).containsExactly("oww-alexa");
      assertThat(listed.get(0).source()).isEqualTo("tflite");
      assertThat(listed.get(0).family()).isEqualTo("openwakeword");
      assertThatThrownBy(() -> listed.get(0).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("differs from the " + alexa.sha256())
          .hasMessageContaining("run scripts/fetch-models.sh again");
    } finally {
      if (before == null) {
        System.clearProperty("memplan.models");
      } else {
        System.setProperty("memplan.models", before);
      }
    }
  }

  /**
   * The values column binds ONNX inputs as --input-value does (sr=16000 folds Silero's If nodes); a
   * TFLite row may not have one, and a row of the old 10-field form is refused.
   */
  @Test
  void inputValuesAreReadForOnnxRowsOnly() throws Exception {
    List<FetchedModel> ms =
        parse(
            "package\tp@1\t00\tMIT\n"
                + "model\tv\tonnx\tf\tv.onnx\t00\t-\tinput=1,512;state=2,1,128\tsr=16000\tyes\td\n"
                + "model\tw\tonnx\tf\tw.onnx\t00\t-\t-\t-\tno\td\n");
    assertThat(ms.get(0).inputShapes().get("state")).containsExactly(2, 1, 128);
    assertThat(ms.get(0).inputValues()).isEqualTo(Map.of("sr", List.of("16000")));
    assertThat(ms.get(1).inputValues()).isEmpty();
    assertThat(ms.get(1).zoo()).isFalse();
    assertThatThrownBy(
            () ->
                parse(
                    "package\tp@1\t00\tMIT\n"
                        + "model\tt\ttflite\tf\tt.tflite\t00\t-\t-\tsr=16000\tyes\td\n"))
        .hasMessage("models.tsv line 2: input values are for ONNX files, not tflite");
    assertThatThrownBy(
            () -> parse("package\tp@1\t00\tMIT\nmodel\ta\tonnx\tf\tx\t00\t-\t-\tyes\td\n"))
        .hasMessage("models.tsv line 2: 10 fields, expected 11");
  }

  /** Every Silero VAD file is listed with the sample rate its package feeds it (but 'half'). */
  @Test
  void sileroFilesCarryTheirSampleRate() {
    List<FetchedModel> silero =
        FetchedModels.manifest().stream().filter(m -> m.family().equals("silero")).toList();
    assertThat(silero).hasSize(6).allMatch(FetchedModel::zoo);
    for (FetchedModel m : silero) {
      assertThat(m.inputShapes()).as(m.name()).containsKey("input");
      assertThat(m.inputValues())
          .as(m.name())
          .isEqualTo(
              m.name().equals("silero-vad-half") ? Map.of() : Map.of("sr", List.of("16000")));
    }
  }

  @Test
  void malformedManifestRowsAreRefused() {
    assertThatThrownBy(() -> parse("model\ta\ttflite\tf\tx\t00\t-\t-\t-\tyes\td\n"))
        .hasMessage("models.tsv line 1: a model before any package");
    assertThatThrownBy(() -> parse("package\tp@1\t00\n"))
        .hasMessage("models.tsv line 1: 3 fields, expected 4");
    assertThatThrownBy(() -> parse("pkg\tp@1\t00\tMIT\n"))
        .hasMessage("models.tsv line 1: unknown row kind 'pkg'");
  }

  private static List<FetchedModel> parse(String text) throws Exception {
    return FetchedModels.parse(new BufferedReader(new StringReader(text)));
  }

  private static FetchedModel model(String pkg, String file) {
    return new FetchedModel(
        "m", "tflite", "f", pkg, "MIT", file, "0".repeat(64), Map.of(), Map.of(), true, "d");
  }
}
