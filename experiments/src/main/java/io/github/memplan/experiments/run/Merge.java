package io.github.memplan.experiments.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.memplan.experiments.store.ResultColumns;
import io.github.memplan.experiments.store.ResultRow;
import io.github.memplan.experiments.store.ResultsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code memplan merge}: the union of result directories (the shards of one suite). A run present
 * in several directories is kept once if its rows agree (timing aside) and fails the merge if they
 * do not; runs of different suites fail. The output is in run order, with anytime.csv likewise and
 * a manifest.json that is the first directory's with the shard replaced by the merged list.
 *
 * <p>The runs of the suite's expansion that no directory holds (an unfinished or missing shard) are
 * named in {@link Result#missing}, from the run count and problems of the directories'
 * manifest.json; with {@code requireComplete} they fail the merge before anything is written.
 */
public final class Merge {
  private Merge() {}

  /** How many runs are named, at most, in the message of an incomplete merge. */
  static final int NAMED_MISSING = 5;

  /**
   * What a merge did.
   *
   * @param rows the merged rows, in run order
   * @param expected the runs of the suite's expansion, or -1 when no directory has a manifest.json
   * @param missing the runs of the expansion that no directory holds, each as "run I (problem
   *     instance planner seed S)", in run order
   */
  public record Result(List<ResultRow> rows, int expected, List<String> missing) {
    /** One line: how many runs are missing and the first few of them. */
    public String describeMissing() {
      StringBuilder sb =
          new StringBuilder()
              .append(missing.size())
              .append(" of ")
              .append(expected)
              .append(" runs missing: ");
      sb.append(String.join(", ", missing.subList(0, Math.min(NAMED_MISSING, missing.size()))));
      if (missing.size() > NAMED_MISSING) {
        sb.append(", and ").append(missing.size() - NAMED_MISSING).append(" more");
      }
      return sb.toString();
    }
  }

  /**
   * Merges {@code dirs} into {@code out}; runs missing from the expansion are left out.
   *
   * @return the merged rows, in run order
   */
  public static List<ResultRow> merge(List<Path> dirs, Path out) throws IOException {
    return merge(dirs, out, false).rows();
  }

  /**
   * Merges {@code dirs} into {@code out}.
   *
   * @param requireComplete fail, writing nothing, when a run of the suite's expansion is missing
   *     (or when no manifest.json tells the expansion)
   */
  public static Result merge(List<Path> dirs, Path out, boolean requireComplete)
      throws IOException {
    Map<Integer, List<ResultRow>> byRun = new TreeMap<>();
    Map<Integer, Path> from = new LinkedHashMap<>();
    String suite = null;
    List<String> anytime = new ArrayList<>();
    for (Path dir : dirs) {
      Path results = dir.resolve(ResultColumns.RESULTS_FILE);
      List<ResultRow> rows = ResultsFile.read(results);
      Map<Integer, List<ResultRow>> runs = new LinkedHashMap<>();
      for (ResultRow r : rows) {
        if (suite == null) {
          suite = r.suite();
        } else if (!suite.equals(r.suite())) {
          throw new IllegalArgumentException(
              results + ": suite '" + r.suite() + "', not '" + suite + "' as the others");
        }
        runs.computeIfAbsent(r.run(), k -> new ArrayList<>()).add(r);
      }
      List<Integer> added = new ArrayList<>();
      for (Map.Entry<Integer, List<ResultRow>> e : runs.entrySet()) {
        List<ResultRow> prev = byRun.get(e.getKey());
        if (prev == null) {
          byRun.put(e.getKey(), e.getValue());
          from.put(e.getKey(), dir);
          added.add(e.getKey());
        } else if (!withoutTiming(prev).equals(withoutTiming(e.getValue()))) {
          throw new IllegalArgumentException(
              "run "
                  + e.getKey()
                  + " ("
                  + prev.get(0).runKey()
                  + ") differs between "
                  + from.get(e.getKey())
                  + " and "
                  + dir);
        }
      }
      for (String line : SuiteRunner.readAnytime(dir.resolve(ResultColumns.ANYTIME_FILE))) {
        if (added.contains(anytimeRunOf(line))) {
          anytime.add(line);
        }
      }
    }
    JsonNode manifest = null;
    Path manifestFile = null;
    for (Path dir : dirs) {
      Path f = dir.resolve(ResultColumns.MANIFEST_FILE);
      if (Files.exists(f)) {
        JsonNode m = Manifest.JSON.readTree(f.toFile());
        if (manifest == null) {
          manifest = m;
          manifestFile = f;
        } else if (m.path("runs").asInt(-1) != manifest.path("runs").asInt(-1)) {
          throw new IllegalArgumentException(
              f
                  + ": "
                  + m.path("runs").asInt(-1)
                  + " runs, not "
                  + manifest.path("runs").asInt(-1)
                  + " as "
                  + manifestFile);
        }
      }
    }
    int expected = manifest == null ? -1 : manifest.path("runs").asInt(-1);
    List<String> missing = expected < 0 ? List.of() : missing(manifest, byRun.keySet());
    if (requireComplete && expected < 0) {
      throw new IllegalArgumentException(
          "no manifest.json in the directories: cannot tell whether runs are missing");
    }
    Result result = new Result(new ArrayList<>(), expected, missing);
    if (requireComplete && !missing.isEmpty()) {
      throw new IllegalArgumentException("incomplete: " + result.describeMissing());
    }
    List<ResultRow> merged = result.rows();
    byRun.values().forEach(merged::addAll);
    Files.createDirectories(out);
    ResultsFile.write(out.resolve(ResultColumns.RESULTS_FILE), merged);
    SuiteRunner.writeLines(out.resolve(ResultColumns.ANYTIME_FILE), anytime);
    SuiteRunner.sortAnytime(out.resolve(ResultColumns.ANYTIME_FILE));
    Path firstManifest = dirs.get(0).resolve(ResultColumns.MANIFEST_FILE);
    if (Files.exists(firstManifest)) {
      ObjectNode m = (ObjectNode) Manifest.JSON.readTree(firstManifest.toFile());
      m.put("shard", (String) null);
      ArrayNode src = m.putArray("mergedFrom");
      dirs.forEach(d -> src.add(d.toString()));
      m.put("mergedRuns", byRun.size());
      Manifest.write(out.resolve(ResultColumns.MANIFEST_FILE), m);
    }
    return result;
  }

  /**
   * The runs of the expansion told by {@code manifest} (its run count, problems and replicates, in
   * {@link SuiteRun#expand} order) that are not in {@code present}.
   */
  static List<String> missing(JsonNode manifest, java.util.Set<Integer> present) {
    int runs = manifest.path("runs").asInt();
    List<String> names = new ArrayList<>();
    int replicates = Math.max(1, manifest.path("replicates").asInt(1));
    long seed = manifest.path("seed").asLong();
    for (JsonNode p : manifest.path("problems")) {
      for (JsonNode in : p.path("instances")) {
        for (JsonNode pl : p.path("planners")) {
          for (int r = 0; r < replicates; r++) {
            names.add(
                p.path("problem").asText()
                    + " "
                    + in.asText()
                    + " "
                    + pl.path("label").asText()
                    + " seed "
                    + (seed + r));
          }
        }
      }
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      if (!present.contains(i)) {
        out.add("run " + i + (names.size() == runs ? " (" + names.get(i) + ")" : ""));
      }
    }
    return out;
  }

  private static int anytimeRunOf(String line) {
    return Integer.parseInt(
        io.github.memplan.experiments.store.Csv.fields(line)
            .get(ResultColumns.ANYTIME.indexOf(ResultColumns.RUN)));
  }

  private static List<ResultRow> withoutTiming(List<ResultRow> rows) {
    return rows.stream().filter(r -> !r.isTiming()).toList();
  }
}
