package io.github.memplan.experiments.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemJson;
import io.github.memplan.core.lmem.LmemValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memplan group --audit-lmem} and {@code --dump-lmem} on resnet18 (after the front end: 32
 * ops) on cv183x grouped by {@code tpumlir-dp}, whose {@code lmem-tpumlir} placements accept bank
 * conflicts in two of its six groups (on the 69-op ONNX-level graph it was eleven of fourteen). The
 * audit runs without a time limit, so that its verdicts do not depend on the machine; both are
 * proven impossible (conflict-free placement infeasible), e.g. group 3 (three ops, nine buffers,
 * eight conflicts). Counts read from a run.
 */
class GroupAuditTest {

  private static MainTest.Run group(String... more) {
    String[] args = {
      "group", "--model", "resnet18", "--chip", "cv183x", "--planner", "tpumlir-dp",
    };
    String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return MainTest.run(all);
  }

  @Test
  void auditsEveryGroupWithConflictsAndDumpsTheInstances(@TempDir Path dir) throws IOException {
    MainTest.Run r =
        group(
            "--audit-lmem",
            "lmem-exact",
            "--audit-time-limit",
            "none",
            "--dump-lmem",
            dir.toString(),
            "--json");
    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    JsonNode j = r.json();
    JsonNode groups = j.get("groups");
    JsonNode audit = j.get("audit");
    assertThat(audit.get("planner").asText()).isEqualTo("lmem-exact");
    assertThat(audit.get("params").get("conflict").asText()).isEqualTo("hard");
    assertThat(audit.get("params").get("straddle").asText()).isEqualTo("soft");
    assertThat(audit.get("params").get("goal").asText()).isEqualTo("satisfy");

    // the audited groups are exactly those with conflicts, with the grouping's counts
    int withConflicts = 0;
    int audited = 0;
    for (int k = 0; k < groups.size(); k++) {
      int conflicts = groups.get(k).get("bankConflicts").asInt();
      if (conflicts == 0) {
        continue;
      }
      withConflicts++;
      JsonNode a = audit.get("groups").get(audited++);
      assertThat(a.get("group").asInt()).isEqualTo(k);
      assertThat(a.get("conflicts").asInt()).isEqualTo(conflicts);
      assertThat(a.get("auditStatus").asText()).isEqualTo("INFEASIBLE");
      assertThat(a.get("verdict").asText()).isEqualTo("impossible");
    }
    assertThat(audited).isEqualTo(audit.get("groups").size()).isEqualTo(withConflicts);
    assertThat(audit.get("groupsWithConflicts").asInt()).isEqualTo(2);
    assertThat(audit.get("provenImpossible").asInt()).isEqualTo(2);
    assertThat(audit.get("conflictFree").asInt()).isZero();
    assertThat(audit.get("undecided").asInt()).isZero();
    assertThat(audit.get("summary").asText())
        .isEqualTo(
            "audit: 2 groups with conflicts; 0 conflict-free placements found;"
                + " 2 proven impossible; 0 undecided in budget");

    // one LMEM JSON per group, read back with the grouping's placement
    for (int k = 0; k < groups.size(); k++) {
      Path f = dir.resolve("resnet18-cv183x-group-" + k + ".json");
      assertThat(groups.get(k).get("lmemFile").asText()).isEqualTo(f.toString());
      LmemJson.Read read = LmemJson.read(f);
      assertThat(read.solution()).isPresent();
      assertThat(new LmemValidator().validate(read.instance(), read.solution().get())).isEmpty();
      assertThat(LmemBanks.report(read.instance(), read.solution().get()).conflictCount())
          .isEqualTo(groups.get(k).get("bankConflicts").asInt());
    }
    try (var files = Files.list(dir)) {
      assertThat(files.count()).isEqualTo(groups.size());
    }
  }

  @Test
  void textEndsWithOneLinePerAuditedGroupAndTheTotals() {
    MainTest.Run r = group("--audit-lmem", "lmem-exact", "--audit-time-limit", "none");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains("audit with lmem-exact {conflict=hard, goal=satisfy, straddle=soft}")
        .containsPattern("(?m)^3 +9 +8 +INFEASIBLE +- +-$")
        .endsWith(
            "audit: 2 groups with conflicts; 0 conflict-free placements found;"
                + " 2 proven impossible; 0 undecided in budget"
                + System.lineSeparator());
  }

  @Test
  void auditParamsOverrideAndNeedTheAudit() {
    MainTest.Run bad = group("--audit-param", "conflict=soft");
    assertThat(bad.code()).isNotZero();
    assertThat(bad.err()).contains("--audit-param needs --audit-lmem");

    MainTest.Run unknown = group("--audit-lmem", "lmem-exact", "--audit-param", "bogus=1");
    assertThat(unknown.code()).isNotZero();
    assertThat(unknown.err()).contains("lmem-exact", "bogus");
  }
}
