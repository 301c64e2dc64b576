package io.github.memplan.experiments.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * {@code memplan group} on {@code test-tiny} (conv, relu, reshape, matmul; fp32) on bm1684x, LMEM
 * packed by the {@code test-lmem-stack} double. Hand-computed roofline: 1024 f32 MACs per cycle,
 * GDMA ceil(bytes / 64) cycles (DDR assumed 64 GB/s).
 */
class GroupCommandTest {

  /**
   * test-tiny as built (conv, relu, reshape, matmul: {@code --front-end none}), so that conv and
   * relu form a group whose cost is worked out by hand below.
   */
  private static MainTest.Run tiny(String... more) {
    String[] args = {
      "group",
      "--model",
      "test-tiny",
      "--front-end",
      "none",
      "--planner",
      "tpumlir-v0",
      "--param",
      "lmem=test-lmem-stack"
    };
    String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return MainTest.run(all);
  }

  @Test
  void groupsConvReluAndCostsItBesideTheUngroupedModel() throws IOException {
    MainTest.Run r = tiny("--json");
    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    JsonNode j = r.json();
    JsonNode g = j.get("groups").get(0);
    assertThat(g.get("firstOp").asText()).isEqualTo("conv");
    assertThat(g.get("lastOp").asText()).isEqualTo("relu");
    assertThat(g.get("hsecs").asInt()).isEqualTo(1);
    // row 0 loads x 1024 B + w 576 B + b 16 B: 26 | conv 9216 MACs: 9 | relu: 1 | store 1024 B: 16
    assertThat(g.get("cycles").asLong()).isEqualTo(52);
    assertThat(g.get("ddrBytes").asLong()).isEqualTo(2640);
    // + reshape (2048 B: 32) + matmul (1024 + 10240 + 40 B: 177)
    assertThat(j.get("totals").get("cycles").asLong()).isEqualTo(52 + 32 + 177);
    assertThat(j.get("totals").get("ddrBytes").asLong()).isEqualTo(2640 + 2048 + 11304);
    assertThat(j.get("totals").get("globalOps").asInt()).isEqualTo(2);
    // ungrouped: conv 2640 B (42) + relu 2048 B (32) + reshape 32 + matmul 177
    assertThat(j.get("ungrouped").get("cycles").asLong()).isEqualTo(42 + 32 + 32 + 177);
    assertThat(j.get("ungrouped").get("ddrBytes").asLong()).isEqualTo(2640 + 2048 + 2048 + 11304);
    assertThat(j.get("costAssumptions").asText()).contains("DDR bandwidth assumed");
    // lower bound: conv..relu as any group moves at least w, b, relu and x whole (a 3x3/p1 conv
    // reads all of x) = 2640 B, 42 - 1 = 41 cycles (TIU 9 - 2 + 0 below it), cheaper than conv and
    // relu global (42 + 32); reshape and matmul are global in every grouping: 32 + 177
    assertThat(j.get("totals").get("lowerBoundCycles").asLong()).isEqualTo(41 + 32 + 177);
    assertThat(j.get("totals").get("lowerBoundDdrBytes").asLong()).isEqualTo(2640 + 2048 + 11304);
  }

  @Test
  void theH2RuleFollowsThePlannersEraUnlessForced() throws IOException {
    // tpumlir-v0 (2022 code: check_hsecs called) slices with the rule by default
    assertThat(tiny("--json").json().get("h2Rule").asBoolean()).isTrue();
    assertThat(tiny().out()).contains("h/2 rule     on (the planner's era)");
    assertThat(tiny("--json", "--no-h2-rule").json().get("h2Rule").asBoolean()).isFalse();
    assertThat(tiny("--no-h2-rule").out()).contains("h/2 rule     off (forced)");
    MainTest.Run both = tiny("--h2-rule", "--no-h2-rule");
    assertThat(both.code()).isNotZero();
    assertThat(both.err()).contains("--h2-rule and --no-h2-rule exclude each other");
  }

  @Test
  void byDefaultTheReluIsFusedIntoTheConvAndNoGroupIsLeft() throws IOException {
    MainTest.Run r =
        MainTest.run(
            "group",
            "--model",
            "test-tiny",
            "--planner",
            "tpumlir-v0",
            "--param",
            "lmem=test-lmem-stack",
            "--json");
    assertThat(r.code()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("frontEnd").asText()).isEqualTo("all");
    // conv (ReLU fused, named relu), reshape, matmul: a lone conv makes no group
    assertThat(j.get("groups")).isEmpty();
    assertThat(j.get("totals").get("ops").asInt()).isEqualTo(3);
    assertThat(j.get("totals").get("globalOps").asInt()).isEqualTo(3);
    // the conv reads x, w, b and writes its result once: 2640 B (42); the relu's round trip
    // (2048 B, 32 cycles) is gone; reshape 32 + matmul 177 as before
    assertThat(j.get("totals").get("cycles").asLong()).isEqualTo(42 + 32 + 177);
    assertThat(j.get("totals").get("ddrBytes").asLong()).isEqualTo(2640 + 2048 + 11304);
    assertThat(j.get("ungrouped").get("cycles").asLong()).isEqualTo(42 + 32 + 177);
  }

  @Test
  void textTableListsTheGroup() {
    MainTest.Run r = tiny();
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains("0..1", "grouped", "ungrouped", "2 of 4 ops global")
        .contains("lower bound", "250 cycles", "grouped / bound = 1.044");
  }

  @Test
  void plotWritesOneSvgPerGroup(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws IOException {
    MainTest.Run r = tiny("--plot", dir.toString(), "--json");
    assertThat(r.code()).isZero();
    java.nio.file.Path svg = dir.resolve("group-0.svg");
    assertThat(java.nio.file.Files.readString(svg)).startsWith("<svg").contains("</svg>");
    assertThat(r.json().get("groups").get(0).get("plot").asText()).isEqualTo(svg.toString());
  }

  @Test
  void anUnknownParameterFailsNamingThePlanner() {
    MainTest.Run r =
        MainTest.run("group", "--model", "test-tiny", "--planner", "tpumlir-v0", "--param", "x=1");
    assertThat(r.code()).isEqualTo(Main.FAILED);
    assertThat(r.err()).contains("tpumlir-v0", "'x'");
  }

  @Test
  void inInt8TheConvReluGroupMovesOneByteElementsAtFourTimesTheTiuRate() throws IOException {
    MainTest.Run r = tiny("--quantize", "INT8", "--json");
    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("quantize").asText()).isEqualTo("INT8");
    assertThat(j.get("costAssumptions").asText())
        .contains("TIU peak assumed NPU_NUM·EU_BYTES/dtype_bytes per cycle: F32 1024");
    JsonNode g = j.get("groups").get(0);
    assertThat(g.get("firstOp").asText()).isEqualTo("conv");
    assertThat(g.get("lastOp").asText()).isEqualTo("relu");
    // row 0 loads x 256 B + w 144 B (INT8) + b 16 B (INT32): 7 | conv 9216 MACs / 4096: 3 |
    // relu: 1 | store 256 B: 4
    assertThat(g.get("ddrBytes").asLong()).isEqualTo(256 + 144 + 16 + 256);
    assertThat(g.get("cycles").asLong()).isEqualTo(7 + 3 + 1 + 4);
  }

  @Test
  void anUnknownOrMissingPrecisionFailsWithOneLine() {
    MainTest.Run r = tiny("--quantize", "int4");
    assertThat(r.code()).isEqualTo(Main.FAILED);
    assertThat(r.err())
        .isEqualTo(
            "memplan: unknown --quantize value 'int4' (allowed: F32, BF16, F16, INT8)"
                + System.lineSeparator());
    MainTest.Run cv = tiny("--chip", "cv183x", "--quantize", "F16");
    assertThat(cv.code()).isEqualTo(Main.FAILED);
    assertThat(cv.err())
        .isEqualTo(
            "memplan: --quantize F16 is not supported on cv183x (allowed: BF16, INT8)"
                + System.lineSeparator());
  }
}
