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
    return group(model, quantize, "tpumlir-dp");
  }

  private static JsonNode group(String model, String quantize, String planner) throws IOException {
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
            planner,
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

  /**
   * Issue 18 asks for fewer global ops in INT8 than in F32. Under TPU-MLIR's rules that is not a
   * property of the precision: bert-base's remaining MatMuls (the feed-forward projections, 3-D by
   * a 2-D weight) are global in every precision ({@code MatMulOp::LocalGenSupport}), and on bm1684x
   * the attention fusion makes the heads local in F32 too (lowered to F16). What holds: every op
   * that may be grouped in F32 may be in INT8 (tpumlir-greedy, which takes the longest valid group
   * from the tail, leaves no more ops global), and INT8 costs fewer cycles. tpumlir-dp may then
   * leave more ops global in INT8 (66 against greedy's 43 when this was written) because its cost
   * says so: its cycles are at most greedy's.
   */
  @Test
  void bertBaseInInt8GroupsEveryOpF32GroupsAndCostsLess() throws IOException {
    JsonNode f32 = group("bert-base", "F32", "tpumlir-greedy");
    JsonNode i8 = group("bert-base", "INT8", "tpumlir-greedy");
    assertThat(i8.get("globalOps").asInt()).isLessThanOrEqualTo(f32.get("globalOps").asInt());
    JsonNode dp8 = group("bert-base", "INT8");
    assertThat(dp8.get("cycles").asLong()).isLessThanOrEqualTo(i8.get("cycles").asLong());
    assertThat(dp8.get("cycles").asLong())
        .isLessThan(group("bert-base", "F32").get("cycles").asLong());
  }
}
