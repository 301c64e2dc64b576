package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.baseline.glow.DeviceAllocators;
import io.github.memplan.baseline.glow.DeviceSimulator;
import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.device.DeviceLayout;
import io.github.memplan.core.device.DeviceRun;
import io.github.memplan.core.device.DeviceRunValidator;
import io.github.memplan.core.device.DeviceTrace;
import io.github.memplan.core.device.DeviceTraceFiles;
import io.github.memplan.core.device.Network;
import io.github.memplan.core.device.TraceGenerators;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.frontend.Lowering;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.solve.Direction;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Violation;
import io.github.memplan.experiments.cli.Units;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.ToLongFunction;

/**
 * {@code device}: a device memory trace replayed against one of the Glow/Esperanto runtime's
 * allocators ({@link DeviceAllocators}; planners are allocator ids and take no parameters). An
 * instances entry is a trace file ({@code .csv}/{@code .json}, relative to the suite file's
 * directory; DRAM 16 GiB) or a generated trace {@code {generate: serving|fragment|pool-hoard|
 * pin-front|buddy-round, seed, dram, networks, depth, inferences, swap-every, models}} with {@code
 * memplan device}'s defaults, the models' buffers sized on the problem's first chip. The allocator
 * is deterministic: the seed only picks the generated trace.
 */
public final class DeviceKind implements ProblemKind {
  /** A trace and the DRAM layout it runs on. */
  public record Case(DeviceTrace trace, DeviceLayout layout) {}

  /** The serving mix's default catalogue (as {@code memplan device}). */
  public static final String DEFAULT_MODELS =
      "resnet18,resnet50,mobilenetv2,squeezenet1.0,vgg16,efficientnet-b0,bert-base,yolov5s";

  private record M(String id, String unit, Direction d, ToLongFunction<DeviceRun> f) {}

  private static final List<M> METRICS =
      List.of(
          new M("networks-served", "count", Direction.HIGHER_IS_BETTER, DeviceRun::networksServed),
          new M(
              "inferences-served", "count", Direction.HIGHER_IS_BETTER, r -> r.inferencesServed()),
          new M("loads-failed", "count", Direction.LOWER_IS_BETTER, DeviceRun::loadsFailed),
          new M("failures", "count", Direction.LOWER_IS_BETTER, r -> r.failures().size()),
          new M(
              "failures-with-free-space",
              "count",
              Direction.LOWER_IS_BETTER,
              r -> r.failuresWithFreeSpace()),
          new M("peak-live-bytes", "bytes", Direction.LOWER_IS_BETTER, DeviceRun::peakLiveBytes),
          new M("peak-held-bytes", "bytes", Direction.LOWER_IS_BETTER, DeviceRun::peakHeldBytes),
          new M(
              "min-largest-free-block-bytes",
              "bytes",
              Direction.HIGHER_IS_BETTER,
              DeviceRun::minLargestFreeBlock));

  @Override
  public String name() {
    return "device";
  }

  @Override
  public List<MetricInfo> metrics() {
    return METRICS.stream().map(m -> new MetricInfo(m.id(), m.unit(), m.d())).toList();
  }

  @Override
  public Map<String, String> resolvePlanner(String id, Map<String, String> params) {
    if (DeviceAllocators.ALL.stream().noneMatch(i -> i.id().equals(id))) {
      throw new IllegalArgumentException(
          "unknown allocator '"
              + id
              + "' (known: "
              + String.join(
                  ", ", DeviceAllocators.ALL.stream().map(DeviceAllocators.Info::id).toList())
              + ")");
    }
    if (!params.isEmpty()) {
      throw new IllegalArgumentException(
          "allocator '"
              + id
              + "': unknown parameter '"
              + params.keySet().iterator().next()
              + "' (it takes no parameters)");
    }
    return Map.of();
  }

  @Override
  public RunOutcome run(
      Object instance, String plannerId, Map<String, String> params, SolveContext ctx) {
    Case c = (Case) instance;
    DeviceRun run = DeviceSimulator.run(c.trace(), DeviceAllocators.create(plannerId, c.layout()));
    List<Violation> v = DeviceRunValidator.validate(run);
    if (!v.isEmpty()) {
      return RunOutcome.error("invalid run: " + v.get(0));
    }
    Map<String, OptionalDouble> values = new LinkedHashMap<>();
    for (M m : METRICS) {
      values.put(m.id(), OptionalDouble.of(m.f().applyAsLong(run)));
    }
    return new RunOutcome("FEASIBLE", values, "");
  }

  @Override
  public List<SuiteInstance> instances(JsonNode entry, Context ctx) {
    if (entry.isTextual()) {
      List<SuiteInstance> out = new ArrayList<>();
      for (Path f : SuiteFiles.resolve(entry.asText(), ctx.baseDir())) {
        String n = f.getFileName().toString().replaceFirst("\\.(csv|json)$", "");
        out.add(new SuiteInstance(n, () -> new Case(read(f), DeviceLayout.of(16L << 30))));
      }
      return out;
    }
    SuiteNodes.keys(
        entry,
        "",
        List.of(
            "generate", "seed", "dram", "networks", "depth", "inferences", "swap-every", "models"));
    String kind = SuiteNodes.text(entry, "generate", null);
    if (kind == null || !TraceGenerators.KINDS.contains(kind)) {
      throw new IllegalArgumentException(
          "generate: expected one of " + String.join(", ", TraceGenerators.KINDS));
    }
    long seed = SuiteNodes.longValue(entry, "seed", 0);
    String dramText = SuiteNodes.text(entry, "dram", "16GiB");
    long dram;
    try {
      dram = Units.parseSize(dramText);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("dram: " + e.getMessage());
    }
    TraceGenerators.Serving serving =
        new TraceGenerators.Serving(
            SuiteNodes.intValue(entry, "networks", 4),
            SuiteNodes.intValue(entry, "depth", 4),
            SuiteNodes.intValue(entry, "inferences", 200),
            SuiteNodes.intValue(entry, "swap-every", 50));
    List<String> models =
        Arrays.asList(SuiteNodes.text(entry, "models", DEFAULT_MODELS).split("\\s*,\\s*"));
    Chip chip = Chips.get(ctx.chips().get(0));
    DeviceLayout layout = DeviceLayout.of(dram);
    String name = kind + "-s" + seed + "-" + dramText;
    return List.of(
        new SuiteInstance(
            name,
            () ->
                new Case(
                    generate(kind, models, chip, Lowering.Quantize.F32, layout, seed, serving),
                    layout)));
  }

  /**
   * A generated trace, as {@code memplan device --generate} makes it; the serving mix's models are
   * lowered to {@code quantize}.
   */
  public static DeviceTrace generate(
      String kind,
      List<String> models,
      Chip chip,
      Lowering.Quantize quantize,
      DeviceLayout layout,
      long seed,
      TraceGenerators.Serving serving) {
    List<Network> catalogue = new ArrayList<>();
    if (kind.equals("serving")) {
      for (String m : models) {
        Graph g = FrontEnd.apply(Models.get(m).build(), chip, FrontEnd.Options.ALL, quantize);
        catalogue.add(Network.fromGraph(m, g, chip));
      }
    }
    return TraceGenerators.generate(kind, catalogue, layout, seed, serving);
  }

  private static DeviceTrace read(Path f) {
    try {
      return DeviceTraceFiles.read(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
