package io.github.memplan.experiments.cli;

import static io.github.memplan.experiments.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.OperatorSetIdProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TensorShapeProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ONNX input options of every command that takes a model: {@code --input} shapes and {@code
 * --input-value} values, on small ONNX files written here with the ONNX protobuf classes.
 */
class InputOptionsTest {
  @TempDir Path dir;

  // ---------------------------------------------------------------- a small ONNX writer

  private static ValueInfoProto tensor(String name, int elemType, Object... dims) {
    TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
    for (Object d : dims) {
      TensorShapeProto.Dimension.Builder b = TensorShapeProto.Dimension.newBuilder();
      if (d instanceof Number n) {
        b.setDimValue(n.longValue());
      } else {
        b.setDimParam((String) d);
      }
      shape.addDim(b);
    }
    return ValueInfoProto.newBuilder()
        .setName(name)
        .setType(
            TypeProto.newBuilder()
                .setTensorType(TypeProto.Tensor.newBuilder().setElemType(elemType).setShape(shape)))
        .build();
  }

  private static NodeProto node(String op, List<String> in, String out, AttributeProto... a) {
    return NodeProto.newBuilder()
        .setOpType(op)
        .setName(out)
        .addAllInput(in)
        .addOutput(out)
        .addAllAttribute(List.of(a))
        .build();
  }

  private static AttributeProto graph(String name, GraphProto g) {
    return AttributeProto.newBuilder()
        .setName(name)
        .setType(AttributeProto.AttributeType.GRAPH)
        .setG(g)
        .build();
  }

  private Path write(String file, GraphProto.Builder g) throws IOException {
    ModelProto m =
        ModelProto.newBuilder()
            .setIrVersion(8)
            .addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(16))
            .setGraph(g.setName("g"))
            .build();
    Path p = dir.resolve(file);
    Files.write(p, m.toByteArray());
    return p;
  }

  private static final int FLOAT = 1;
  private static final int INT64 = 7;

  /**
   * Silero VAD's pattern: {@code If (sr == 16000)} then Relu(x) else Sigmoid(x), then Neg; x is F32
   * of {@code xDims}, sr an I64 scalar.
   */
  private Path ifOnSampleRate(Object... xDims) throws IOException {
    GraphProto thenBranch = branch("Relu", "t");
    GraphProto elseBranch = branch("Sigmoid", "e");
    GraphProto.Builder g =
        GraphProto.newBuilder()
            .addInput(tensor("x", FLOAT, xDims))
            .addInput(tensor("sr", INT64))
            .addInitializer(
                TensorProto.newBuilder().setName("k").setDataType(INT64).addInt64Data(16000))
            .addNode(node("Equal", List.of("sr", "k"), "cond"))
            .addNode(
                node(
                    "If",
                    List.of("cond"),
                    "y",
                    graph("then_branch", thenBranch),
                    graph("else_branch", elseBranch)))
            .addNode(node("Neg", List.of("y"), "z"))
            .addOutput(tensor("z", FLOAT));
    return write("vad.onnx", g);
  }

  /** A branch of one op on x. */
  private static GraphProto branch(String op, String out) {
    return GraphProto.newBuilder()
        .setName(out)
        .addNode(node(op, List.of("x"), out))
        .addOutput(tensor(out, FLOAT))
        .build();
  }

  private static List<String> kinds(JsonNode show) {
    List<String> out = new ArrayList<>();
    show.get("opList").forEach(o -> out.add(o.get("kind").asText()));
    return out;
  }

  // ---------------------------------------------------------------- --input-value

  @Test
  void anInputValueFoldsAnIfOnThatInputInEveryModelCommand() throws IOException {
    String vad = ifOnSampleRate(2L, 3L).toString();
    MainTest.Run none = run("zoo", "show", vad);
    assertThat(none.code()).isEqualTo(1);
    assertThat(none.err())
        .isEqualTo(
            "memplan: "
                + vad
                + ": node 'y' (If): condition 'cond' is computed at run time; memplan inlines only"
                + " an If whose condition is constant (it depends on input 'sr'); give its value"
                + " with --input-value sr=V\n");
    // sr = 16000 takes the then branch (Relu), 8000 the else branch (Sigmoid)
    assertThat(kinds(run("zoo", "show", vad, "--input-value", "sr=16000", "--json").json()))
        .containsExactly("Relu", "Neg");
    assertThat(kinds(run("zoo", "show", vad, "--input-value", "sr=8000", "--json").json()))
        .containsExactly("Sigmoid", "Neg");
    MainTest.Run export =
        run("zoo", "export", vad, "--input-value", "sr=16000", "--format", "json");
    assertThat(export.code()).isZero();
    assertThat(export.out()).contains("\"Relu\"").doesNotContain("\"Sigmoid\"");
    JsonNode gmem =
        run("gmem", "--model", vad, "--input-value", "sr=16000", "--planner", "naive", "--json")
            .json();
    assertThat(gmem.get("status").asText()).isIn("OPTIMAL", "FEASIBLE");
    MainTest.Run group =
        run("group", "--model", vad, "--input-value", "sr=16000", "--planner", "tpumlir-v0");
    assertThat(group.code()).as(group.err()).isZero();
  }

  @Test
  void inputValuesAreCheckedAndGivenOnce() throws IOException {
    String vad = ifOnSampleRate(2L, 3L).toString();
    MainTest.Run twice =
        run("zoo", "show", vad, "--input-value", "sr=16000", "--input-value", "sr=8000");
    assertThat(twice.code()).isEqualTo(1);
    assertThat(twice.err()).isEqualTo("memplan: --input-value gives input 'sr' twice\n");
    MainTest.Run notANumber = run("zoo", "show", vad, "--input-value", "sr=16k");
    assertThat(notANumber.err())
        .isEqualTo(
            "memplan: " + vad + ": input 'sr': value '16k' is not an integer (the input is I64)\n");
    MainTest.Run zoo = run("zoo", "show", "test-tiny", "--input-value", "x=1");
    assertThat(zoo.code()).isEqualTo(1);
    assertThat(zoo.err()).contains("--input-value applies to .onnx model files only");
  }

  // ---------------------------------------------------------------- messages

  @Test
  void everyDynamicInputIsNamedAtOnceWithTheOptionToGiveIt() throws IOException {
    // x [n, 3] and a second dynamic input m [?, ?] added to it: both are named, with --input
    GraphProto.Builder g =
        GraphProto.newBuilder()
            .addInput(tensor("x", FLOAT, "n", 3L))
            .addInput(tensor("m", FLOAT, "a", "b"))
            .addNode(node("Add", List.of("x", "m"), "y"))
            .addOutput(tensor("y", FLOAT));
    String two = write("two.onnx", g).toString();
    MainTest.Run r = run("gmem", "--model", two, "--planner", "naive");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            "memplan: "
                + two
                + ": inputs 'x' (?x3) and 'm' (?x?) have dynamic dims; give their shapes with"
                + " --input x=D0,3 --input m=D0,D1 (3 tensors have no static shape)\n");
    MainTest.Run one = run("gmem", "--model", two, "--input", "m=2,3", "--planner", "naive");
    assertThat(one.err())
        .isEqualTo(
            "memplan: "
                + two
                + ": input 'x' has dynamic dims ?x3; give its shape with --input x=D0,3 (2 tensors"
                + " have no static shape)\n");
    assertThat(
            run(
                    "gmem",
                    "--model",
                    two,
                    "--input",
                    "m=2,3",
                    "--input",
                    "x=2,3",
                    "--planner",
                    "naive")
                .code())
        .isZero();
  }

  @Test
  void aDirectoryIsNotAModelFile() throws IOException {
    Path d = Files.createDirectory(dir.resolve("x.onnx"));
    MainTest.Run r = run("zoo", "show", d.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("memplan: " + d + ": is a directory, not a .onnx model file\n");
    MainTest.Run missing = run("zoo", "show", dir.resolve("y.onnx").toString());
    assertThat(missing.err())
        .isEqualTo("memplan: " + dir.resolve("y.onnx") + ": no such file or directory\n");
  }

  // ---------------------------------------------------------------- bounded input sizes

  @Test
  void inputDimsArePositiveBoundedAndGivenOnce() throws IOException {
    String vad = ifOnSampleRate("n", 3L).toString();
    String[] fold = {"--input-value", "sr=16000"};
    // 99999999999 x 3 f32 = 1199999999988 bytes > 2^40 = 1099511627776
    MainTest.Run huge =
        run(concat(new String[] {"zoo", "show", vad, "--input", "x=99999999999,3"}, fold));
    assertThat(huge.code()).isEqualTo(1);
    assertThat(huge.err())
        .isEqualTo(
            "memplan: "
                + vad
                + ": input 'x' f32[99999999999x3] is 1199999999988 bytes; memplan plans tensors of"
                + " at most 2^40 bytes (1 TiB)\n");
    MainTest.Run zero = run(concat(new String[] {"zoo", "show", vad, "--input", "x=0,3"}, fold));
    assertThat(zero.code()).isEqualTo(1);
    assertThat(zero.err())
        .isEqualTo("memplan: input shape of 'x' has dim 0 = 0; dims must be positive\n");
    MainTest.Run twice =
        run(
            concat(
                new String[] {"zoo", "show", vad, "--input", "x=2,3", "--input", "x=4,3"}, fold));
    assertThat(twice.code()).isEqualTo(1);
    assertThat(twice.err()).isEqualTo("memplan: --input gives input 'x' twice\n");
    // the largest batch that fits: 91625968981 x 3 f32 = 1099511627772 bytes <= 2^40; one more
    // row is 1099511627784 bytes
    JsonNode edge =
        run(concat(new String[] {"zoo", "show", vad, "--input", "x=91625968981,3", "--json"}, fold))
            .json();
    assertThat(edge.get("inputs").get(0).get("shape").toString()).isEqualTo("[91625968981,3]");
    assertThat(
            run(concat(new String[] {"zoo", "show", vad, "--input", "x=91625968982,3"}, fold))
                .err())
        .contains("f32[91625968982x3] is 1099511627784 bytes");
  }

  /** The command: PP-OCRv4's detector at a batch far beyond any memory. */
  @Test
  void anOverflowingBatchOfARealModelIsOneLine() throws IOException {
    Path det = dir.resolve("det.onnx");
    try (var in = getClass().getResourceAsStream("/models/ch_PP-OCRv4_det_infer.onnx")) {
      org.junit.jupiter.api.Assumptions.assumeTrue(
          in != null, "rapidocr model jar not on the class path");
      Files.copy(in, det);
    }
    MainTest.Run r =
        run(
            "gmem",
            "--model",
            det.toString(),
            "--input",
            "x=99999999999,3,640,640",
            "--planner",
            "naive");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "memplan: "
                + det
                + ": input 'x' f32[99999999999x3x640x640] is 491519999995084800 bytes; memplan"
                + " plans tensors of at most 2^40 bytes (1 TiB)\n");
  }

  private static String[] concat(String[] head, String... tail) {
    List<String> all = new ArrayList<>(List.of(head));
    all.addAll(List.of(tail));
    return all.toArray(String[]::new);
  }
}
