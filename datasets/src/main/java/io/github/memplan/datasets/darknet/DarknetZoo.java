package io.github.memplan.datasets.darknet;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.ModelSource;
import io.github.memplan.core.ir.Shape;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One zoo entry per darknet {@code .cfg} file. By default these are the 45 cfgs of pjreddie/darknet
 * (commit {@value #UPSTREAM_COMMIT}) that memplan ships as class-path resources in {@value
 * #RESOURCE_DIR}, found through the index {@value #INDEX} there (a class-path directory cannot be
 * listed inside a jar); the {@code LICENSE} and {@code PROVENANCE.md} beside them say where they
 * come from. The system property {@value #DIR_PROPERTY} names a directory whose {@code *.cfg} files
 * replace them (for instance {@code /usr/share/darknet/cfg}, where Debian's {@code darknet} package
 * installs the same 45 files; with the launcher: {@code JDK_JAVA_OPTIONS=-Dmemplan.darknet.cfg=DIR
 * ./memplan zoo list}); when that directory does not exist the zoo has no darknet entries. Ids are
 * {@code darknet-} and the file name without {@code .cfg}, lower-cased, with {@code .} and {@code
 * _} as {@code -}: {@code darknet-yolov3-tiny}, {@code darknet-darknet19-448}, {@code
 * darknet-cifar-test}. Each builds at batch 1 with {@link DarknetImporter}.
 */
public final class DarknetZoo implements ModelSource {
  /** The system property naming a directory whose cfg files replace the shipped ones. */
  public static final String DIR_PROPERTY = "memplan.darknet.cfg";

  /** The class-path directory of the shipped cfg files. */
  public static final String RESOURCE_DIR = "io/github/memplan/datasets/darknet/cfg/";

  /**
   * The index of {@link #RESOURCE_DIR}, as {@code sha256sum} writes it: one {@code sha256 name.cfg}
   * line (two spaces) per shipped file.
   */
  public static final String INDEX = "SHA256SUMS";

  /** The pjreddie/darknet commit of the shipped cfg files. */
  public static final String UPSTREAM_COMMIT = "61c9d02e";

  private static final Pattern INDEX_LINE = Pattern.compile("([0-9a-f]{64}) [ *]([^/\\\\]+\\.cfg)");

  /**
   * One cfg file of the zoo.
   *
   * @param file the file name, such as {@code yolov3-tiny.cfg}
   * @param where how messages name it: its path, or {@code classpath:} and the resource name
   * @param url where its text is read
   * @param shipped whether it is one of memplan's resources (else it was read from {@link
   *     #directory()})
   */
  public record Cfg(String file, String where, URL url, boolean shipped) {
    /** The file's text (UTF-8). */
    public String text() throws IOException {
      try (InputStream in = url.openStream()) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    }

    /** The parsed file; messages name it by {@link #where()}. */
    public DarknetCfg read() throws IOException {
      return DarknetCfg.parse(where, text());
    }

    /** The file name without {@code .cfg}. */
    public String graphName() {
      return DarknetImporter.graphName(file);
    }
  }

  /** The directory named by {@value #DIR_PROPERTY}, or {@code null} when the property is unset. */
  public static Path directory() {
    return directory(System.getProperty(DIR_PROPERTY));
  }

  private static Path directory(String property) {
    return property == null || property.isBlank() ? null : Path.of(property);
  }

  /**
   * The zoo's cfg files, sorted by name: those of {@link #directory()} if set, else the shipped.
   */
  public static List<Cfg> cfgs() {
    return cfgs(System.getProperty(DIR_PROPERTY));
  }

  /** {@link #cfgs()} as if {@value #DIR_PROPERTY} were {@code property} (null: unset). */
  static List<Cfg> cfgs(String property) {
    Path dir = directory(property);
    return dir == null ? shipped() : inDirectory(dir);
  }

  /** The cfg files shipped as resources, sorted by name, as {@value #INDEX} lists them. */
  public static List<Cfg> shipped() {
    String where = "classpath:" + RESOURCE_DIR + INDEX;
    URL index = resource(INDEX);
    if (index == null) {
      throw missing(where + " is not on the class path");
    }
    List<Cfg> out = new ArrayList<>();
    String[] lines;
    try (InputStream in = index.openStream()) {
      lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\\R");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      Matcher m = INDEX_LINE.matcher(lines[i]);
      if (!m.matches()) {
        throw missing(
            where + ":" + (i + 1) + ": expected 'sha256  name.cfg', got '" + lines[i] + "'");
      }
      String file = m.group(2);
      URL url = resource(file);
      if (url == null) {
        throw missing(where + ":" + (i + 1) + ": " + file + " is not on the class path");
      }
      out.add(new Cfg(file, "classpath:" + RESOURCE_DIR + file, url, true));
    }
    return sorted(out);
  }

  /** The {@code *.cfg} files of {@code dir}, sorted by name; empty when it does not exist. */
  public static List<Cfg> inDirectory(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      List<Cfg> out = new ArrayList<>();
      for (Path f : (Iterable<Path>) files::iterator) {
        String file = f.getFileName().toString();
        if (file.endsWith(".cfg") && Files.isRegularFile(f)) {
          out.add(new Cfg(file, f.toString(), f.toUri().toURL(), false));
        }
      }
      return sorted(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static URL resource(String file) {
    return DarknetZoo.class.getResource("/" + RESOURCE_DIR + file);
  }

  private static UncheckedIOException missing(String message) {
    return new UncheckedIOException(new IOException(message));
  }

  private static List<Cfg> sorted(List<Cfg> cfgs) {
    return cfgs.stream().sorted(Comparator.comparing(Cfg::file)).toList();
  }

  /**
   * The zoo id of the file {@code file}: {@code darknet-yolov3-tiny} for {@code yolov3-tiny.cfg}.
   */
  public static String id(String file) {
    String base = DarknetImporter.graphName(file).toLowerCase(Locale.ROOT);
    return "darknet-" + base.replaceAll("[^a-z0-9-]", "-");
  }

  @Override
  public List<ModelProvider> models() {
    return cfgs().stream().map(f -> (ModelProvider) new Entry(f)).toList();
  }

  /** The zoo entry of one cfg file. */
  public record Entry(Cfg cfg) implements ModelProvider {
    @Override
    public String name() {
      return id(cfg.file());
    }

    @Override
    public String description() {
      try {
        Shape in = DarknetImporter.inputShape(cfg.read(), 1);
        return "darknet " + cfg.file() + ", " + in + ", fp32";
      } catch (IOException | IllegalArgumentException e) {
        return "darknet " + cfg.file() + " (unreadable: " + e.getMessage() + ")";
      }
    }

    @Override
    public String citation() {
      if (cfg.shipped()) {
        return "pjreddie/darknet cfg/"
            + cfg.file()
            + " at commit "
            + UPSTREAM_COMMIT
            + ", shipped as memplan resource "
            + RESOURCE_DIR
            + cfg.file();
      }
      return "pjreddie/darknet cfg/" + cfg.file() + ", read from " + cfg.where();
    }

    @Override
    public Graph build() {
      try {
        return DarknetImporter.build(cfg.read(), name(), 1).graph();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public String family() {
      return ModelProvider.familyOf(cfg.graphName());
    }

    @Override
    public String source() {
      return "darknet";
    }
  }
}
