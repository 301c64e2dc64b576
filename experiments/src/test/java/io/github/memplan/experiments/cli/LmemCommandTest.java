package io.github.memplan.experiments.cli;

import static io.github.memplan.experiments.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.lmem.LmemGenerator;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemJson;
import io.github.memplan.experiments.cli.MainTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LmemCommandTest {
  @TempDir Path dir;

  private Path instance() throws Exception {
    LmemInstance inst = LmemGenerator.generate("g", 5, 8, LmemGenerator.SMALL, true, true, 0.6);
    Path f = dir.resolve("g.json");
    LmemJson.write(f, inst, null);
    return f;
  }

  @Test
  void placesValidatesAndDraws() throws Exception {
    Path f = instance();
    Path svg = dir.resolve("g.svg");
    Path out = dir.resolve("placed.json");
    String[] args = {
      "lmem",
      "--instance",
      f.toString(),
      "--planner",
      "lmem-tpumlir",
      "--json",
      "--plot",
      svg.toString(),
      "--out",
      out.toString()
    };
    Run r = run(args);
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("status").asText()).isEqualTo("FEASIBLE");
    assertThat(j.get("peakBytes").asLong()).isGreaterThanOrEqualTo(j.get("lowerBound").asLong());
    assertThat(j.get("buffers")).hasSize(LmemJson.read(f).instance().buffers().size());
    assertThat(j.get("bankConflicts").isInt()).isTrue();
    assertThat(Files.readString(svg)).startsWith("<svg");
    assertThat(LmemJson.read(out).solution()).isPresent();
    String again = run(args).out();
    assertThat(again.replaceAll("\"millis\":[0-9.E-]+", ""))
        .isEqualTo(r.out().replaceAll("\"millis\":[0-9.E-]+", ""));
  }

  @Test
  void textTableAndTotals() throws Exception {
    Run r = run("lmem", "--instance", instance().toString(), "--planner", "lmem-v0");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("id", "kind", "life", "address", "banks")
        .containsPattern("(?m)^in +activation +\\[7,0\\] wraps +224 ")
        .contains("peak", "capacity", "bank conflicts", "bank straddles", "lower bound");
  }

  @Test
  void badInputIsOneLine() throws Exception {
    Path f = dir.resolve("bad.json");
    Files.writeString(f, "{\"name\": \"x\"}");
    Run r = run("lmem", "--instance", f.toString(), "--planner", "lmem-v0");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip())
        .startsWith("memplan: " + f + ": the instance: 'buffers'")
        .doesNotContain("\n");
  }
}
