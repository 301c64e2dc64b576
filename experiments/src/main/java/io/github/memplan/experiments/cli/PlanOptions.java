package io.github.memplan.experiments.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options of a planning run, shared by {@code gmem} and {@code dsa}. */
final class PlanOptions {
  @Option(
      names = "--planner",
      paramLabel = "ID",
      description = "The planner to run (see 'memplan list planners'), or 'all' for every one.")
  String planner;

  @Option(
      names = "--param",
      paramLabel = "KEY=VALUE",
      description = "A planner parameter; repeat for several. Unknown keys are errors.")
  Map<String, String> params;

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "0",
      description = "The run's seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--time-limit",
      paramLabel = "DURATION",
      defaultValue = "60s",
      converter = Units.DurationConverter.class,
      description =
          "Wall-clock budget of the planner: 500ms, 60s, 2m, 1h, PT1M or none"
              + " (default: ${DEFAULT-VALUE}).")
  Duration timeLimit;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description =
          "Write the plan to FILE: dsa and gmem write MiniMalloc CSV with an offset column, lmem"
              + " writes LMEM JSON with the offsets; group has no plan file (use --json).")
  Path out;

  @Option(names = "--json", description = "Print one JSON object instead of text.")
  boolean json;

  Map<String, String> params() {
    return params == null ? Map.of() : params;
  }
}
