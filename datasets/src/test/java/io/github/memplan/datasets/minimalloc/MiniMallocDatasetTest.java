package io.github.memplan.datasets.minimalloc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.dataset.ClasspathDataset;
import io.github.memplan.core.dataset.DatasetFile;
import io.github.memplan.core.dataset.DatasetProvider;
import io.github.memplan.core.dataset.Datasets;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.dsa.MiniMallocCsv;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The shipped MiniMalloc data: its index, checksums, license, entries and references. */
class MiniMallocDatasetTest {
  /** The resources as they lie in the source tree (the working directory is the module's). */
  private static final Path SOURCE_DIR = Path.of("src/main/resources", MiniMallocDataset.BASE);

  @Test
  void theIndexListsExactlyTheShippedFilesWithTheirSha256() throws IOException {
    List<DatasetFile> index = new MiniMallocDataset.Challenging().index();
    List<String> onDisk;
    try (Stream<Path> s = Files.walk(SOURCE_DIR)) {
      onDisk =
          s.filter(Files::isRegularFile)
              .map(p -> SOURCE_DIR.relativize(p).toString().replace('\\', '/'))
              .filter(p -> !p.equals(ClasspathDataset.INDEX))
              .sorted()
              .toList();
    }
    assertThat(index.stream().map(DatasetFile::path).sorted().toList()).isEqualTo(onDisk);
    for (DatasetFile f : index) {
      byte[] disk = Files.readAllBytes(SOURCE_DIR.resolve(f.path()));
      assertThat(DatasetFile.sha256Of(disk)).as(f.path()).isEqualTo(f.sha256());
      assertThat(f.bytes()).as(f.path()).isEqualTo(disk); // the class-path copy, checked
    }
  }

  @Test
  void theUpstreamChecksumsOfTheBenchmarkAreThoseRecordedAtCopyTime() {
    // from the SHA256SUMS taken when the files were copied from google/minimalloc at 9f5cf810
    assertThat(Datasets.resolve("minimalloc:A").file().sha256())
        .isEqualTo("4660c0d84de8a0bcada83e3a9faab2793bcb008f38b8eea228fe2b5b6c66af1a");
    assertThat(Datasets.resolve("minimalloc:K").file().sha256())
        .isEqualTo("0ed830405f662b2c35ba4f5dc408ac8c95678513ecde6ee4cce5b892b15db4f1");
    assertThat(Datasets.resolve("minimalloc:input.12").file().sha256())
        .isEqualTo("8688babc6b9ee57096fbe8a7ed89f93ee27e4b975731909a6eafdaae73dd43d1");
  }

  @Test
  void bothDatasetsAreRegisteredWithTheApacheLicenseAndProvenance() {
    List<DatasetProvider> all = Datasets.all();
    assertThat(all.stream().map(DatasetProvider::name))
        .contains("minimalloc/challenging", "minimalloc/examples");
    DatasetProvider c = Datasets.get("minimalloc/challenging");
    assertThat(c.problem()).isEqualTo("dsa");
    assertThat(c.license()).isEqualTo("Apache-2.0");
    assertThat(c.citation()).contains("9f5cf810fec4494df473c23cffd0567989e81b69");
    assertThat(c.entries().stream().map(DatasetFile::shortName))
        .containsExactly("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K");
    assertThat(c.documents().stream().map(DatasetFile::path))
        .containsExactly("LICENSE", "PROVENANCE.md");
    assertThat(c.documents().get(0).text()).contains("Apache License", "Version 2.0");
    assertThat(c.documents().get(1).text()).contains("9f5cf810fec4494df473c23cffd0567989e81b69");
    assertThat(Datasets.get("minimalloc/examples").entries().stream().map(DatasetFile::name))
        .containsExactly("input.12");
  }

  @Test
  void referencesNameOneEntryByDatasetOrFamilyAndByNameFileOrShortName() {
    for (String ref :
        List.of(
            "minimalloc:A",
            "minimalloc:A.1048576",
            "minimalloc:A.1048576.csv",
            "minimalloc/challenging:A",
            "minimalloc/challenging:A.1048576")) {
      Datasets.Entry e = Datasets.resolve(ref);
      assertThat(e.reference()).as(ref).isEqualTo("minimalloc/challenging:A.1048576");
      assertThat(e.source()).isEqualTo("minimalloc/challenging/A.1048576.csv");
    }
    assertThat(Datasets.resolve("minimalloc:input.12").reference())
        .isEqualTo("minimalloc/examples:input.12");
    assertThat(Datasets.isReference("minimalloc:A")).isTrue();
    assertThat(Datasets.isReference("nosuchset:A")).isTrue(); // no such file either
    assertThat(Datasets.isReference("data/A.1048576.csv")).isFalse();
    assertThat(Datasets.entries("minimalloc/challenging", List.of("K", "A")))
        .extracting(e -> e.file().name())
        .containsExactly("K.1048576", "A.1048576");
  }

  @Test
  void badReferencesFailWithOneLineNamingWhatIsWrong() {
    assertThatThrownBy(() -> Datasets.resolve("minimalloc:Z"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("dataset 'minimalloc' has no entry 'Z' (entries: ")
        .hasMessageContaining("minimalloc/challenging:A.1048576")
        .hasMessageContaining("minimalloc/examples:input.12");
    assertThatThrownBy(() -> Datasets.resolve("minimalloc/examples:A"))
        .hasMessage("dataset 'minimalloc/examples' has no entry 'A' (entries: input.12)");
    assertThatThrownBy(() -> Datasets.resolve("nosuchset:A"))
        .hasMessageStartingWith("unknown dataset 'nosuchset' in 'nosuchset:A' (known: ")
        .hasMessageContaining("minimalloc/challenging");
    assertThatThrownBy(() -> Datasets.get("minimalloc"))
        .hasMessageStartingWith("unknown dataset 'minimalloc' (known: ");
    assertThatThrownBy(() -> MiniMallocCsv.readInstance("nosuchset:A", Path.of("")))
        .hasMessageStartingWith("unknown dataset 'nosuchset'")
        .hasMessageNotContaining("\n");
  }

  @Test
  void readsMiniMallocExample() throws IOException {
    DsaInstance in = MiniMallocCsv.readInstance("minimalloc:input.12", Path.of(""));
    assertThat(in.name()).isEqualTo("input.12");
    assertThat(in.buffers())
        .containsExactly(
            Buffer.of("b1", 0, 3, 4),
            Buffer.of("b2", 3, 9, 4),
            Buffer.of("b3", 0, 9, 4),
            Buffer.of("b4", 9, 21, 4),
            Buffer.of("b5", 0, 21, 4));
    // the 12 in the name is the optimal peak; with equal sizes it is the max load
    assertThat(LowerBounds.maxLoad(in)).isEqualTo(12);
  }

  @Test
  void readsMiniMallocChallengingInstanceAndWritesItBackByteForByte() throws IOException {
    Datasets.Entry a = Datasets.resolve("minimalloc:A");
    DsaInstance in = MiniMallocCsv.readInstance(a);
    assertThat(in.name()).isEqualTo("A.1048576");
    assertThat(in.size()).isEqualTo(154);
    assertThat(in.buffer(0)).isEqualTo(Buffer.of("0", 995328, 1000448, 656384));
    // the benchmark is solvable within 2^20 bytes, so its max load cannot exceed that
    assertThat(LowerBounds.maxLoad(in)).isPositive().isLessThanOrEqualTo(1 << 20);
    StringWriter w = new StringWriter();
    MiniMallocCsv.write(in, null, w);
    assertThat(w.toString()).isEqualTo(new String(a.file().bytes(), StandardCharsets.UTF_8));
  }

  @Test
  void everyChallengingInstanceReadsAndFitsTheCapacityInItsName() throws IOException {
    for (Datasets.Entry e : Datasets.entries("minimalloc/challenging", List.of())) {
      DsaInstance in = MiniMallocCsv.readInstance(e);
      assertThat(in.name()).isEqualTo(e.file().name());
      assertThat(LowerBounds.maxLoad(in)).as(in.name()).isLessThanOrEqualTo(1 << 20);
    }
  }
}
