package io.github.memplan.experiments.run;

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
 */
public final class Merge {
  private Merge() {}

  /**
   * Merges {@code dirs} into {@code out}.
   *
   * @return the merged rows, in run order
   */
  public static List<ResultRow> merge(List<Path> dirs, Path out) throws IOException {
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
      for (String line : Runner.readAnytime(dir.resolve(ResultColumns.ANYTIME_FILE))) {
        if (added.contains(anytimeRunOf(line))) {
          anytime.add(line);
        }
      }
    }
    List<ResultRow> merged = new ArrayList<>();
    byRun.values().forEach(merged::addAll);
    Files.createDirectories(out);
    ResultsFile.write(out.resolve(ResultColumns.RESULTS_FILE), merged);
    Runner.writeLines(out.resolve(ResultColumns.ANYTIME_FILE), anytime);
    Runner.sortAnytime(out.resolve(ResultColumns.ANYTIME_FILE));
    Path firstManifest = dirs.get(0).resolve(ResultColumns.MANIFEST_FILE);
    if (Files.exists(firstManifest)) {
      ObjectNode m = (ObjectNode) Manifest.JSON.readTree(firstManifest.toFile());
      m.put("shard", (String) null);
      ArrayNode src = m.putArray("mergedFrom");
      dirs.forEach(d -> src.add(d.toString()));
      m.put("mergedRuns", byRun.size());
      Manifest.write(out.resolve(ResultColumns.MANIFEST_FILE), m);
    }
    return merged;
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
