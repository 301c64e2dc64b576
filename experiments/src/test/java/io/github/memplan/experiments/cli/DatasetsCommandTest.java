package io.github.memplan.experiments.cli;

import static io.github.memplan.experiments.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.memplan.core.dataset.DatasetFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetsCommandTest {
  @TempDir Path dir;

  private static JsonNode json(String s) throws IOException {
    return new ObjectMapper().readTree(s);
  }

  @Test
  void listShowsMiniMallocsChallengingSet() {
    MainTest.Run r = run("datasets", "list");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .startsWith("NAME")
        .contains("minimalloc/challenging  dsa")
        .contains("Apache-2.0");
  }

  @Test
  void showChecksEveryEntryAndGivesBuffersAndMaxLoad() throws IOException {
    MainTest.Run r = run("datasets", "show", "minimalloc/challenging", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = json(r.out());
    assertThat(j.get("license").asText()).isEqualTo("Apache-2.0");
    assertThat(j.get("entries")).hasSize(11);
    JsonNode a = j.get("entries").get(0);
    assertThat(a.get("reference").asText()).isEqualTo("minimalloc/challenging:A.1048576");
    assertThat(a.get("buffers").asInt()).isEqualTo(154);
    assertThat(a.get("maxLoad").asLong()).isPositive().isLessThanOrEqualTo(1 << 20);
    MainTest.Run text = run("datasets", "show", "minimalloc/examples");
    assertThat(text.out()).contains("checksums    1 entries match").contains("input.12");
  }

  @Test
  void exportWritesFilesDocumentsAndSumsThatMatch() throws IOException {
    Path out = dir.resolve("mm");
    MainTest.Run r = run("datasets", "export", "minimalloc/challenging", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(out.resolve("LICENSE")).exists();
    assertThat(out.resolve("PROVENANCE.md")).exists();
    List<String> sums = Files.readAllLines(out.resolve("SHA256SUMS"));
    assertThat(sums).hasSize(13);
    for (String line : sums) {
      String[] f = line.split("  ", 2);
      assertThat(DatasetFile.sha256Of(Files.readAllBytes(out.resolve(f[1])))).isEqualTo(f[0]);
    }
    // a second export into the same folder finds the same bytes and succeeds
    assertThat(run("datasets", "export", "minimalloc/challenging", out.toString()).code()).isZero();
  }

  @Test
  void exportNeverOverwritesAnotherFile() throws IOException {
    Files.createDirectories(dir.resolve("challenging"));
    Path mine = dir.resolve("challenging/A.1048576.csv");
    Files.writeString(mine, "my own data\n");
    MainTest.Run r = run("datasets", "export", "minimalloc/challenging", dir.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            "memplan: "
                + mine
                + ": exists with other content; nothing was exported (choose an empty DIR)\n");
    assertThat(Files.readString(mine)).isEqualTo("my own data\n");
    assertThat(dir.resolve("LICENSE")).doesNotExist();
  }

  @Test
  void unknownDatasetIsOneLine() {
    MainTest.Run r = run("datasets", "show", "nope");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .startsWith("memplan: unknown dataset 'nope' (known: ")
        .doesNotContain("\tat ");
    assertThat(r.err().lines()).hasSize(1);
  }

  @Test
  void dsaPlansADatasetEntryByReference() throws IOException {
    MainTest.Run r =
        run("dsa", "--instance", "minimalloc:input.12", "--planner", "exact", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = json(r.out());
    assertThat(j.get("instance").asText()).isEqualTo("input.12");
    assertThat(j.get("file").asText()).isEqualTo("minimalloc:input.12");
    assertThat(j.get("peakBytes").asLong()).isEqualTo(12);
    assertThat(j.get("status").asText()).isEqualTo("OPTIMAL");
    MainTest.Run bad = run("dsa", "--instance", "minimalloc:Z", "--planner", "exact");
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err()).startsWith("memplan: dataset 'minimalloc' has no entry 'Z'");
  }
}
