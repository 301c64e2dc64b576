package io.github.memplan.experiments.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.dsa.MiniMallocCsv;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.gmem.GmemBuilder;
import io.github.memplan.core.gmem.GmemOptions;
import io.github.memplan.core.gmem.GmemProblem;
import io.github.memplan.solvers.dsa.cpsat.CpSatPlanner;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Runs the CLI in-process with captured output. */
class MainTest {
  static final ObjectMapper JSON = new ObjectMapper();

  record Run(int code, String out, String err) {
    JsonNode json() throws IOException {
      assertThat(out.strip()).doesNotContain("\n");
      return JSON.readTree(out);
    }
  }

  static Run run(String... args) {
    CommandLine cl = Main.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @TempDir Path dir;
  Path small;

  /** a [0,2) 4 B, b [1,3) 8 B, c [2,4) 4 B: max load 12 at t=1 and t=2; stacked, peak 16. */
  @BeforeEach
  void smallInstance() throws IOException {
    small = dir.resolve("small.csv");
    Files.writeString(small, "id,lower,upper,size\na,0,2,4\nb,1,3,8\nc,2,4,4\n");
  }

  @Test
  void versionAndHelp() {
    Run v = run("--version");
    assertThat(v.code()).isZero();
    assertThat(v.out()).startsWith("memplan ").doesNotContain("${");
    for (String cmd : new String[] {"list", "zoo", "gmem", "dsa", "device"}) {
      Run h = run(cmd, "--help");
      assertThat(h.code()).as(cmd).isZero();
      assertThat(h.out()).startsWith("Usage: memplan " + cmd);
    }
    Run top = run("--help");
    assertThat(top.code()).isZero();
    assertThat(top.out()).contains("list", "zoo", "gmem", "dsa");
  }

  /**
   * Found by CliArgumentsFuzzTest: picocli read "@." as an argument file and threw past both
   * handlers.
   */
  @Test
  void anArgumentStartingWithAtIsTakenAsGiven() {
    Run r = run("gmem", "--model", "m", "--param", "@" + dir);
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("memplan: Value for option option '--param' (KEY=VALUE)");
    assertThat(r.err()).contains("@" + dir);
  }

  @Test
  void noCommandIsBadUsage() {
    Run r = run();
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("memplan: no command given");
  }

  @Test
  void listsPlannersWithTheirParameters() {
    Run r = run("list", "planners");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .containsPattern("(?m)^test-stack +DsaInstance +Test only: stacks")
        .contains(
            "--param mode=stack  stack, overlap, error, infeasible, throw, oom, deep, stall, slow or"
                + " shutdown");
  }

  @Test
  void listsModels() {
    Run r = run("list", "models");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .containsPattern("(?m)^test-tiny +Test only: conv-relu-reshape-matmul")
        .containsPattern("(?m)^resnet18 +");
  }

  @Test
  void listOfSomethingUnknownIsBadUsage() {
    Run r = run("list", "gpus");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("'gpus'").contains("Try 'memplan list --help'");
  }

  @Test
  void plansAnInstance() {
    Run r = run("dsa", "--instance", small.toString(), "--planner", "test-stack");
    assertThat(r.code()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .containsPattern("(?m)^instance +small$")
        .containsPattern("(?m)^status +FEASIBLE$")
        .containsPattern("(?m)^peak +16 B$")
        .containsPattern("(?m)^lower bound +12 B, max load$")
        .containsPattern("(?m)^peak / bound +1\\.3333$")
        .containsPattern("(?m)^buffers +3$");
  }

  @Test
  void plansAGeneratedInstance() throws IOException {
    Run r =
        run(
            "dsa",
            "--generate",
            "500",
            "--generate-seed",
            "3",
            "--planner",
            "test-stack",
            "--json");
    assertThat(r.code()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("instance").asText()).isEqualTo("gen-500-s3");
    assertThat(j.get("buffers").asInt()).isEqualTo(500);
    assertThat(j.get("file").isNull()).isTrue();
    Run again =
        run(
            "dsa",
            "--generate",
            "500",
            "--generate-seed",
            "3",
            "--planner",
            "test-stack",
            "--json");
    assertThat(again.json().get("peakBytes")).isEqualTo(j.get("peakBytes"));
  }

  @Test
  void exportsAGeneratedTrainingTraceAsMiniMallocCsv(@TempDir Path tmp) throws IOException {
    Path csv = tmp.resolve("t.csv");
    Run r =
        run(
            "dsa",
            "--generate",
            "2000",
            "--generate-kind",
            "training",
            "--generate-model",
            "resnet18",
            "--generate-batch",
            "4",
            "--export",
            csv.toString(),
            "--json");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().get("instance").asText()).isEqualTo("training-resnet18-b4-2000");
    assertThat(r.json().get("buffers").asInt()).isEqualTo(2000);
    assertThat(MiniMallocCsv.readInstance(csv).size()).isEqualTo(2000);
    Run seed = run("dsa", "--generate", "9", "--generate-kind", "training", "--generate-seed", "2");
    assertThat(seed.code()).isEqualTo(2);
    assertThat(seed.err()).contains("--generate-seed does not apply to a training trace");
    Run kind = run("dsa", "--generate", "9", "--generate-kind", "inference", "--planner", "x");
    assertThat(kind.code()).isEqualTo(2);
    assertThat(kind.err()).contains("--generate-kind: expected schedule, training or serving");
  }

  @Test
  void aPlannerOutOfMemoryOrStackIsOneLineAndExitOne() {
    for (String mode : List.of("oom", "deep")) {
      String[] args = {"dsa", "--instance", small.toString(), "--planner", "test-stack"};
      Run r = run(concat(args, "--param", "mode=" + mode));
      assertThat(r.code()).isEqualTo(1);
      assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
      assertThat(r.err())
          .startsWith("memplan: planner 'test-stack' ran out of")
          .contains(mode.equals("oom") ? "memory" : "stack")
          .doesNotContain("\tat ");
    }
  }

  @Test
  void generateIsExclusiveAndChecked() {
    Run both =
        run("dsa", "--generate", "5", "--instance", small.toString(), "--planner", "test-stack");
    assertThat(both.code()).isEqualTo(2);
    assertThat(both.err()).contains("give exactly one of --instance FILE.csv, --generate N");
    Run zero = run("dsa", "--generate", "0", "--planner", "test-stack");
    assertThat(zero.code()).isEqualTo(2);
    assertThat(zero.err()).contains("--generate: generator: buffers must be at least 1, not 0");
    Run seedAlone =
        run("dsa", "--instance", small.toString(), "--generate-seed", "2", "--planner", "x");
    assertThat(seedAlone.code()).isEqualTo(2);
    assertThat(seedAlone.err()).contains("--generate-seed needs --generate N");
  }

  @Test
  void plansAnInstanceAsJsonAndWritesAPlanThatValidates() throws IOException {
    Path out = dir.resolve("small.solved.csv");
    Run r =
        run(
            "dsa",
            "--instance",
            small.toString(),
            "--planner=test-stack",
            "--param",
            "mode=stack",
            "--seed",
            "7",
            "--time-limit",
            "2m",
            "--out",
            out.toString(),
            "--json");
    assertThat(r.code()).isZero();
    JsonNode j = r.json();
    assertThat(j.get("instance").asText()).isEqualTo("small");
    assertThat(j.get("planner").asText()).isEqualTo("test-stack");
    assertThat(j.get("params").get("mode").asText()).isEqualTo("stack");
    assertThat(j.get("seed").asLong()).isEqualTo(7);
    assertThat(j.get("status").asText()).isEqualTo("FEASIBLE");
    assertThat(j.get("peakBytes").asLong()).isEqualTo(16);
    assertThat(j.get("lowerBound").asLong()).isEqualTo(12);
    assertThat(j.get("ratio").asDouble()).isEqualTo(16.0 / 12);
    assertThat(j.get("maxLoad").asLong()).isEqualTo(12);
    assertThat(j.get("buffers").asInt()).isEqualTo(3);
    assertThat(j.get("millis").isNumber()).isTrue();
    assertThat(j.get("capacity").isNull()).isTrue();
    assertThat(j.get("out").asText()).isEqualTo(out.toString());

    assertThat(MiniMallocCsv.readSolved(out).solution().offsets()).containsExactly(0, 4, 12);
    Run v = run("dsa", "--validate", out.toString());
    assertThat(v.code()).isZero();
    assertThat(v.out())
        .containsPattern("(?m)^verdict +OK$")
        .containsPattern("(?m)^peak +16 B$")
        .containsPattern("(?m)^lower bound +12 B, max load$");
    JsonNode vj = run("dsa", "--validate", out.toString(), "--json").json();
    assertThat(vj.get("valid").asBoolean()).isTrue();
    assertThat(vj.get("peakBytes").asLong()).isEqualTo(16);
  }

  @Test
  void validateReportsABrokenSolution() throws IOException {
    Path broken = dir.resolve("broken.csv");
    Files.writeString(broken, "id,lower,upper,size,offset\na,0,2,4,0\nb,1,3,8,2\nc,2,4,4,20\n");
    Run r = run("dsa", "--validate", broken.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out())
        .containsPattern("(?m)^verdict +INVALID$")
        .contains("overlap: buffers 'a' [0, 4) and 'b' [2, 10) overlap during timesteps [1, 2)");
    JsonNode j = run("dsa", "--validate", broken.toString(), "--json").json();
    assertThat(j.get("valid").asBoolean()).isFalse();
    assertThat(j.get("violations")).hasSize(1);
  }

  @Test
  void validateNeedsAnOffsetColumn() {
    Run r = run("dsa", "--validate", small.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo("memplan: " + small + ":1: no 'offset' column: the file holds no solution\n");
  }

  @Test
  void validateRejectsPlanningOptions() {
    Run r = run("dsa", "--validate", small.toString(), "--planner", "test-stack");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("memplan: --planner does not apply to --validate");
  }

  @Test
  void malformedCsvIsOneLineWithTheLineNumber() throws IOException {
    Path bad = dir.resolve("bad.csv");
    Files.writeString(bad, "id,lower,upper,size\na,0,2,4\nb,1,3,x\n");
    Run r = run("dsa", "--instance", bad.toString(), "--planner", "test-stack");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("memplan: " + bad + ":3: size 'x' is not an integer\n");
  }

  @Test
  void verboseAddsTheStackTrace() throws IOException {
    Path bad = dir.resolve("bad.csv");
    Files.writeString(bad, "id,lower,upper,size\na,0,2\n");
    Run r = run("dsa", "--instance", bad.toString(), "--planner", "test-stack", "--verbose");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .startsWith("memplan: " + bad + ":2: expected 4 fields")
        .contains("java.lang.IllegalArgumentException", "\tat ");
  }

  @Test
  void missingFileIsBadInput() {
    Run r = run("dsa", "--instance", dir.resolve("nope.csv").toString(), "--planner", "naive");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            "memplan: "
                + dir.resolve("nope.csv")
                + ": no such file or directory; give a MiniMalloc CSV file or a shipped dataset's"
                + " entry such as minimalloc:A (memplan datasets list)\n");
  }

  @Test
  void unknownPlannerListsTheKnownOnes() {
    Run r = run("dsa", "--instance", small.toString(), "--planner", "nope");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .startsWith("memplan: unknown planner 'nope' for DsaInstance (known: ")
        .contains("test-stack")
        .endsWith(")\n")
        .hasLineCount(1);
  }

  @Test
  void unknownParameterListsTheKnownOnes() {
    Run r = run("dsa", "--instance", small.toString(), "--planner", "test-stack", "--param", "x=1");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo("memplan: planner 'test-stack': unknown parameter 'x' (known: mode)\n");
  }

  @Test
  void badUsageExitsTwoWithAHint() {
    Run unknown = run("dsa", "--bogus");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err())
        .isEqualTo(
            "memplan: Unknown option: '--bogus'\nTry 'memplan dsa --help' for more information.\n");

    Run duration =
        run("dsa", "--instance", small.toString(), "--planner", "test-stack", "--time-limit", "3x");
    assertThat(duration.code()).isEqualTo(2);
    assertThat(duration.err()).contains("'3x' is not a duration");

    Run size =
        run("dsa", "--instance", small.toString(), "--planner", "test-stack", "--capacity", "1GB");
    assertThat(size.code()).isEqualTo(2);
    assertThat(size.err()).contains("'1GB' is not a size");

    Run noPlanner = run("dsa", "--instance", small.toString());
    assertThat(noPlanner.code()).isEqualTo(2);
    assertThat(noPlanner.err()).startsWith("memplan: Missing required option: '--planner=ID'");

    Run neither = run("dsa", "--planner", "test-stack");
    assertThat(neither.code()).isEqualTo(2);
    assertThat(neither.err()).startsWith("memplan: give exactly one of --instance");
  }

  @Test
  void invalidSolutionIsNeverPrinted() {
    Path out = dir.resolve("never.csv");
    Run r =
        run(
            "dsa",
            "--instance",
            small.toString(),
            "--planner",
            "test-stack",
            "--param",
            "mode=overlap",
            "--out",
            out.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .startsWith(
            "memplan: planner 'test-stack' returned an invalid solution for 'small': overlap:")
        .hasLineCount(1);
    assertThat(out).doesNotExist();
  }

  @Test
  void errorStatusIsPrintedHonestlyAndExitsOne() throws IOException {
    Run r =
        run(
            "dsa",
            "--instance",
            small.toString(),
            "--planner",
            "test-stack",
            "--param",
            "mode=error",
            "--json");
    assertThat(r.code()).isEqualTo(1);
    JsonNode j = r.json();
    assertThat(j.get("status").asText()).isEqualTo("ERROR");
    assertThat(j.get("message").asText()).isEqualTo("deliberate failure");
    assertThat(j.get("peakBytes").isNull()).isTrue();
    assertThat(j.get("ratio").isNull()).isTrue();
    assertThat(r.err()).isEqualTo("memplan: planner 'test-stack' failed: deliberate failure\n");
  }

  @Test
  void statusesWithoutASolutionExitZeroWithoutAPeak() {
    Path out = dir.resolve("none.csv");
    Run r =
        run(
            "dsa",
            "--instance",
            small.toString(),
            "--planner",
            "test-stack",
            "--param",
            "mode=infeasible",
            "--out",
            out.toString());
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .containsPattern("(?m)^status +INFEASIBLE \\(deliberately infeasible\\)$")
        .containsPattern("(?m)^peak +none \\(no solution\\)$")
        .doesNotContainPattern("(?m)^peak / bound");
    assertThat(r.err()).contains("not written");
    assertThat(out).doesNotExist();

    Run tight =
        run(
            "dsa",
            "--instance",
            small.toString(),
            "--planner",
            "test-stack",
            "--capacity",
            "12",
            "--time-limit",
            "500ms");
    assertThat(tight.code()).isZero();
    assertThat(tight.out())
        .containsPattern("(?m)^capacity +12 B$")
        .containsPattern("(?m)^status +NO_SOLUTION_IN_BUDGET");
  }

  @Test
  void listsChipsWithTheDefault() {
    Run r = run("list", "chips");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .containsPattern("(?m)^bm1684x +bm168x +64 lanes x 256 KiB LMEM .*\\(default\\)$")
        .containsPattern("(?m)^cv183x +cv18xx ");
  }

  /** What the CLI must report for test-tiny, computed here straight from core. */
  static DsaInstance tinyActivations(boolean inputsDie) {
    return GmemBuilder.build(
            FrontEnd.apply(new TestTinyModel().build(), Chips.get("bm1684x")),
            Chips.get("bm1684x"),
            GmemOptions.defaults().withInputsLiveForever(!inputsDie))
        .activations();
  }

  @Test
  void plansAModelsGmem() throws IOException {
    GmemProblem p =
        GmemBuilder.build(
            FrontEnd.apply(new TestTinyModel().build(), Chips.defaultChip()),
            Chips.defaultChip(),
            GmemOptions.defaults());
    DsaInstance a = p.activations();
    Run r = run("gmem", "--model", "test-tiny", "--planner", "test-stack", "--json");
    assertThat(r.code()).isZero();
    assertThat(r.err()).isEmpty();
    JsonNode j = r.json();
    assertThat(j.get("model").asText()).isEqualTo("test-tiny");
    assertThat(j.get("chip").asText()).isEqualTo("bm1684x");
    assertThat(j.get("planner").asText()).isEqualTo("test-stack");
    assertThat(j.get("status").asText()).isEqualTo("FEASIBLE");
    assertThat(j.get("weightBytes").asLong()).isEqualTo(p.weights().totalBytes());
    assertThat(j.get("peakBytes").asLong()).isEqualTo(a.totalBytes()); // stacked: no reuse
    assertThat(j.get("lowerBound").asLong()).isEqualTo(LowerBounds.maxLoad(a));
    assertThat(j.get("ratio").asDouble())
        .isCloseTo((double) a.totalBytes() / LowerBounds.maxLoad(a), within(1e-4));
    assertThat(j.get("buffers").asInt()).isEqualTo(a.size());
    assertThat(j.get("millis").isNumber()).isTrue();

    Run text = run("gmem", "--model", "test-tiny", "--planner", "test-stack");
    assertThat(text.code()).isZero();
    assertThat(text.out())
        .containsPattern("(?m)^model +test-tiny$")
        .containsPattern("(?m)^chip +bm1684x$")
        .containsPattern("(?m)^weights +" + p.weights().totalBytes() + " B ")
        .containsPattern("(?m)^activation peak +" + a.totalBytes() + " B ")
        .containsPattern("(?m)^lower bound +" + LowerBounds.maxLoad(a) + " B ")
        .containsPattern("(?m)^peak / bound +\\d\\.\\d{4}$")
        .containsPattern("(?m)^buffers +" + a.size() + "$")
        .containsPattern("(?m)^time +\\d+\\.\\d ms$");
  }

  @Test
  void inputsDieChangesTheLifetimes() throws IOException {
    long forever = LowerBounds.maxLoad(tinyActivations(false));
    long die = LowerBounds.maxLoad(tinyActivations(true));
    assertThat(die).isLessThan(forever);
    JsonNode j =
        run("gmem", "--model", "test-tiny", "--planner", "test-stack", "--inputs-die", "--json")
            .json();
    assertThat(j.get("lowerBound").asLong()).isEqualTo(die);
    assertThat(j.get("inputsDie").asBoolean()).isTrue();
  }

  @Test
  void gmemPlanIsWrittenAndValidates() throws IOException {
    Path out = dir.resolve("tiny.csv");
    Run r =
        run(
            "gmem",
            "--model",
            "test-tiny",
            "--chip",
            "BM1684X",
            "--planner",
            "test-stack",
            "--out",
            out.toString());
    assertThat(r.code()).isZero();
    MiniMallocCsv.Solved solved = MiniMallocCsv.readSolved(out);
    assertThat(solved.instance().buffers()).isEqualTo(tinyActivations(false).buffers());
    Run v = run("dsa", "--validate", out.toString(), "--json");
    assertThat(v.code()).isZero();
    assertThat(v.json().get("valid").asBoolean()).isTrue();
  }

  @Test
  void plansAZooModelWithABaseline() throws IOException {
    JsonNode j = run("gmem", "--model", "resnet18", "--planner", "tpumlir-doc", "--json").json();
    assertThat(j.get("status").asText()).isIn("FEASIBLE", "OPTIMAL");
    assertThat(j.get("peakBytes").asLong()).isGreaterThanOrEqualTo(j.get("lowerBound").asLong());
    assertThat(j.get("weightBytes").asLong()).isPositive();
  }

  @Test
  void unknownChipListsTheKnownOnes() {
    Run r = run("gmem", "--model", "test-tiny", "--chip", "h100", "--planner", "test-stack");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("memplan: unknown chip 'h100' (known: ").contains("bm1684x");
  }

  @Test
  void unknownModelListsTheKnownOnes() {
    Run r = run("gmem", "--model", "nope", "--planner", "test-stack");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("memplan: unknown model 'nope' (known: ").contains("test-tiny");
  }

  @Test
  void gmemNeedsAModel() {
    Run r = run("gmem", "--planner", "test-stack");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("memplan: Missing required option: '--model=NAME'");
  }

  @Test
  void plannerAllRunsEveryPlannerOneJsonLineEach() throws IOException {
    Run r = run("dsa", "--instance", small.toString(), "--planner", "all", "--json");
    // cpsat answers ERROR where OR-Tools has no native library, and any ERROR makes the exit 1
    assertThat(r.code()).as(r.err()).isEqualTo(CpSatPlanner.available() ? 0 : 1);
    List<String> lines = r.out().strip().lines().toList();
    List<String> ids = new java.util.ArrayList<>();
    for (String line : lines) {
      JsonNode j = JSON.readTree(line);
      ids.add(j.get("planner").asText());
      assertThat(j.get("instance").asText()).isEqualTo("small");
      assertThat(j.get("lowerBound").asLong()).isEqualTo(12);
      if (j.get("planner").asText().equals("naive")) {
        assertThat(j.get("peakBytes").asLong()).isEqualTo(16);
      }
    }
    assertThat(ids).contains("naive", "tpumlir-doc", "test-stack", "cpsat").isSorted();
  }

  @Test
  void plannerAllPrintsATableAndRefusesPlannerParameters() {
    Run table = run("dsa", "--instance", small.toString(), "--planner", "all");
    assertThat(table.code()).isEqualTo(CpSatPlanner.available() ? 0 : 1);
    assertThat(table.out()).startsWith("planner").contains("naive", "tpumlir-doc", "peak/LB");
    Run withParam =
        run("dsa", "--instance", small.toString(), "--planner", "all", "--param", "mode=stack");
    assertThat(withParam.code()).isEqualTo(2);
    assertThat(withParam.err()).contains("--param cannot be used with --planner all");
  }

  private static String[] concat(String[] head, String... tail) {
    String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, all, head.length, tail.length);
    return all;
  }
}
