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
   * property of the precision. In INT8 the feed-forward MatMuls may join a group, but getGroupCycle
   * serialises a one-loop group's loads, compute and stores, so the group costs more than the ops
   * run global (a MatMul hides its weight load only when it runs global); and each INT8 attention
   * head's buffer takes two banks (getBufferSize_bm1684x), so lmem-tpumlir cannot place the
   * residual Add with the heads, where it can in F32 (F16 heads, 5632-byte buffers). So tpumlir-dp
   * leaves more ops global in INT8 (54 against 43 when this was written) and costs fewer cycles.
   * What holds: the requant after each attention block (one Cast per layer), dp at most greedy's
   * cycles, and INT8 below F32.
   */
  @Test
  void bertBaseInInt8RequantisesEachAttentionBlockAndCostsLess() throws IOException {
    JsonNode f32 = group("bert-base", "F32");
    JsonNode i8 = group("bert-base", "INT8");
    assertThat(i8.get("ops").asInt()).isEqualTo(f32.get("ops").asInt() + 12);
    JsonNode greedy8 = group("bert-base", "INT8", "tpumlir-greedy");
    assertThat(i8.get("cycles").asLong()).isLessThanOrEqualTo(greedy8.get("cycles").asLong());
    assertThat(i8.get("cycles").asLong()).isLessThan(f32.get("cycles").asLong());
  }
}
