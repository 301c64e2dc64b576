package io.github.memplan.experiments.cli;

import static io.github.memplan.core.io.InputFuzzing.parsedOrRejected;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.datasets.onnx.OnnxImporter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * Fuzzes the command line's value parsers with one argument each, as picocli hands it over: sizes
 * ({@code --capacity}), durations ({@code --time-limit}), {@code --input} shapes, {@code
 * --input-value} values, {@code --front-end} passes, {@code tpumlir-dp}'s {@code pieces} and {@code
 * --param} pairs read back as a planner reads them (scripts/fuzz.sh); the converters directly too.
 * Picocli's own {@link ParameterException} is a usage error that the CLI prints through {@link
 * Main#oneLine}; it must name the option. The build replays {@code
 * CliArgumentsFuzzTestInputs/argument/} and every finding.
 */
class CliArgumentsFuzzTest {
  private static final List<Class<? extends Throwable>> USAGE = List.of(ParameterException.class);
  private static final List<Class<? extends Throwable>> CONVERSION =
      List.of(TypeConversionException.class);

  @FuzzTest
  @Timeout(10)
  void argument(byte[] input) {
    String arg = new String(input, StandardCharsets.UTF_8);
    parsedOrRejected(() -> Units.parseSize(arg), null, CONVERSION);
    parsedOrRejected(() -> Units.parseDuration(arg), null, CONVERSION);
    parsedOrRejected(() -> parse("dsa", "--capacity", arg), "--capacity", USAGE);
    parsedOrRejected(
        () -> parse("gmem", "--model", "m", "--time-limit", arg), "--time-limit", USAGE);
    if (parsedOrNull("--input", arg) instanceof GmemCommand gmem) {
      for (String spec : gmem.inputs.shapeTexts()) {
        parsedOrRejected(() -> OnnxImporter.parseInputShapes(spec), "input shape", List.of());
      }
    }
    if (parsedOrNull("--input-value", arg) instanceof GmemCommand gmem) {
      for (String spec : gmem.inputs.valueTexts()) {
        parsedOrRejected(() -> OnnxImporter.parseInputValues(spec), "input value", List.of());
      }
    }
    parsedOrNull("--front-end", arg);
    // a planner's set of switches, as tpumlir-dp reads its pieces
    parsedOrRejected(
        () -> TPUMLIR_DP.create(Map.of("pieces", arg)),
        "planner 'tpumlir-dp': parameter 'pieces'",
        List.of());
    if (parsedOrNull("--param", arg) instanceof GmemCommand gmem) {
      Map<String, String> given = gmem.opts.params();
      List<Parameter> declared =
          given.keySet().stream().map(k -> new Parameter(k, "fuzzed", "0")).toList();
      PlannerConfig config = PlannerConfig.resolve("fuzz", declared, given);
      for (String key : given.keySet()) {
        readBack(() -> config.longValue(key));
        readBack(() -> config.intValue(key));
        readBack(() -> config.doubleValue(key));
        readBack(() -> config.booleanValue(key));
      }
    }
  }

  /**
   * {@code gmem OPTION arg} as parsed, or null when picocli rejects it (on one line, naming it).
   */
  private static Object parsedOrNull(String option, String arg) {
    Object[] out = {null};
    parsedOrRejected(() -> out[0] = parse("gmem", "--model", "m", option, arg), option, USAGE);
    return out[0];
  }

  /** The planner whose {@code pieces} value is fuzzed. */
  private static final PlannerProvider<GroupProblem, Grouping> TPUMLIR_DP =
      Planners.get("tpumlir-dp", GroupProblem.class);

  /** Built once: picocli resets every option before each parse. */
  private static final CommandLine CLI = Main.newCommandLine();

  /** The subcommand's object after picocli parsed {@code args} (nothing runs). */
  private static Object parse(String... args) {
    try {
      return CLI.parseArgs(args).subcommand().commandSpec().userObject();
    } catch (ParameterException e) {
      // picocli's own messages echo the argument as given; the CLI prints them through oneLine
      throw new ParameterException(e.getCommandLine(), Main.oneLine(e.getMessage()), e);
    }
  }

  /** A typed read of a {@code --param} value: the value or a one-line rejection naming it. */
  private static void readBack(Runnable read) {
    parsedOrRejected(read::run, "planner 'fuzz': parameter", List.of());
  }
}
