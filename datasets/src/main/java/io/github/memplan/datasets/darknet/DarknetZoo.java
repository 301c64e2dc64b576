package io.github.memplan.datasets.darknet;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.ModelSource;
import io.github.memplan.core.ir.Shape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * One zoo entry per darknet {@code .cfg} file installed on the machine: Debian's {@code darknet}
 * package puts pjreddie/darknet's 45 cfgs in {@code /usr/share/darknet/cfg} (the system property
 * {@value #DIR_PROPERTY} names another directory). Without the directory the zoo simply has no
 * darknet entries. Ids are {@code darknet-} and the file name without {@code .cfg}, lower-cased,
 * with {@code .} and {@code _} as {@code -}: {@code darknet-yolov3-tiny}, {@code
 * darknet-darknet19-448}, {@code darknet-cifar-test}. Each builds at batch 1 with {@link
 * DarknetImporter}.
 */
public final class DarknetZoo implements ModelSource {
  /** The system property that overrides {@link #DEFAULT_DIR}. */
  public static final String DIR_PROPERTY = "memplan.darknet.cfg";

  /** Where Debian's {@code darknet} package installs the cfg files. */
  public static final Path DEFAULT_DIR = Path.of("/usr/share/darknet/cfg");

  /** The directory searched for cfg files. */
  public static Path directory() {
    String p = System.getProperty(DIR_PROPERTY);
    return p == null || p.isBlank() ? DEFAULT_DIR : Path.of(p);
  }

  /** The cfg files of {@link #directory()}, sorted by name; empty when it does not exist. */
  public static List<Path> cfgFiles() {
    Path dir = directory();
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".cfg") && Files.isRegularFile(f))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The zoo id of {@code cfg}: {@code darknet-yolov3-tiny} for {@code yolov3-tiny.cfg}. */
  public static String id(Path cfg) {
    String base = DarknetImporter.graphName(cfg).toLowerCase(Locale.ROOT);
    return "darknet-" + base.replaceAll("[^a-z0-9-]", "-");
  }

  @Override
  public List<ModelProvider> models() {
    return cfgFiles().stream().map(f -> (ModelProvider) new Entry(f)).toList();
  }

  /** The zoo entry of one installed cfg file. */
  public record Entry(Path cfg) implements ModelProvider {
    @Override
    public String name() {
      return id(cfg);
    }

    @Override
    public String description() {
      try {
        Shape in = DarknetImporter.inputShape(DarknetCfg.read(cfg), 1);
        return "darknet " + cfg.getFileName() + ", " + in + ", fp32";
      } catch (IOException | IllegalArgumentException e) {
        return "darknet " + cfg.getFileName() + " (unreadable: " + e.getMessage() + ")";
      }
    }

    @Override
    public String citation() {
      return "pjreddie/darknet cfg/" + cfg.getFileName() + ", read from " + cfg;
    }

    @Override
    public Graph build() {
      try {
        return DarknetImporter.build(DarknetCfg.read(cfg), name(), 1).graph();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public String family() {
      return ModelProvider.familyOf(DarknetImporter.graphName(cfg));
    }

    @Override
    public String source() {
      return "darknet";
    }
  }
}
