package io.github.memplan.experiments.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuiteParserTest {
  @TempDir Path dir;

  private static final String HEAD = "suite: q\nproblems:\n";
  private static final String GEN = "    instances: [{generate: 10, seed: 1}]\n";

  private Suite parse(String yaml) throws Exception {
    Path f = dir.resolve("q.yaml");
    Files.writeString(f, yaml, StandardCharsets.UTF_8);
    return SuiteParser.parse(f);
  }

  /** A dsa problem with naive on one generated instance, then {@code extra} (one line). */
  private static String naiveOnDsa(String extra) {
    return HEAD + "  - problem: dsa\n" + GEN + "    planners: [naive]\n    " + extra + "\n";
  }

  private void fails(String yaml, String message) {
    assertThatThrownBy(() -> parse(yaml))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void aFullSuiteResolvesGlobsSortedRelativeToTheSuiteFileAndPlannerDefaults() throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    for (String n : new String[] {"b", "a", "c"}) {
      Files.writeString(data.resolve(n + ".csv"), "id,lower,upper,size\n0,0,2,8\n1,1,3,8\n");
    }
    Files.writeString(data.resolve("notes.txt"), "not an instance");
    Suite s =
        parse(
            "suite: q\nseed: 3\nreplicates: 2\nbudget: {time-limit: 2s, steps: 100}\n"
                + "problems:\n  - problem: dsa\n    instances: ['data/*.csv', {generate: 10}]\n"
                + "    planners:\n      - naive\n"
                + "      - {planner: exact, label: exact-decide, params: {mode: decide}}\n"
                + "    metrics: [peak-over-lower-bound, peak-bytes]\n"
                + "    budget: {time-limit: 1s}\n");
    assertThat(s.seed()).isEqualTo(3);
    assertThat(s.replicates()).isEqualTo(2);
    Suite.Problem<?, ?> p = s.problems().get(0);
    assertThat(p.instances())
        .extracting(SuiteInstance::name)
        .containsExactly("a", "b", "c", "gen-10-s1");
    assertThat(p.planners().get(1).label()).isEqualTo("exact-decide");
    assertThat(p.planners().get(1).paramsString()).contains("mode=decide");
    // the metrics keep the problem's order, not the file's
    assertThat(p.metrics())
        .extracting(MetricInfo::id)
        .containsExactly("peak-bytes", "peak-over-lower-bound");
    assertThat(p.budget()).isEqualTo(new Suite.BudgetSpec(Duration.ofSeconds(1), 100));
  }

  @Test
  void anUnknownKeyFailsNamingItsPath() {
    fails(
        HEAD + "  - problem: dsa\n" + GEN + "    planners: [naive]\n    planer: x\n",
        "q.yaml: problems[0].planer: unknown key (known: problem, chips, instances, planners,"
            + " metrics, budget)");
  }

  @Test
  void anUnknownParameterFailsNamingThePlannerAndKeyPath() {
    fails(
        HEAD
            + "  - problem: dsa\n"
            + GEN
            + "    planners:\n      - naive\n"
            + "      - {planner: test-stack, params: {x: 1}}\n",
        "q.yaml: problems[0].planners[1].params.x: planner 'test-stack': unknown parameter 'x'"
            + " (known: mode)");
  }

  @Test
  void anUnknownPlannerProblemOrMetricFails() {
    assertThatThrownBy(() -> parse(HEAD + "  - problem: dsa\n" + GEN + "    planners: [nope]\n"))
        .hasMessageStartingWith("q.yaml: problems[0].planners[0]: unknown planner 'nope'");
    assertThatThrownBy(() -> parse(HEAD + "  - problem: lmem2\n"))
        .hasMessageStartingWith("q.yaml: problems[0].problem: unknown problem 'lmem2' (known:");
    assertThatThrownBy(() -> parse(naiveOnDsa("metrics: [speed]")))
        .hasMessageStartingWith(
            "q.yaml: problems[0].metrics[0]: unknown metric 'speed' for problem 'dsa'");
  }

  @Test
  void missingAndMalformedValuesFail() {
    fails(
        HEAD + "  - problem: dsa\n    planners: [naive]\n",
        "q.yaml: problems[0].instances: missing");
    fails("problems: []\n", "q.yaml: suite: missing: every suite has a name");
    fails(
        HEAD + "  - problem: dsa\n" + GEN + "    planners: [naive, naive]\n",
        "q.yaml: problems[0].planners[1]: planner label 'naive' appears twice (give the second one"
            + " a 'label')");
    assertThatThrownBy(() -> parse(naiveOnDsa("budget: {time-limit: soon}")))
        .hasMessageStartingWith("q.yaml: problems[0].budget.time-limit: 'soon' is not a duration");
    assertThatThrownBy(() -> parse("suite: q\nproblems: [\n"))
        .hasMessageStartingWith("q.yaml:")
        .hasMessageContaining("not valid YAML");
  }

  @Test
  void filesAndGlobsThatMatchNothingFail() {
    fails(
        HEAD + "  - problem: dsa\n    instances: ['none/*.csv']\n    planners: [naive]\n",
        "q.yaml: problems[0].instances[0]: 'none/*.csv': no directory " + dir.resolve("none"));
    assertThatThrownBy(
            () -> parse(HEAD + "  - problem: dsa\n    instances: [x.csv]\n    planners: [naive]\n"))
        .hasMessage("q.yaml: problems[0].instances[0]: " + dir.resolve("x.csv") + ": no such file");
    assertThatThrownBy(
            () ->
                parse(
                    HEAD
                        + "  - problem: gmem\n    instances: [resnet9000]\n    planners: [naive]\n"))
        .hasMessageStartingWith("q.yaml: problems[0].instances[0]: unknown model 'resnet9000'");
    // a malformed glob: one line (PatternSyntaxException's own message spans three)
    fails(
        HEAD + "  - problem: dsa\n    instances: ['a{b.csv']\n    planners: [naive]\n",
        "q.yaml: problems[0].instances[0]: 'a{b.csv': bad glob: Missing '} near index 6");
  }

  @Test
  void modelProblemsTakeAFrontEndKeyThatNamesTheInstance() throws Exception {
    Suite s =
        parse(
            HEAD
                + "  - problem: gmem\n"
                + "    instances: [resnet18, {model: resnet18, front-end: none}]\n"
                + "    planners: [naive]\n"
                + "  - problem: group\n"
                + "    instances: [{model: resnet18, front-end: 'all,-fuse-relu', h2-rule: false},"
                + " {model: resnet18, h2-rule: true}, resnet18]\n"
                + "    planners: [tpumlir-v0]\n");
    Suite.Problem<?, ?> gmem = s.problems().get(0);
    assertThat(gmem.instances())
        .extracting(SuiteInstance::name)
        .containsExactly("resnet18@bm1684x", "resnet18@bm1684x-fe-none");
    // the fused graph has fewer activations: BatchNorm and ReLU results are gone
    int fused =
        ((io.github.memplan.core.dsa.DsaInstance) gmem.instances().get(0).loader().get()).size();
    int asBuilt =
        ((io.github.memplan.core.dsa.DsaInstance) gmem.instances().get(1).loader().get()).size();
    assertThat(fused).isLessThan(asBuilt);
    assertThat(s.problems().get(1).instances())
        .extracting(SuiteInstance::name)
        .containsExactly(
            "resnet18@bm1684x-no-h2-fe-onnx-opt,bn-to-conv,matmul-bias,attention",
            "resnet18@bm1684x-h2",
            "resnet18@bm1684x");
    // without h2-rule the rule follows each planner's era; true or false force it
    assertThat(s.problems().get(1).instances())
        .extracting(i -> ((GroupProblem) i.loader().get()).options().h2Rule())
        .containsExactly(GroupOptions.H2Rule.OFF, GroupOptions.H2Rule.ON, GroupOptions.H2Rule.ERA);
    assertThatThrownBy(
            () ->
                parse(
                    HEAD
                        + "  - problem: gmem\n"
                        + "    instances: [{model: resnet18, front-end: fuse-all}]\n"
                        + "    planners: [naive]\n"))
        .hasMessageStartingWith(
            "q.yaml: problems[0].instances[0]: unknown front-end pass 'fuse-all'");
  }

  private static long bufferBytes(SuiteInstance<?> gmem) throws Exception {
    return ((io.github.memplan.core.dsa.DsaInstance) gmem.loader().get())
        .buffers().stream().mapToLong(io.github.memplan.core.dsa.Buffer::size).sum();
  }

  @Test
  void modelProblemsTakeAQuantizeKeyThatNamesTheInstanceWhenNotF32() throws Exception {
    Suite s =
        parse(
            HEAD
                + "  - problem: gmem\n"
                + "    instances: [resnet18, {model: resnet18, quantize: INT8}]\n"
                + "    planners: [naive]\n"
                + "  - problem: group\n"
                + "    instances: [{model: resnet18, quantize: F32}, {model: resnet18, quantize:"
                + " bf16}]\n"
                + "    planners: [tpumlir-v0]\n");
    Suite.Problem<?, ?> gmem = s.problems().get(0);
    assertThat(gmem.instances())
        .extracting(SuiteInstance::name)
        .containsExactly("resnet18@bm1684x", "resnet18@bm1684x-int8");
    // INT8 activations are smaller than the F32 ones
    assertThat(bufferBytes(gmem.instances().get(1)))
        .isLessThan(bufferBytes(gmem.instances().get(0)));
    assertThat(s.problems().get(1).instances())
        .extracting(SuiteInstance::name)
        .containsExactly("resnet18@bm1684x", "resnet18@bm1684x-bf16");
    assertThatThrownBy(
            () ->
                parse(
                    HEAD
                        + "  - problem: gmem\n"
                        + "    instances: [{model: resnet18, quantize: int4}]\n"
                        + "    planners: [naive]\n"))
        .hasMessage(
            "q.yaml: problems[0].instances[0]: unknown --quantize value 'int4' (allowed: F32,"
                + " BF16, F16, INT8)");
  }

  @Test
  void aModelEntryTakesListsOfModelsAndPrecisionsAndExpandsModelThenChipThenPrecision()
      throws Exception {
    Suite s =
        parse(
            HEAD
                + "  - problem: group\n"
                + "    chips: [bm1684x, cv183x]\n"
                + "    instances: [{model: [resnet18, squeezenet1.0], quantize: [BF16, INT8],"
                + " h2-rule: false}]\n"
                + "    planners: [tpumlir-v0]\n");
    assertThat(s.problems().get(0).instances())
        .extracting(SuiteInstance::name)
        .containsExactly(
            "resnet18@bm1684x-no-h2-bf16",
            "resnet18@bm1684x-no-h2-int8",
            "resnet18@cv183x-no-h2-bf16",
            "resnet18@cv183x-no-h2-int8",
            "squeezenet1.0@bm1684x-no-h2-bf16",
            "squeezenet1.0@bm1684x-no-h2-int8",
            "squeezenet1.0@cv183x-no-h2-bf16",
            "squeezenet1.0@cv183x-no-h2-int8");
    // a precision the chip does not compile fails when the suite loads, naming the entry
    assertThatThrownBy(
            () ->
                parse(
                    HEAD
                        + "  - problem: gmem\n"
                        + "    chips: [cv183x]\n"
                        + "    instances: [{model: [resnet18], quantize: [INT8, F32]}]\n"
                        + "    planners: [naive]\n"))
        .hasMessageStartingWith("q.yaml: problems[0].instances[0]: ")
        .hasMessageContaining("F32");
    for (String bad : List.of("[]", "[resnet18, 3]", "{a: b}")) {
      assertThatThrownBy(
              () ->
                  parse(
                      HEAD
                          + "  - problem: gmem\n"
                          + "    instances: [{model: "
                          + bad
                          + "}]\n"
                          + "    planners: [naive]\n"))
          .as(bad)
          .hasMessage(
              "q.yaml: problems[0].instances[0]: model: expected a model name or file, or a list"
                  + " of them");
    }
  }

  @Test
  void theShippedSuitesParse() throws Exception {
    List<Path> suites;
    try (java.util.stream.Stream<Path> files = Files.list(Path.of("suites"))) {
      suites = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
    assertThat(suites.stream().map(f -> f.getFileName().toString()))
        .contains("quick.yaml", "minimalloc.yaml", "paper.yaml");
    for (Path f : suites) {
      Suite s = SuiteParser.parse(f);
      assertThat(s.name()).isEqualTo(f.getFileName().toString().replace(".yaml", ""));
      assertThat(s.problems()).allSatisfy(p -> assertThat(p.instances()).isNotEmpty());
    }
  }

  @Test
  void dsaInstancesNameShippedDatasetEntries() throws Exception {
    Suite s =
        parse(
            HEAD
                + "  - problem: dsa\n    instances: [minimalloc:A, {dataset: minimalloc/challenging,"
                + " entries: [K, F]}, {dataset: minimalloc/examples}]\n    planners: [naive]\n");
    assertThat(s.problems().get(0).instances().stream().map(SuiteInstance::name))
        .containsExactly("A.1048576", "K.1048576", "F.1048576", "input.12");
    Object a = s.problems().get(0).instances().get(0).loader().get();
    assertThat(((io.github.memplan.core.dsa.DsaInstance) a).size()).isEqualTo(154);
    assertThatThrownBy(
            () ->
                parse(
                    HEAD
                        + "  - problem: dsa\n    instances: [{dataset: minimalloc/nope}]\n"
                        + "    planners: [naive]\n"))
        .hasMessageStartingWith(
            "q.yaml: problems[0].instances[0]: unknown dataset 'minimalloc/nope' (known: ");
    assertThatThrownBy(
            () ->
                parse(
                    HEAD
                        + "  - problem: dsa\n    instances: ['minimalloc:Z']\n"
                        + "    planners: [naive]\n"))
        .hasMessageStartingWith(
            "q.yaml: problems[0].instances[0]: dataset 'minimalloc' has no entry 'Z'");
  }
}
