package io.github.memplan.core.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Models} with sources registered through a class loader that only these tests use, so no
 * other module's tests see the fixtures.
 */
class ModelsTest {
  @TempDir Path dir;

  /** A model that builds a one-op graph named {@code name}. */
  record Tiny(String name) implements ModelProvider {
    @Override
    public String description() {
      return "tiny " + name;
    }

    @Override
    public String citation() {
      return "none (test fixture)";
    }

    @Override
    public Graph build() {
      Graph.Builder b = Graph.builder(name);
      b.input("x", DType.F32, 1, 4);
      b.op("y", OpKind.RELU, Attributes.empty(), "x");
      b.output("y");
      return b.build();
    }
  }

  /** Two models from one class. */
  public static final class TwoModels implements ModelSource {
    @Override
    public List<ModelProvider> models() {
      return List.of(new Tiny("zz-source-b"), new Tiny("zz-source-a"));
    }
  }

  /** A model whose name {@link TwoModels} also uses. */
  public static final class Clash implements ModelSource {
    @Override
    public List<ModelProvider> models() {
      return List.of(new Tiny("zz-source-a"));
    }
  }

  private <T> T withSources(Callable<T> body, Class<?>... sources) throws Exception {
    Path services = dir.resolve("META-INF/services");
    Files.createDirectories(services);
    StringBuilder sb = new StringBuilder();
    for (Class<?> c : sources) {
      sb.append(c.getName()).append('\n');
    }
    Files.writeString(services.resolve(ModelSource.class.getName()), sb.toString());
    Thread t = Thread.currentThread();
    ClassLoader saved = t.getContextClassLoader();
    try (URLClassLoader cl = new URLClassLoader(new URL[] {dir.toUri().toURL()}, saved)) {
      t.setContextClassLoader(cl);
      return body.call();
    } finally {
      t.setContextClassLoader(saved);
    }
  }

  @Test
  void aSourceContributesSeveralModelsSortedWithTheRest() throws Exception {
    List<String> names =
        withSources(() -> Models.all().stream().map(ModelProvider::name).toList(), TwoModels.class);
    assertThat(names).containsSubsequence("zz-source-a", "zz-source-b");
    assertThat(names).isSorted();
    ModelProvider a = withSources(() -> Models.get("zz-source-a"), TwoModels.class);
    assertThat(a.build().name()).isEqualTo("zz-source-a");
  }

  @Test
  void withoutSourcesTheFixturesAreAbsent() {
    assertThat(Models.all()).extracting(ModelProvider::name).doesNotContain("zz-source-a");
  }

  @Test
  void twoModelsOfOneNameAreAnError() {
    assertThatThrownBy(() -> withSources(Models::all, TwoModels.class, Clash.class))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("two models share the name 'zz-source-a'")
        .hasMessageContaining(Clash.class.getName());
  }

  @Test
  void unknownNameListsTheSourcesModelsToo() {
    assertThatThrownBy(() -> withSources(() -> Models.get("nope"), TwoModels.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown model 'nope'")
        .hasMessageContaining("zz-source-b");
  }

  @Test
  void familyAndSourceDefaults() {
    assertThat(new Tiny("resnet18").family()).isEqualTo("resnet");
    assertThat(new Tiny("resnet18").source()).isEqualTo("builder");
    assertThat(ModelProvider.familyOf("mobilenetv2")).isEqualTo("mobilenet");
    assertThat(ModelProvider.familyOf("yolov3-tiny")).isEqualTo("yolo");
    assertThat(ModelProvider.familyOf("bert-base")).isEqualTo("bert");
    assertThat(ModelProvider.familyOf("darknet19_448")).isEqualTo("darknet");
    assertThat(ModelProvider.familyOf("vgg-16")).isEqualTo("vgg");
    assertThat(ModelProvider.familyOf("unet")).isEqualTo("unet");
    assertThat(ModelProvider.familyOf("gpt2")).isEqualTo("gpt");
    assertThat(ModelProvider.familyOf("3d")).isEqualTo("3d");
  }
}
