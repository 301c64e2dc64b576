package io.github.memplan.core.dataset;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A dataset shipped as class-path resources: a directory {@code base} holding a {@code SHA256SUMS}
 * index ({@code sha256sum}'s format, one {@code HEX PATH} line per file, paths relative to {@code
 * base}), the files it lists, and the documents. The entries are the indexed files under {@code
 * base/set/}; the documents are named files of {@code base}, which must be indexed too. A class
 * path cannot list a directory inside a jar, so the index is the list of files; a test of each
 * dataset checks that the index and the files agree.
 */
public abstract class ClasspathDataset implements DatasetProvider {
  /** The index's file name. */
  public static final String INDEX = "SHA256SUMS";

  private final ClassLoader loader;
  private final String base;
  private final String set;
  private final List<String> documentNames;

  /** The index as read once; class-path resources do not change while the JVM runs. */
  private volatile List<DatasetFile> index;

  /**
   * @param anchor a class whose class loader holds the resources
   * @param base the resource directory of the index, {@code /}-separated, without leading {@code /}
   * @param set the sub-directory of {@code base} whose indexed files are the entries
   * @param documentNames files of {@code base} exported with the entries ({@code LICENSE})
   */
  protected ClasspathDataset(Class<?> anchor, String base, String set, List<String> documentNames) {
    this.loader = Objects.requireNonNull(anchor, "anchor").getClassLoader();
    this.base = Objects.requireNonNull(base, "base");
    this.set = Objects.requireNonNull(set, "set");
    this.documentNames = List.copyOf(documentNames);
  }

  @Override
  public List<DatasetFile> entries() {
    String prefix = set + "/";
    return index().stream().filter(f -> f.path().startsWith(prefix)).toList();
  }

  @Override
  public List<DatasetFile> documents() {
    List<DatasetFile> all = index();
    List<DatasetFile> out = new ArrayList<>();
    for (String name : documentNames) {
      out.add(
          all.stream()
              .filter(f -> f.path().equals(name))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          name() + ": " + base + "/" + INDEX + " does not list " + name)));
    }
    return out;
  }

  /** Every file the index lists, in its order (read on first use). */
  public List<DatasetFile> index() {
    List<DatasetFile> read = index;
    if (read == null) {
      read = readIndex();
      index = read;
    }
    return read;
  }

  private List<DatasetFile> readIndex() {
    String where = base + "/" + INDEX;
    InputStream in = loader.getResourceAsStream(where);
    if (in == null) {
      throw new IllegalStateException(name() + ": " + where + " is not on the class path");
    }
    List<DatasetFile> files = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        if (line.isBlank()) {
          continue;
        }
        String[] f = line.trim().split("\\s+\\*?", 2);
        if (f.length != 2 || !f[0].matches("[0-9a-f]{64}") || f[1].contains("..")) {
          throw new IllegalStateException(
              where + ":" + n + ": expected 'SHA256  PATH', found '" + line + "'");
        }
        String path = f[1];
        String resource = base + "/" + path;
        files.add(new DatasetFile(path, f[0], () -> open(resource)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(where + ": " + e.getMessage(), e);
    }
    return List.copyOf(files);
  }

  private InputStream open(String resource) throws IOException {
    InputStream in = loader.getResourceAsStream(resource);
    if (in == null) {
      throw new IOException(resource + " is indexed but not on the class path");
    }
    return in;
  }
}
