package io.github.memplan.core.dataset;

import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The datasets on the class path, sorted by name ({@link ServiceLoader} over {@link
 * DatasetProvider}), and the resolution of an entry reference {@code SCOPE:ENTRY}.
 *
 * <p>{@code SCOPE} is a dataset's name ({@code minimalloc/challenging}) or a family ({@code
 * minimalloc}, every dataset whose name starts with {@code minimalloc/}); {@code ENTRY} is an
 * entry's name ({@code A.1048576}), its file name ({@code A.1048576.csv}) or its short name ({@code
 * A}). A reference must name exactly one entry: {@code minimalloc:A} is challenging A, {@code
 * minimalloc:input.12} the example. Where an exact name and a short name both match, the exact one
 * wins.
 */
public final class Datasets {
  private Datasets() {}

  /** A dataset name or family: lower-case words separated by at most one {@code /}. */
  private static final Pattern SCOPE = Pattern.compile("[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)?");

  /** One entry of one dataset, as a reference names it. */
  public record Entry(DatasetProvider dataset, DatasetFile file) {
    /** The canonical reference: {@code minimalloc/challenging:A.1048576}. */
    public String reference() {
      return dataset.name() + ":" + file.name();
    }

    /**
     * The source name for readers' messages and instance names: {@code
     * minimalloc/challenging/A.1048576.csv}; a reader that names instances after the file without
     * directories and extension gives {@code A.1048576}, as for the file on disk.
     */
    public String source() {
      return dataset.family() + "/" + file.path();
    }

    /** The entry's text, checked against its recorded SHA-256. */
    public Reader reader() {
      return new InputStreamReader(new ByteArrayInputStream(file.bytes()), StandardCharsets.UTF_8);
    }
  }

  /** Every registered dataset, sorted by name. */
  public static List<DatasetProvider> all() {
    Map<String, DatasetProvider> byName = new TreeMap<>();
    for (DatasetProvider d : ServiceLoader.load(DatasetProvider.class)) {
      if (!SCOPE.matcher(d.name()).matches() || !d.name().contains("/")) {
        throw new IllegalStateException(
            d.getClass().getName() + ": dataset name '" + d.name() + "' is not FAMILY/SET");
      }
      DatasetProvider prev = byName.put(d.name(), d);
      if (prev != null) {
        throw new IllegalStateException(
            "two datasets share the name '"
                + d.name()
                + "' (the second from "
                + d.getClass().getName()
                + ")");
      }
    }
    return new ArrayList<>(byName.values());
  }

  /** The dataset named {@code name}; an unknown name fails with the list of known ones. */
  public static DatasetProvider get(String name) {
    List<DatasetProvider> all = all();
    for (DatasetProvider d : all) {
      if (d.name().equals(name)) {
        return d;
      }
    }
    throw new IllegalArgumentException(
        "unknown dataset '" + name + "' (known: " + names(all) + ")");
  }

  /**
   * Whether {@code text} is meant as a reference rather than a file name: it has a {@code :}, the
   * part before it looks like a dataset name or family, and that part names a registered dataset or
   * family or no file {@code text} exists (then {@link #resolve} says the dataset is unknown).
   */
  public static boolean isReference(String text) {
    int colon = text.indexOf(':');
    if (colon <= 0 || !SCOPE.matcher(text.substring(0, colon)).matches()) {
      return false;
    }
    String scope = text.substring(0, colon);
    if (!inScope(all(), scope).isEmpty()) {
      return true;
    }
    try {
      return !Files.exists(Path.of(text));
    } catch (RuntimeException invalidPath) {
      return true;
    }
  }

  /**
   * The entry {@code reference} names.
   *
   * @throws IllegalArgumentException (one line) for a malformed reference, an unknown dataset or
   *     family, an unknown entry (with the entries there are) or an ambiguous one (with the
   *     candidates)
   */
  public static Entry resolve(String reference) {
    int colon = reference.indexOf(':');
    if (colon <= 0 || colon == reference.length() - 1) {
      throw new IllegalArgumentException(
          "'" + reference + "' is not a dataset reference DATASET:ENTRY (e.g. minimalloc:A)");
    }
    String scope = reference.substring(0, colon);
    String wanted = reference.substring(colon + 1);
    List<DatasetProvider> all = all();
    List<DatasetProvider> datasets = inScope(all, scope);
    if (datasets.isEmpty()) {
      throw new IllegalArgumentException(
          "unknown dataset '" + scope + "' in '" + reference + "' (known: " + names(all) + ")");
    }
    List<Entry> exact = new ArrayList<>();
    List<Entry> shortMatches = new ArrayList<>();
    List<String> known = new ArrayList<>();
    for (DatasetProvider d : datasets) {
      for (DatasetFile f : d.entries()) {
        Entry e = new Entry(d, f);
        known.add(datasets.size() == 1 ? f.name() : e.reference());
        if (f.name().equals(wanted) || f.fileName().equals(wanted)) {
          exact.add(e);
        } else if (f.shortName().equals(wanted)) {
          shortMatches.add(e);
        }
      }
    }
    List<Entry> found = exact.isEmpty() ? shortMatches : exact;
    if (found.size() == 1) {
      return found.get(0);
    }
    if (found.isEmpty()) {
      throw new IllegalArgumentException(
          "dataset '"
              + scope
              + "' has no entry '"
              + wanted
              + "' (entries: "
              + String.join(", ", known)
              + ")");
    }
    throw new IllegalArgumentException(
        "'"
            + reference
            + "' is ambiguous: "
            + String.join(", ", found.stream().map(Entry::reference).toList()));
  }

  /**
   * The entries of dataset {@code name}: all of them in order when {@code entryNames} is empty,
   * else the named ones in the given order (each name as in a reference).
   */
  public static List<Entry> entries(String name, List<String> entryNames) {
    DatasetProvider d = get(name);
    if (entryNames.isEmpty()) {
      return d.entries().stream().map(f -> new Entry(d, f)).toList();
    }
    return entryNames.stream().map(e -> resolve(d.name() + ":" + e)).toList();
  }

  private static List<DatasetProvider> inScope(List<DatasetProvider> all, String scope) {
    return all.stream().filter(d -> d.name().equals(scope) || d.family().equals(scope)).toList();
  }

  private static String names(List<DatasetProvider> all) {
    return all.isEmpty()
        ? "none on the class path"
        : String.join(", ", all.stream().map(DatasetProvider::name).toList());
  }
}
