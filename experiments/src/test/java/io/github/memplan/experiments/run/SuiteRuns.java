package io.github.memplan.experiments.run;

import io.github.memplan.experiments.store.ResultRow;
import io.github.memplan.experiments.store.ResultsFile;
import io.github.memplan.experiments.suite.Suite;
import io.github.memplan.experiments.suite.SuiteParser;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Helpers for tests that run suites. */
final class SuiteRuns {
  private SuiteRuns() {}

  /** Writes {@code yaml} as {@code name} in {@code dir} and parses it. */
  static Suite suite(Path dir, String name, String yaml) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, yaml, StandardCharsets.UTF_8);
    return SuiteParser.parse(f);
  }

  /** Runs {@code suite} into {@code out}; progress is discarded. */
  static SuiteRunner.Summary run(Suite suite, Path out, boolean resume, Shard shard, int jobs)
      throws Exception {
    PrintStream err = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    return new SuiteRunner(suite, new SuiteRunner.Options(out, resume, shard, jobs, err, false))
        .run();
  }

  /** The rows of results.csv in {@code dir}, timing rows dropped. */
  static List<String> rowsWithoutTiming(Path dir) throws Exception {
    return ResultsFile.read(dir.resolve("results.csv")).stream()
        .filter(r -> !r.isTiming())
        .map(ResultRow::toCsv)
        .toList();
  }

  /** The text of results.csv without its time-ms lines. */
  static String textWithoutTiming(Path dir) throws Exception {
    return String.join(
        "\n",
        Files.readAllLines(dir.resolve("results.csv")).stream()
            .filter(l -> !l.contains(",time-ms,"))
            .toList());
  }

  /** A dsa suite of {@code instances} generated instances and the given planner lines. */
  static String dsaSuite(int instances, String budget, String... planners) {
    StringBuilder sb = new StringBuilder("suite: t\nbudget: {time-limit: " + budget + "}\n");
    sb.append("problems:\n  - problem: dsa\n    instances:\n");
    for (int i = 1; i <= instances; i++) {
      sb.append("      - {generate: 20, seed: ").append(i).append("}\n");
    }
    sb.append("    planners:\n");
    for (String p : planners) {
      sb.append("      - ").append(p).append('\n');
    }
    return sb.toString();
  }
}
