package io.github.memplan.datasets.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.ir.Attr;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.datasets.fetched.FetchedModels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphJsonTest {
  @TempDir Path dir;

  static void assertSameGraph(Graph back, Graph g) {
    assertThat(back.name()).isEqualTo(g.name());
    assertThat(List.copyOf(back.tensors().values()))
        .containsExactlyElementsOf(List.copyOf(g.tensors().values()));
    assertThat(back.ops()).containsExactlyElementsOf(g.ops());
    assertThat(back.inputs()).containsExactlyElementsOf(g.inputs());
    assertThat(back.outputs()).containsExactlyElementsOf(g.outputs());
  }

  @Test
  void everyZooModelRoundTrips() {
    List<ModelProvider> zoo = Models.all();
    assertThat(zoo).extracting(ModelProvider::name).contains("resnet18", "bert-base");
    for (ModelProvider p : zoo) {
      if (FetchedModels.isFetched(p)) {
        continue; // FetchedModelsIT round-trips those (present only where they were fetched)
      }
      Graph g = p.build();
      String text = GraphJson.toJson(g);
      Graph back = GraphJson.parse(p.name() + ".json", text);
      assertSameGraph(back, g);
      assertThat(GraphJson.toJson(back)).as(p.name()).isEqualTo(text);
    }
  }

  /** x [1,2] -> clip (float attrs, one infinite) -> reshape (ints) -> softmax (int) -> y. */
  static Graph typed() {
    Graph.Builder b = Graph.builder("typed");
    b.input("x", DType.F32, 1, 2);
    b.constant("c", DType.F16);
    b.weight("w", DType.F32, 2, 3);
    b.op(
        "clip",
        OpKind.CLIP,
        Attributes.builder().put("min", Double.NEGATIVE_INFINITY).put("max", 6.0).build(),
        "x");
    b.op("mm", OpKind.MAT_MUL, Attributes.empty(), "clip", "w");
    b.op(
        "resize",
        OpKind.RESIZE,
        Attributes.builder()
            .put("mode", "nearest")
            .put("scales", 1.0, 0.1 + 0.2)
            .put("axes", 0L, 1L)
            .build(),
        "mm");
    b.op("sm", OpKind.SOFTMAX, Attributes.builder().put("axis", 1L).build(), "resize");
    b.output("sm");
    b.output("clip");
    return b.build();
  }

  @Test
  void typedAttributesNonFiniteFloatsAndOrderSurvive() throws IOException {
    Graph g = typed();
    Path f = dir.resolve("typed.json");
    GraphJson.write(g, f);
    String text = Files.readString(f);
    assertThat(text)
        .contains("\"min\":{\"float\":\"-Infinity\"}")
        .contains("\"scales\":{\"floats\":[1.0,0.30000000000000004]}")
        .contains("\"axis\":{\"int\":1}")
        .contains("\"mode\":{\"string\":\"nearest\"}");
    // one tensor or op per line: 7 tensors, 4 ops
    assertThat(text.lines().filter(l -> l.startsWith("    {\"name\":\"")).count()).isEqualTo(7 + 4);
    Graph back = GraphJson.read(f);
    assertSameGraph(back, g);
    assertThat(back.op("resize").attributes().get("scales"))
        .contains(Attr.of(1.0, 0.30000000000000004));
    assertThat(back.outputs()).containsExactly("sm", "clip");
  }

  static final String SMALL =
      """
      {
        "format": "memplan-graph",
        "version": 1,
        "name": "small",
        "inputs": ["x"],
        "outputs": ["y"],
        "tensors": [
          {"name":"x","shape":[1,4],"dtype":"f32","role":"input"},
          {"name":"y","shape":[1,4],"dtype":"f32","role":"output"}
        ],
        "ops": [
          {"name":"y","kind":"Relu","inputs":["x"],"outputs":["y"],"attributes":{}}
        ]
      }
      """;

  static void assertFails(String text, String message) {
    assertThatThrownBy(() -> GraphJson.parse("g.json", text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void theSmallDocumentParses() {
    Graph g = GraphJson.parse("g.json", SMALL);
    assertThat(g.op("y").kind()).isEqualTo(OpKind.RELU);
    assertThat(g.outputs()).containsExactly("y");
  }

  @Test
  void aTensorBeyondTheByteBoundIsNamedWhereItIsDeclared() {
    // 2^39 x 4 bytes = 2^41 bytes, above TensorType.MAX_BYTES (2^40)
    assertFails(
        SMALL.replace(
            "\"shape\":[1,4],\"dtype\":\"f32\",\"role\":\"input\"",
            "\"shape\":[1,549755813888],\"dtype\":\"f32\",\"role\":\"input\""),
        "g.json:8:5: tensors[0]: graph 'small': tensor 'x' f32[1x549755813888] is 2199023255552"
            + " bytes; memplan plans tensors of at most 2^40 bytes (1 TiB)");
    // a weight and a constant likewise, at their own lines
    for (String role : new String[] {"weight", "constant"}) {
      assertFails(
          SMALL.replace(
              "{\"name\":\"y\",\"shape\"",
              "{\"name\":\"w\",\"shape\":[549755813888],\"dtype\":\"f32\",\"role\":\""
                  + role
                  + "\"},\n{\"name\":\"y\",\"shape\""),
          "g.json:9:5: tensors[1]: graph 'small': tensor 'w' f32[549755813888] is 2199023255552"
              + " bytes; memplan plans tensors of at most 2^40 bytes (1 TiB)");
    }
  }

  @Test
  void errorsNameTheLineColumnAndKey() {
    assertFails(
        SMALL.replace("\"role\":\"input\"}", "\"role\":\"input\"},,"),
        "g.json:8:61: malformed JSON: Unexpected character (',' (code 44)): expected a valid value"
            + " (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
    assertFails(
        SMALL.replace(
            "\"dtype\":\"f32\",\"role\":\"input\"", "\"dtype\":\"f33\",\"role\":\"input\""),
        "g.json:8:39: tensors[0].dtype: unknown dtype 'f33' (f64, f32, f16, bf16, i64, i32, i16,"
            + " i8, u8, i4, bool)");
    assertFails(
        SMALL.replace("{\"name\":\"x\",\"shape\"", "{\"name\":\"x\",\"shap\""),
        "g.json:8:24: tensors[0].shap: unknown key 'shap' (expected name, shape, dtype, role)");
    assertFails(
        SMALL.replace(
            "\"shape\":[1,4],\"dtype\":\"f32\",\"role\":\"output\"",
            "\"shape\":[1,5],\"dtype\":\"f32\",\"role\":\"output\""),
        "g.json:9:5: tensors[1]: tensor 'y' is declared f32[1x5] but its op computes f32[1x4]");
    assertFails(
        SMALL.replace("\"kind\":\"Relu\"", "\"kind\":\"Rellu\""),
        "g.json:12:24: ops[0].kind: unknown op kind 'Rellu'");
    assertFails(
        SMALL.replace("\"attributes\":{}", "\"attributes\":{\"alpha\":{\"int\":1.5}}"),
        "g.json:12:91: ops[0].attributes.alpha.int: expected an integer, got a number");
    assertFails(
        SMALL.replace("\"version\": 1", "\"version\": 2"),
        "g.json:3:14: version: version 2 is not supported (only 1)");
    assertFails(SMALL.replace("\"name\": \"small\",\n", ""), "g.json:1:1: missing key 'name'");
    assertFails(
        SMALL.replace("\"inputs\": [\"x\"]", "\"inputs\": [\"x\"], \"name\": \"again\""),
        "g.json:5:26: malformed JSON: Duplicate field 'name'");
    assertFails(
        SMALL.replace("\"outputs\": [\"y\"]", "\"outputs\": [\"x\"]"),
        "g.json:6:15: outputs[0]: 'x' is not a tensor of role output");
    assertFails(
        SMALL.replace("\"inputs\":[\"x\"],\"outputs\"", "\"inputs\":[\"z\"],\"outputs\""),
        "g.json:12:5: ops[0]: op 'y' (Relu) reads tensor 'z', which is not defined before it");
    assertFails("", "g.json:1:1: empty input, expected a JSON object");
  }
}
