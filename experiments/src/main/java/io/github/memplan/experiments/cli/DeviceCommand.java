package io.github.memplan.experiments.cli;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.device.DeviceEvent;
import io.github.memplan.core.device.DeviceLayout;
import io.github.memplan.core.device.DeviceProblem;
import io.github.memplan.core.device.DeviceRun;
import io.github.memplan.core.device.DeviceRunValidator;
import io.github.memplan.core.device.DeviceTrace;
import io.github.memplan.core.device.DeviceTraceFiles;
import io.github.memplan.core.device.DeviceTraceGenerators;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Violation;
import io.github.memplan.experiments.suite.DeviceKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code memplan device}: replay a device trace against a device memory allocator. */
@Command(
    name = "device",
    mixinStandardHelpOptions = true,
    description = {
      "Replay a device memory trace (network loads and unloads, pipelined inferences) against"
          + " one of the Glow/Esperanto runtime's allocators and report failures, fragmentation"
          + " and peak usage.",
      "Every run is checked by the device validator before anything about it is printed."
    },
    footer = {
      "",
      "Trace kinds for --generate: serving, fragment, pool-hoard, pin-front, buddy-round.",
      "",
      "Example:",
      "  memplan device --generate serving --seed 1 --dram 2GiB --allocator combined --json"
    })
final class DeviceCommand implements Callable<Integer> {
  /** The serving mix's default catalogue: varied zoo models, from 5 MB to 550 MB of weights. */
  static final String DEFAULT_MODELS = DeviceKind.DEFAULT_MODELS;

  @Spec CommandSpec spec;

  static final class Source {
    @Option(names = "--trace", paramLabel = "FILE", description = "A trace file (.csv or .json).")
    Path trace;

    @Option(
        names = "--generate",
        paramLabel = "KIND",
        description = "Generate a trace: serving, fragment, pool-hoard, pin-front or buddy-round.")
    String generate;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Source source;

  @Option(
      names = "--allocator",
      paramLabel = "ID",
      required = true,
      description = "The allocator (see 'memplan list allocators'), or 'all' for every one.")
  String allocator;

  @Option(
      names = "--dram",
      paramLabel = "SIZE",
      defaultValue = "16GiB",
      converter = Units.SizeConverter.class,
      description = "Device DRAM (default: ${DEFAULT-VALUE}).")
  long dram;

  @Option(
      names = "--code-region",
      paramLabel = "SIZE",
      converter = Units.SizeConverter.class,
      description = "Size of the code region (default: DRAM/16, 1 GiB of 16 GiB).")
  Long codeRegion;

  @Option(
      names = "--logging",
      paramLabel = "SIZE",
      converter = Units.SizeConverter.class,
      description = "Size of the logging carve-out (default: DRAM/256).")
  Long logging;

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "0",
      description = "Seed of the generated trace (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--networks",
      paramLabel = "K",
      defaultValue = "4",
      description = "Serving mix: networks loaded at once (default: ${DEFAULT-VALUE}).")
  int networks;

  @Option(
      names = "--depth",
      paramLabel = "D",
      defaultValue = "4",
      description = "Pipelined inferences in flight per network (default: ${DEFAULT-VALUE}).")
  int depth;

  @Option(
      names = "--inferences",
      paramLabel = "N",
      defaultValue = "200",
      description = "Serving mix: inferences started (default: ${DEFAULT-VALUE}).")
  int inferences;

  @Option(
      names = "--swap-every",
      paramLabel = "N",
      defaultValue = "50",
      description =
          "Serving mix: swap a loaded network for a waiting one every N inferences, 0 never"
              + " (default: ${DEFAULT-VALUE}).")
  int swapEvery;

  @Option(
      names = "--models",
      paramLabel = "NAMES",
      split = ",",
      defaultValue = DEFAULT_MODELS,
      description = "Serving mix: the zoo models to draw from (default: ${DEFAULT-VALUE}).")
  List<String> models;

  @Option(
      names = "--chip",
      paramLabel = "CHIP",
      defaultValue = Chips.DEFAULT,
      description = "Chip whose GMEM rules size the models' buffers (default: ${DEFAULT-VALUE}).")
  String chip;

  @Option(
      names = "--quantize",
      paramLabel = "MODE",
      description =
          "Serving mix: the precision the models are lowered to (see 'memplan gmem --help'): F32"
              + " (default), BF16, F16 or INT8.")
  String quantize;

  @Option(
      names = "--save-trace",
      paramLabel = "FILE",
      description = "Write the trace replayed (.csv or .json).")
  Path saveTrace;

  @Option(
      names = "--plot",
      paramLabel = "FILE",
      description = "Draw usage over time as SVG (one allocator only).")
  Path plot;

  @Option(
      names = "--json",
      description = "Print one JSON object (one per allocator) instead of text.")
  boolean json;

  @Override
  public Integer call() throws IOException {
    DeviceLayout layout =
        codeRegion == null && logging == null
            ? DeviceLayout.of(dram)
            : DeviceLayout.of(
                dram,
                codeRegion != null ? codeRegion : DeviceLayout.of(dram).code().size(),
                logging != null ? logging : DeviceLayout.of(dram).logging().size());
    List<PlannerProvider<DeviceProblem, DeviceRun>> allocators = new ArrayList<>();
    if (allocator.equals("all")) {
      allocators.addAll(Planners.forInstance(DeviceProblem.class));
      if (plot != null) {
        throw new ParameterException(
            spec.commandLine(), "--plot draws one allocator; name one instead of 'all'");
      }
    } else {
      allocators.add(Planners.get(allocator, DeviceProblem.class)); // fails early on an unknown id
    }
    DeviceTrace trace = trace(layout);
    if (saveTrace != null) {
      DeviceTraceFiles.write(trace, saveTrace);
    }
    DeviceProblem problem = new DeviceProblem(trace, layout);
    PrintWriter out = spec.commandLine().getOut();
    for (PlannerProvider<DeviceProblem, DeviceRun> p : allocators) {
      DeviceRun run = replay(p, problem);
      report(trace, run).print(out, json);
      if (!json && allocators.size() > 1) {
        out.println();
      }
      if (plot != null) {
        UsagePlot.write(run, plot);
      }
    }
    out.flush();
    return Main.OK;
  }

  /** The allocator's run, checked by the device validator. */
  private static DeviceRun replay(
      PlannerProvider<DeviceProblem, DeviceRun> allocator, DeviceProblem problem) {
    Outcome<DeviceRun> outcome =
        allocator.create(Map.of()).solve(problem, SolveContext.unlimited());
    if (!outcome.status().hasSolution()) {
      throw new IllegalStateException(
          "allocator "
              + allocator.id()
              + " returned "
              + outcome.status()
              + ": "
              + outcome.message());
    }
    List<Violation> v = new DeviceRunValidator().validate(problem, outcome.solution());
    if (!v.isEmpty()) {
      throw new IllegalStateException(
          "allocator " + allocator.id() + " produced an invalid run: " + v.get(0));
    }
    return outcome.solution();
  }

  private DeviceTrace trace(DeviceLayout layout) throws IOException {
    if (source.trace != null) {
      return DeviceTraceFiles.read(source.trace);
    }
    DeviceTraceGenerators.Serving serving =
        new DeviceTraceGenerators.Serving(networks, depth, inferences, swapEvery);
    Chip c = Chips.get(chip);
    return DeviceKind.generate(
        source.generate, models, c, FrontEndOption.quantize(quantize, c), layout, seed, serving);
  }

  static CommandOutput report(DeviceTrace trace, DeviceRun run) {
    long starts = trace.events().stream().filter(e -> e.op() == DeviceEvent.Op.START).count();
    CommandOutput r = new CommandOutput();
    r.add("trace", "trace", run.trace(), run.trace());
    r.add("allocator", "allocator", run.allocator(), run.allocator());
    DeviceLayout l = run.layout();
    r.add(
        "dram",
        "DRAM",
        l.dram(),
        CommandOutput.bytes(l.dram())
            + " (code "
            + Units.humanBytes(l.code().size())
            + ", data "
            + Units.humanBytes(l.data().size())
            + ", logging "
            + Units.humanBytes(l.logging().size())
            + ")");
    r.json("codeRegionBytes", l.code().size());
    r.json("loggingBytes", l.logging().size());
    r.add("events", "events", trace.events().size(), Integer.toString(trace.events().size()));
    r.add(
        "networksServed",
        "networks served",
        run.networksServed(),
        run.networksServed() + " of " + trace.networks().size());
    r.add(
        "inferencesServed",
        "inferences served",
        run.inferencesServed(),
        run.inferencesServed()
            + " of "
            + starts
            + " ("
            + run.inferencesFailed()
            + " failed, "
            + run.inferencesSkipped()
            + " skipped: network not loaded)");
    r.json("inferences", starts);
    r.json("inferencesFailed", run.inferencesFailed());
    r.json("inferencesSkipped", run.inferencesSkipped());
    r.add("loadsFailed", "loads failed", run.loadsFailed(), Integer.toString(run.loadsFailed()));
    r.add("peakBytes", "peak live", run.peakLiveBytes(), CommandOutput.bytes(run.peakLiveBytes()));
    r.add(
        "peakHeldBytes",
        "peak held",
        run.peakHeldBytes(),
        CommandOutput.bytes(run.peakHeldBytes()));
    r.add(
        "failures",
        "failures",
        run.failures().size(),
        run.failures().size()
            + " ("
            + run.failuresWithFreeSpace()
            + " with enough free bytes, "
            + run.failuresWithFreeBlock()
            + " with a free block big enough)");
    r.json("failuresWithFreeSpace", run.failuresWithFreeSpace());
    r.json("failuresWithFreeBlock", run.failuresWithFreeBlock());
    r.add(
        "minLargestFreeBlock",
        "min largest free block",
        run.minLargestFreeBlock(),
        CommandOutput.bytes(run.minLargestFreeBlock()));
    String first = run.failures().isEmpty() ? null : describe(run.failures().get(0));
    r.add("firstFailure", "first failure", first, first);
    return r;
  }

  static String describe(DeviceRun.Failure f) {
    return String.format(
        Locale.ROOT,
        "event %d: %s of %s%s, %s; %s free, largest free block %s",
        f.event(),
        f.kind().id(),
        f.network(),
        f.inference() >= 0 ? " inference " + f.inference() : "",
        Units.humanBytes(f.size()),
        Units.humanBytes(f.freeBytes()),
        Units.humanBytes(f.largestFreeBlock()));
  }
}
