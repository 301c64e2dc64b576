package io.github.memplan.datasets.darknet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.Models;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every cfg that Debian's {@code darknet} package installed imports, and is a zoo entry. Fast: no
 * darknet binary is run (that is {@link DarknetOracleIT}).
 */
class InstalledCfgsTest {
  @Test
  void everyInstalledCfgImportsAndIsInTheZoo() throws Exception {
    List<Path> cfgs = DarknetZoo.cfgFiles();
    assumeTrue(!cfgs.isEmpty(), "no darknet cfgs in " + DarknetZoo.directory());
    List<String> failures = new ArrayList<>();
    for (Path cfg : cfgs) {
      try {
        Graph g = DarknetImporter.load(cfg).graph();
        assertThat(g.name()).isEqualTo(DarknetImporter.graphName(cfg));
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
    assertThat(tiny.build().name()).isEqualTo("darknet-yolov3-tiny");
    assertThat(Models.get("darknet-darknet19-448").family()).isEqualTo("darknet");
  }

  @Test
  void idsAreLowerCaseWithDashes() {
    assertThat(DarknetZoo.id(Path.of("/x/yolov3-tiny.cfg"))).isEqualTo("darknet-yolov3-tiny");
    assertThat(DarknetZoo.id(Path.of("darknet19_448.cfg"))).isEqualTo("darknet-darknet19-448");
    assertThat(DarknetZoo.id(Path.of("cifar.test.cfg"))).isEqualTo("darknet-cifar-test");
    assertThat(DarknetZoo.id(Path.of("ResNeXt50.cfg"))).isEqualTo("darknet-resnext50");
  }
}
