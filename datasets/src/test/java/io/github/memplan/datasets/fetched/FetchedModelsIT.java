package io.github.memplan.datasets.fetched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.datasets.json.GraphJson;
import io.github.memplan.datasets.tflite.TfliteImport;
import io.github.memplan.datasets.tflite.TfliteImporter;
import io.github.memplan.datasets.tflite.UnsupportedTfliteException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The real npm files, when {@code scripts/fetch-models.sh} has fetched them (skipped otherwise):
 * the TFLite shape oracle (every op's computed output shape and type against the file's) over every
 * .tflite file that imports, and for every file of the manifest the state its zoo flag claims: a
 * listed one imports (and round-trips through graph JSON), an unlisted one is refused with one
 * line.
 */
class FetchedModelsIT {
  private static List<FetchedModel> present() {
    Path cache = ModelCache.dir();
    List<FetchedModel> out = new ArrayList<>();
    for (FetchedModel m : FetchedModels.manifest()) {
      if (Files.isRegularFile(m.path(cache))) {
        out.add(m);
      }
    }
    Assumptions.assumeFalse(
        out.isEmpty(),
        "no fetched model in " + cache + ": run scripts/fetch-models.sh (CI's .ci/run does)");
    return out;
  }

  /**
   * The oracle: each op's output shape, put back in NHWC, equals the shape the file stores, in
   * every dim (in the static dims only where the manifest resizes an input), and so does its type.
   */
  @TestFactory
  Stream<DynamicTest> tfliteShapesMatchTheFile() {
    List<DynamicTest> tests = new ArrayList<>();
    for (FetchedModel m : present()) {
      if (!m.format().equals("tflite") || !m.zoo()) {
        continue;
      }
      tests.add(
          DynamicTest.dynamicTest(
              m.name(),
              () -> {
                Path file = m.path(ModelCache.dir());
                assertThat(FetchedModels.sha256(file)).isEqualTo(m.sha256());
                TfliteImport r = TfliteImporter.read(file, m.inputShapes(), m.name());
                assertThat(r.checks()).isNotEmpty();
                boolean allDims = m.inputShapes().isEmpty();
                for (TfliteImport.ShapeCheck c : r.checks()) {
                  assertThat(c.agrees(allDims)).as("%s: %s", m.name(), c).isTrue();
                }
                // one check per file operator's output: nothing skipped
                assertThat(r.checks().stream().map(TfliteImport.ShapeCheck::operator).distinct())
                    .hasSize(r.fileOperators());
              }));
    }
    return tests.stream();
  }

  /**
   * A file listed in the zoo imports (an ONNX one at the manifest's input shapes, with its input
   * values bound); one left out is refused in one line, naming the file.
   */
  @TestFactory
  Stream<DynamicTest> everyFileIsAsItsZooFlagSays() {
    List<DynamicTest> tests = new ArrayList<>();
    for (FetchedModel m : present()) {
      tests.add(
          DynamicTest.dynamicTest(
              m.name(),
              () -> {
                Path file = m.path(ModelCache.dir());
                if (m.zoo()) {
                  Graph g = FetchedModels.load(m, file);
                  assertThat(g.ops()).isNotEmpty();
                  if (m.format().equals("onnx")) {
                    // imported at the manifest's input shapes (its input values fold If nodes)
                    m.inputShapes()
                        .forEach(
                            (input, dims) ->
                                assertThat(g.tensor(input).shape().dims())
                                    .as("%s: input %s", m.name(), input)
                                    .containsExactly(dims));
                  }
                  // the graph JSON image is lossless for it too
                  String json = GraphJson.toJson(g);
                  assertThat(GraphJson.toJson(GraphJson.parse(m.name() + ".json", json)))
                      .isEqualTo(json);
                } else {
                  // when an importer learns to read it, set its zoo column to yes
                  assertThatThrownBy(() -> FetchedModels.load(m, file))
                      .isInstanceOf(IllegalArgumentException.class)
                      .satisfies(
                          e ->
                              assertThat(e.getMessage())
                                  .contains(file.toString())
                                  .doesNotContain("\n"));
                }
              }));
    }
    return tests.stream();
  }

  /** The .tflite file left out (oww-hey-jarvis, an IF) names its unsupported operator. */
  @TestFactory
  Stream<DynamicTest> unsupportedTfliteOperatorsAreNamed() {
    List<DynamicTest> tests = new ArrayList<>();
    for (FetchedModel m : present()) {
      if (m.format().equals("tflite") && !m.zoo()) {
        tests.add(
            DynamicTest.dynamicTest(
                m.name(),
                () ->
                    assertThatThrownBy(() -> FetchedModels.load(m, m.path(ModelCache.dir())))
                        .isInstanceOf(UnsupportedTfliteException.class)
                        .hasMessageContaining("has no memplan op")));
      }
    }
    return tests.stream();
  }
}
