package io.github.memplan.experiments.cli;

import static io.github.memplan.experiments.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.device.Network;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.gmem.GmemBuilder;
import io.github.memplan.core.gmem.GmemOptions;
import io.github.memplan.core.gmem.GmemProblem;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Models;
import io.github.memplan.experiments.cli.MainTest.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceCommandTest {
  @TempDir Path dir;

  @Test
  void servingMixIsReportedAndDeterministic() throws IOException {
    String[] args = {
      "device",
      "--generate",
      "serving",
      "--seed",
      "1",
      "--dram",
      "256MiB",
      "--allocator",
      "combined",
      "--models",
      "resnet18,mobilenetv2,squeezenet1.0",
      "--networks",
      "2",
      "--inferences",
      "40",
      "--swap-every",
      "10",
      "--json"
    };
    Run r = run(args);
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("trace").asText()).isEqualTo("serving-k2-d4-n40-s1");
    assertThat(j.get("allocator").asText()).isEqualTo("combined");
    assertThat(j.get("dram").asLong()).isEqualTo(256L << 20);
    assertThat(j.get("inferences").asLong()).isEqualTo(40);
    assertThat(j.get("networksServed").asInt()).isBetween(1, 3);
    assertThat(j.get("peakBytes").asLong()).isPositive();
    assertThat(j.has("failures")).isTrue();
    assertThat(j.has("failuresWithFreeSpace")).isTrue();
    assertThat(run(args).out()).isEqualTo(r.out());
  }

  @Test
  void zooNetworkTakesItsSizesFromTheGmemProblem() {
    Chip chip = Chips.get("bm1684x");
    Graph g = Models.get("resnet18").build();
    Network n = Network.fromGraph("resnet18", g, chip);
    GmemProblem p = GmemBuilder.build(g, chip, GmemOptions.defaults());
    assertThat(n.constantBytes()).isEqualTo(p.weights().totalBytes());
    assertThat(n.inputs()).containsExactly(3L * 224 * 224 * 4);
    assertThat(n.outputs()).hasSize(1);
    long all = LowerBounds.maxLoad(p.activations());
    assertThat(n.internalBytes()).isPositive().isLessThanOrEqualTo(all);
    assertThat(n.internalBytes() + n.inputs().get(0) + n.outputs().get(0))
        .isGreaterThanOrEqualTo(all);
    assertThat(n.codeBytes())
        .isEqualTo(Network.CODE_BYTES_BASE + Network.CODE_BYTES_PER_OP * g.ops().size());
  }

  @Test
  void worstCaseShowsFragmentation() throws IOException {
    Run r =
        run(
            "device",
            "--generate",
            "fragment",
            "--dram",
            "64MiB",
            "--allocator",
            "linear",
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("failures").asInt()).isEqualTo(1);
    assertThat(j.get("failuresWithFreeSpace").asInt()).isEqualTo(1);
    assertThat(j.get("failuresWithFreeBlock").asInt()).isZero();
    assertThat(j.get("firstFailure").asText()).startsWith("event 22: constant of w-big");
    Run text = run("device", "--generate", "fragment", "--dram", "64MiB", "--allocator", "all");
    assertThat(text.code()).isZero();
    assertThat(text.out()).contains("allocator               buddy", "first failure");
  }

  @Test
  void traceFilesPlotAndErrors() throws IOException {
    Path csv = dir.resolve("t.csv");
    Path json = dir.resolve("t.json");
    Path svg = dir.resolve("u.svg");
    Run saved =
        run(
            "device",
            "--generate",
            "pin-front",
            "--dram",
            "64MiB",
            "--allocator",
            "bidirectional",
            "--save-trace",
            csv.toString(),
            "--plot",
            svg.toString(),
            "--json");
    assertThat(saved.code()).as(saved.err()).isZero();
    assertThat(Files.readString(svg)).startsWith("<svg").contains("polyline");
    Run again =
        run(
            "device",
            "--trace",
            csv.toString(),
            "--dram",
            "64MiB",
            "--allocator",
            "bidirectional",
            "--save-trace",
            json.toString(),
            "--json");
    assertThat(again.code()).isZero();
    Run fromJson =
        run(
            "device",
            "--trace",
            json.toString(),
            "--dram",
            "64MiB",
            "--allocator",
            "bidirectional",
            "--json");
    assertThat(fromJson.json().get("failures").asInt()).isEqualTo(1);
    assertThat(again.json()).isEqualTo(fromJson.json());

    Files.writeString(
        csv,
        "event,network,inference,code,constants,inputs,outputs,inouts,internal\nstart,a,0,,,,,,\n");
    Run bad = run("device", "--trace", csv.toString(), "--allocator", "linear");
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err().strip())
        .isEqualTo("memplan: " + csv + ":2: trace t, event 0 (start a): unknown network");
    Run unknown = run("device", "--generate", "fragment", "--allocator", "slab");
    assertThat(unknown.code()).isEqualTo(1);
    assertThat(unknown.err().strip())
        .isEqualTo(
            "memplan: unknown planner 'slab' for DeviceProblem (known: best-fit, bidirectional,"
                + " buddy, combined, linear, pool)");
    Run both =
        run("device", "--generate", "fragment", "--trace", csv.toString(), "--allocator", "linear");
    assertThat(both.code()).isEqualTo(2);
    Run list = run("list", "allocators");
    assertThat(list.out())
        .contains("linear", "pool", "bidirectional", "combined", "best-fit", "buddy");
  }
}
