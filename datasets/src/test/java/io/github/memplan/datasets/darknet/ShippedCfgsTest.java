package io.github.memplan.datasets.darknet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.Models;
import io.github.memplan.datasets.darknet.DarknetZoo.Cfg;
import io.github.memplan.datasets.darknet.DarknetZoo.Entry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 45 darknet cfgs that memplan ships as resources: their index and checksums, and that each
 * imports and is a zoo entry, whether or not Debian's {@code darknet} package is installed. Fast:
 * no darknet binary is run (that is {@link DarknetOracleIT}).
 */
class ShippedCfgsTest {
  /** The files beside the cfgs that are not in the index. */
  private static final Set<String> NOT_INDEXED =
      Set.of(DarknetZoo.INDEX, "LICENSE", "PROVENANCE.md");

  /** The shipped directory in the module's sources. */
  private static Path sources() {
    return Path.of(
        System.getProperty("basedir", "."), "src/main/resources", DarknetZoo.RESOURCE_DIR);
  }

  /** {@code name.cfg} to its SHA-256, in index order. */
  private static Map<String, String> index(Path dir) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    for (String line : Files.readAllLines(dir.resolve(DarknetZoo.INDEX))) {
      String[] parts = line.split("  ", 2);
      assertThat(parts).as("index line '%s'", line).hasSize(2);
      assertThat(out.put(parts[1], parts[0])).as("%s listed twice", parts[1]).isNull();
    }
    return out;
  }

  @Test
  void theIndexListsExactlyTheShippedFilesWithTheirSha256() throws Exception {
    Path dir = sources();
    assertThat(dir).isDirectory();
    Map<String, String> index = index(dir);
    assertThat(index).hasSize(45);
    Set<String> present = new TreeSet<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.forEach(f -> present.add(f.getFileName().toString()));
    }
    Set<String> expected = new TreeSet<>(index.keySet());
    expected.addAll(NOT_INDEXED);
    assertThat(present).as("files in " + dir).isEqualTo(expected);
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    List<String> wrong = new ArrayList<>();
    for (Map.Entry<String, String> e : index.entrySet()) {
      String actual =
          HexFormat.of().formatHex(sha256.digest(Files.readAllBytes(dir.resolve(e.getKey()))));
      if (!actual.equals(e.getValue())) {
        wrong.add(e.getKey() + " has SHA-256 " + actual + ", the index says " + e.getValue());
      }
    }
    assertThat(wrong).isEmpty();
    String provenance = Files.readString(dir.resolve("PROVENANCE.md"), StandardCharsets.UTF_8);
    assertThat(index.keySet())
        .allMatch(f -> provenance.contains("`" + f + "`"), "named in PROVENANCE.md");
    assertThat(provenance).contains(DarknetZoo.UPSTREAM_COMMIT);
  }

  @Test
  void theZooReadsTheShippedCfgsFromTheClassPath() throws Exception {
    List<Cfg> shipped = DarknetZoo.shipped();
    assertThat(shipped).hasSize(45);
    assertThat(shipped).extracting(Cfg::file).isSorted().containsAll(index(sources()).keySet());
    for (Cfg c : shipped) {
      assertThat(c.shipped()).isTrue();
      assertThat(c.where()).isEqualTo("classpath:" + DarknetZoo.RESOURCE_DIR + c.file());
      assertThat(c.url().toString()).doesNotContain("/usr/share/darknet");
    }
    // without the system property the zoo's cfgs are the shipped ones
    assertThat(DarknetZoo.cfgs(null)).isEqualTo(shipped);
    assertThat(DarknetZoo.cfgs(" ")).isEqualTo(shipped);
  }

  @Test
  void everyShippedCfgImportsAndIsInTheZoo() throws Exception {
    List<Cfg> cfgs = DarknetZoo.cfgs();
    assertThat(cfgs).hasSize(45);
    List<String> failures = new ArrayList<>();
    for (Cfg cfg : cfgs) {
      try {
        Graph g = DarknetImporter.build(cfg.read(), cfg.graphName(), 1).graph();
        assertThat(g.name()).isEqualTo(cfg.graphName());
      } catch (IllegalArgumentException e) {
        failures.add(e.getMessage());
      }
    }
    assertThat(failures).as("cfgs that do not import").isEmpty();

    List<ModelProvider> zoo =
        Models.all().stream().filter(p -> p.source().equals("darknet")).toList();
    assertThat(zoo).hasSameSizeAs(cfgs);
    ModelProvider tiny = Models.get("darknet-yolov3-tiny");
    assertThat(tiny.family()).isEqualTo("yolo");
    assertThat(tiny.description()).isEqualTo("darknet yolov3-tiny.cfg, 1x3x416x416, fp32");
    assertThat(tiny.citation())
        .isEqualTo(
            "pjreddie/darknet cfg/yolov3-tiny.cfg at commit 61c9d02e, shipped as memplan resource"
                + " io/github/memplan/datasets/darknet/cfg/yolov3-tiny.cfg");
    assertThat(tiny.build().name()).isEqualTo("darknet-yolov3-tiny");
    assertThat(Models.get("darknet-darknet19-448").family()).isEqualTo("darknet");
  }

  @Test
  void aDirectoryInThePropertyReplacesTheShippedCfgs(@TempDir Path dir) throws Exception {
    Cfg tinyShipped =
        DarknetZoo.shipped().stream()
            .filter(c -> c.file().equals("yolov3-tiny.cfg"))
            .findFirst()
            .orElseThrow();
    Path tiny = dir.resolve("yolov3-tiny.cfg");
    Files.writeString(tiny, tinyShipped.text());
    Files.writeString(dir.resolve("bad.cfg"), "[net]\nwidth=1\n");
    Files.writeString(dir.resolve("notes.txt"), "not a cfg\n");

    List<Cfg> cfgs = DarknetZoo.cfgs(dir.toString());
    assertThat(cfgs).extracting(Cfg::file).containsExactly("bad.cfg", "yolov3-tiny.cfg");
    assertThat(cfgs).noneMatch(Cfg::shipped);
    Entry entry = new Entry(cfgs.get(1));
    assertThat(entry.name()).isEqualTo("darknet-yolov3-tiny");
    assertThat(entry.citation())
        .isEqualTo("pjreddie/darknet cfg/yolov3-tiny.cfg, read from " + tiny);
    assertThat(entry.build().ops()).hasSameSizeAs(new Entry(tinyShipped).build().ops());
    // errors name the file, in one line
    assertThatThrownBy(() -> new Entry(cfgs.get(0)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(dir.resolve("bad.cfg") + ":1: [net]: no input size")
        .hasMessageNotContaining("\n");

    assertThat(DarknetZoo.cfgs(dir.resolve("absent").toString())).isEmpty();
  }

  @Test
  void idsAreLowerCaseWithDashes() {
    assertThat(DarknetZoo.id("yolov3-tiny.cfg")).isEqualTo("darknet-yolov3-tiny");
    assertThat(DarknetZoo.id("darknet19_448.cfg")).isEqualTo("darknet-darknet19-448");
    assertThat(DarknetZoo.id("cifar.test.cfg")).isEqualTo("darknet-cifar-test");
    assertThat(DarknetZoo.id("ResNeXt50.cfg")).isEqualTo("darknet-resnext50");
  }
}
