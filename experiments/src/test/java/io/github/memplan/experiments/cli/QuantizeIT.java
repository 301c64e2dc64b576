package io.github.memplan.experiments.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Issue 18's precision checks on whole zoo models: {@code memplan group --planner tpumlir-dp
 * --json} on bm1684x in INT8 against F32 (the groupings validate: status FEASIBLE).
 */
class QuantizeIT {
  private static JsonNode group(String model, String quantize) throws IOException {
    MainTest.Run r =
        MainTest.run(
            "group",
            "--model",
            model,
            "--chip",
            "bm1684x",
            "--quantize",
            quantize,
            "--planner",
            "tpumlir-dp",
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("status").asText()).as(model + " " + quantize).isEqualTo("FEASIBLE");
    assertThat(j.get("quantize").asText()).isEqualTo(quantize);
    JsonNode t = j.get("totals");
    assertThat(t.get("lowerBoundCycles").asLong()).isLessThanOrEqualTo(t.get("cycles").asLong());
    return t;
  }

  @Test
  void resnet18InInt8HasAtMost33OpsAndCostsLessThanInF32() throws IOException {
    JsonNode i8 = group("resnet18", "INT8");
    JsonNode f32 = group("resnet18", "F32");
    assertThat(i8.get("ops").asInt()).isLessThanOrEqualTo(33);
    assertThat(i8.get("cycles").asLong()).isLessThan(f32.get("cycles").asLong());
    assertThat(group("resnet18", "BF16").get("cycles").asLong())
        .isLessThan(f32.get("cycles").asLong());
  }

  @Test
  void bertBaseInInt8HasFewerGlobalOpsThanInF32() throws IOException {
    JsonNode i8 = group("bert-base", "INT8");
    JsonNode f32 = group("bert-base", "F32");
    assertThat(i8.get("globalOps").asInt()).isLessThan(f32.get("globalOps").asInt());
  }
}
