package io.github.memplan.experiments.cli;

import static io.github.memplan.experiments.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.MiniMallocCsv;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.gmem.GmemBuilder;
import io.github.memplan.core.gmem.GmemOptions;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.datasets.darknet.DarknetImporter;
import io.github.memplan.datasets.darknet.DarknetZoo;
import io.github.memplan.datasets.json.GraphJson;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memplan zoo} in-process. The figures of {@code test-tiny} (x 1x4x8x8; conv 4x4x3x3 with
 * bias, pad 1; relu; reshape to 1x256; matmul by 256x10) are worked out by hand: parameters 144 + 4
 * + 2560 = 2708; MACs 256 conv outputs x 36 + 10 matmul outputs x 256 = 11776; op results 1024 +
 * 1024 + 1024 + 40 = 3112 bytes.
 */
class ZooCommandTest {
  @TempDir Path dir;

  @Test
  void listsTheZooWithFigures() {
    MainTest.Run r = run("zoo", "list");
    assertThat(r.code()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .startsWith("NAME ")
        .containsPattern("(?m)^NAME +FAMILY +SOURCE +PARAMS +MACS +OPS +ACTIVATIONS$")
        .containsPattern("(?m)^test-tiny +test +builder +2\\.71K +11\\.78K +4 +3\\.04 KiB$")
        .containsPattern("(?m)^resnet18 +resnet +builder +11\\.69M ");
  }

  @Test
  void listsAsJsonWithExactFigures() throws IOException {
    JsonNode all = run("zoo", "list", "--json").json();
    JsonNode tiny = null;
    for (JsonNode m : all) {
      if (m.get("name").asText().equals("test-tiny")) {
        tiny = m;
      }
    }
    assertThat(tiny).isNotNull();
    assertThat(tiny.get("family").asText()).isEqualTo("test");
    assertThat(tiny.get("source").asText()).isEqualTo("builder");
    assertThat(tiny.get("params").asLong()).isEqualTo(2708);
    assertThat(tiny.get("storedBytes").asLong()).isEqualTo(2708 * 4);
    assertThat(tiny.get("macs").asLong()).isEqualTo(11776);
    assertThat(tiny.get("ops").asInt()).isEqualTo(4);
    assertThat(tiny.get("activationBytes").asLong()).isEqualTo(3112);
    List<String> names = new ArrayList<>();
    all.forEach(m -> names.add(m.get("name").asText()));
    assertThat(names).isSorted();
  }

  @Test
  void listFiltersBySourceAndFamily() throws IOException {
    JsonNode builders = run("zoo", "list", "--json", "--source", "builder").json();
    builders.forEach(m -> assertThat(m.get("source").asText()).isEqualTo("builder"));
    assertThat(builders.size()).isPositive();
    JsonNode resnets = run("zoo", "list", "--json", "--family", "resnet").json();
    resnets.forEach(m -> assertThat(m.get("family").asText()).isEqualTo("resnet"));
    JsonNode darknet = run("zoo", "list", "--json", "--source", "darknet").json();
    assertThat(darknet.size()).isEqualTo(DarknetZoo.cfgs().size()).isEqualTo(45);
  }

  @Test
  void showsASummaryAndEveryOp() throws IOException {
    MainTest.Run r = run("zoo", "show", "test-tiny");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .containsPattern("(?m)^model +test-tiny$")
        .containsPattern("(?m)^source +builder$")
        .containsPattern("(?m)^inputs +x f32\\[1x4x8x8\\]$")
        .containsPattern("(?m)^outputs +matmul f32\\[1x10\\]$")
        .containsPattern("(?m)^parameters +2708 \\(2\\.71K\\)$")
        .containsPattern("(?m)^MACs +11776 \\(11\\.78K\\)$")
        .containsPattern("(?m)^ops +4$")
        .containsPattern(
            "(?m)^after front end +3 ops \\(front end all on bm1684x; what LayerGroup sees\\)$")
        .containsPattern("(?m)^activations +3112 B \\(3\\.04 KiB\\), all op results$")
        .containsPattern("(?m)^# +OP +KIND +OUTPUT +BYTES +MACS +READS$")
        .containsPattern("(?m)^0 +conv +Conv +1x4x8x8 +1 KiB +9\\.22K +x$")
        .containsPattern("(?m)^3 +matmul +MatMul +1x10 +40 B +2\\.56K +reshape$");

    JsonNode j = run("zoo", "show", "test-tiny", "--json").json();
    assertThat(j.get("macs").asLong()).isEqualTo(11776);
    assertThat(j.get("inputs").get(0).get("shape").toString()).isEqualTo("[1,4,8,8]");
    assertThat(j.get("ops").asInt()).isEqualTo(4);
    assertThat(j.get("frontEndOps").asInt()).isEqualTo(3);
    assertThat(j.get("frontEnd").asText()).isEqualTo("all");
    JsonNode ops = j.get("opList");
    assertThat(ops).hasSize(4);
    assertThat(ops.get(0).get("macs").asLong()).isEqualTo(9216);
    assertThat(ops.get(1).get("kind").asText()).isEqualTo("Relu");
    assertThat(ops.get(3).get("bytes").asLong()).isEqualTo(40);

    // --fused lists what LayerGroup sees: the relu is fused into the conv, which takes its name
    JsonNode fused = run("zoo", "show", "test-tiny", "--fused", "--json").json().get("opList");
    assertThat(fused).hasSize(3);
    assertThat(fused.get(0).get("name").asText()).isEqualTo("relu");
    assertThat(fused.get(0).get("kind").asText()).isEqualTo("Conv");
    assertThat(fused.get(0).get("outputs").get(0).asText()).isEqualTo("relu");
    JsonNode none = run("zoo", "show", "test-tiny", "--front-end", "none", "--json").json();
    assertThat(none.get("frontEndOps").asInt()).isEqualTo(4);
  }

  @Test
  void exportsLosslessJson() throws IOException {
    Path out = dir.resolve("tiny.json");
    MainTest.Run r = run("zoo", "export", "test-tiny", "--format", "json", "--out", out.toString());
    assertThat(r.code()).isZero();
    assertThat(r.out()).isEmpty();
    Graph g = new TestTinyModel().build();
    assertThat(Files.readString(out)).isEqualTo(GraphJson.toJson(g));
    Graph back = GraphJson.read(out);
    assertThat(back.ops()).isEqualTo(g.ops());
    assertThat(List.copyOf(back.tensors().values())).isEqualTo(List.copyOf(g.tensors().values()));
  }

  @Test
  void exportsTheGmemActivationInstance() throws IOException {
    for (String chip : new String[] {"bm1684x", "cv183x"}) {
      DsaInstance expected =
          GmemBuilder.build(
                  FrontEnd.apply(new TestTinyModel().build(), Chips.get(chip)),
                  Chips.get(chip),
                  GmemOptions.defaults())
              .activations();
      StringWriter w = new StringWriter();
      MiniMallocCsv.write(expected, null, w);
      MainTest.Run r = run("zoo", "export", "test-tiny", "--format", "dsa-csv", "--chip", chip);
      assertThat(r.code()).as(chip).isZero();
      assertThat(r.out()).as(chip).isEqualTo(w.toString());
    }
    Path out = dir.resolve("tiny.csv");
    assertThat(
            run("zoo", "export", "test-tiny", "--format=dsa-csv", "--out", out.toString()).code())
        .isZero();
    assertThat(MiniMallocCsv.readInstance(out).buffers())
        .isEqualTo(MainTest.tinyActivations(false).buffers());
    // the instance is what 'memplan dsa' plans
    assertThat(run("dsa", "--instance", out.toString(), "--planner", "test-stack").code()).isZero();
  }

  @Test
  void exportsGraphviz() {
    MainTest.Run r = run("zoo", "export", "test-tiny", "--format", "dot");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .startsWith("digraph \"test-tiny\" {")
        .contains("\"in:x\" [shape=ellipse, label=\"x\\n1x4x8x8\"];")
        .contains("\"op:conv\" [label=\"conv\\nConv\"];")
        .contains("\"in:x\" -> \"op:conv\" [label=\"1x4x8x8\"];")
        .contains("\"op:relu\" -> \"op:reshape\" [label=\"1x4x8x8\"];")
        .contains("\"op:matmul\" -> \"out:matmul\";")
        .doesNotContain("\"w\"")
        .endsWith("}\n");
  }

  @Test
  void exportUsageErrors() {
    MainTest.Run chip = run("zoo", "export", "test-tiny", "--format", "json", "--chip", "bm1684x");
    assertThat(chip.code()).isEqualTo(2);
    assertThat(chip.err()).startsWith("memplan: --chip applies only to --format dsa-csv");
    MainTest.Run format = run("zoo", "export", "test-tiny", "--format", "xml");
    assertThat(format.code()).isEqualTo(2);
    assertThat(format.err()).contains("'xml' is not a format (json, dsa-csv or dot)");
    MainTest.Run none = run("zoo", "export", "test-tiny");
    assertThat(none.code()).isEqualTo(2);
    assertThat(none.err()).contains("Missing required option: '--format=FORMAT'");
    MainTest.Run zoo = run("zoo");
    assertThat(zoo.code()).isEqualTo(2);
    assertThat(zoo.err()).startsWith("memplan: no zoo command given");
  }

  static final String TINY_CFG =
      """
      [net]
      width=8
      height=8
      channels=3

      [convolutional]
      filters=4
      size=3
      stride=1
      pad=1
      activation=leaky

      [maxpool]
      size=2
      stride=2
      """;

  @Test
  void modelFilesWorkWhereverAModelIsTaken() throws IOException {
    Path cfg = dir.resolve("net.cfg");
    Files.writeString(cfg, TINY_CFG);
    JsonNode show = run("zoo", "show", cfg.toString(), "--json").json();
    assertThat(show.get("name").asText()).isEqualTo("net");
    assertThat(show.get("source").asText()).isEqualTo("darknet");
    // conv 4x3x3x3 + 4 biases; 8x8x4 outputs x 27
    assertThat(show.get("params").asLong()).isEqualTo(112);
    assertThat(show.get("macs").asLong()).isEqualTo(8 * 8 * 4 * 27);

    Path json = dir.resolve("tiny.json");
    GraphJson.write(new TestTinyModel().build(), json);
    JsonNode byFile =
        run("gmem", "--model", json.toString(), "--planner", "test-stack", "--json").json();
    JsonNode byName =
        run("gmem", "--model", "test-tiny", "--planner", "test-stack", "--json").json();
    assertThat(byFile.get("model").asText()).isEqualTo("tiny");
    assertThat(byFile.get("peakBytes")).isEqualTo(byName.get("peakBytes"));
    assertThat(byFile.get("lowerBound")).isEqualTo(byName.get("lowerBound"));

    MainTest.Run csv = run("zoo", "export", cfg.toString(), "--format", "dsa-csv");
    assertThat(csv.code()).isZero();
    assertThat(csv.out()).startsWith("id,lower,upper,size");
  }

  @Test
  void badModelFilesAreOneLineErrors() throws IOException {
    Path onnx = dir.resolve("m.onnx");
    Files.write(onnx, new byte[] {8, 7});
    MainTest.Run r = run("zoo", "show", onnx.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("memplan: " + onnx + ": ").endsWith("\n");
    assertThat(r.err().strip()).doesNotContain("\n");

    Path missing = dir.resolve("nope.cfg");
    MainTest.Run m = run("gmem", "--model", missing.toString(), "--planner", "test-stack");
    assertThat(m.code()).isEqualTo(1);
    assertThat(m.err()).isEqualTo("memplan: " + missing + ": no such file or directory\n");

    Path bad = dir.resolve("bad.cfg");
    Files.writeString(
        bad, "[net]\nwidth=8\nheight=8\nchannels=3\n\n[convolutional]\nactivation=elu\n");
    MainTest.Run b = run("zoo", "export", bad.toString(), "--format", "json");
    assertThat(b.code()).isEqualTo(1);
    assertThat(b.err())
        .startsWith("memplan: " + bad + ":7: [convolutional] activation: activation 'elu' is not")
        .hasLineCount(1);

    Path badJson = dir.resolve("bad.json");
    Files.writeString(badJson, "{\n  \"format\": \"memplan-graph\",\n  \"version\": 1\n}\n");
    MainTest.Run j = run("zoo", "show", badJson.toString());
    assertThat(j.code()).isEqualTo(1);
    assertThat(j.err()).isEqualTo("memplan: " + badJson + ":1:1: missing key 'name'\n");
  }

  @Test
  void darknetEntriesAreShipped() throws IOException {
    DarknetZoo.Cfg tiny =
        DarknetZoo.cfgs().stream()
            .filter(c -> c.file().equals("yolov3-tiny.cfg"))
            .findFirst()
            .orElseThrow();
    Graph g = DarknetImporter.build(tiny.read(), tiny.graphName(), 1).graph();
    JsonNode j = run("zoo", "show", "darknet-yolov3-tiny", "--json").json();
    assertThat(j.get("family").asText()).isEqualTo("yolo");
    assertThat(j.get("source").asText()).isEqualTo("darknet");
    assertThat(j.get("ops").asInt()).isEqualTo(g.ops().size());
    // darknet ops prints 5564961792 floating point operations: 2 per multiply-accumulate
    assertThat(j.get("macs").asLong()).isEqualTo(5564961792L / 2);
    assertThat(j.get("outputs")).hasSize(2);
  }

  @Test
  void helpForEveryZooCommand() {
    for (String cmd : new String[] {"list", "show", "export"}) {
      MainTest.Run h = run("zoo", cmd, "--help");
      assertThat(h.code()).as(cmd).isZero();
      assertThat(h.out()).startsWith("Usage: memplan zoo " + cmd);
    }
  }

  /** An ONNX file with dynamic dims needs --input; with it, the model plans. */
  @Test
  void onnxFilesTakeInputShapes() throws IOException {
    Path onnx = dir.resolve("det.onnx");
    try (var in = getClass().getResourceAsStream("/models/ch_PP-OCRv4_det_infer.onnx")) {
      org.junit.jupiter.api.Assumptions.assumeTrue(
          in != null, "rapidocr model jar not on the class path");
      Files.copy(in, onnx);
    }
    MainTest.Run dynamic = run("gmem", "--model", onnx.toString(), "--planner", "test-stack");
    assertThat(dynamic.code()).isEqualTo(1);
    assertThat(dynamic.err()).contains("input 'x' has dynamic dims ?x3x?x?");
    JsonNode j =
        run(
                "gmem",
                "--model",
                onnx.toString(),
                "--input",
                "x=1,3,640,640",
                "--planner",
                "test-stack",
                "--json")
            .json();
    assertThat(j.get("model").asText()).isEqualTo("det");
    assertThat(j.get("peakBytes").asLong()).isGreaterThanOrEqualTo(j.get("lowerBound").asLong());
    MainTest.Run notOnnx =
        run("gmem", "--model", "test-tiny", "--input", "x=1", "--planner", "test-stack");
    assertThat(notOnnx.code()).isEqualTo(1);
    assertThat(notOnnx.err()).contains("--input applies to .onnx and .tflite model files only");
  }
}
