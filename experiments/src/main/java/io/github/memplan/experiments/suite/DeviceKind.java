package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.device.DeviceLayout;
import io.github.memplan.core.device.DeviceProblem;
import io.github.memplan.core.device.DeviceRun;
import io.github.memplan.core.device.DeviceRunValidator;
import io.github.memplan.core.device.DeviceTrace;
import io.github.memplan.core.device.DeviceTraceFiles;
import io.github.memplan.core.device.DeviceTraceGenerators;
import io.github.memplan.core.device.Network;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.frontend.Lowering;
import io.github.memplan.core.io.ByteSizes;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.solve.Validator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code device}: a device memory trace replayed against one of the Glow/Esperanto runtime's
 * allocators, the planners of {@link DeviceProblem} (they take no parameters), checked by {@link
 * DeviceRunValidator} and measured by {@code core.device.DeviceMetrics}. An instances entry is a
 * trace file ({@code .csv}/{@code .json}, relative to the suite file's directory; DRAM 16 GiB) or a
 * generated trace {@code {generate: serving|fragment|pool-hoard|pin-front|buddy-round, seed, dram,
 * networks, depth, inferences, swap-every, models}} with {@code memplan device}'s defaults, the
 * models' buffers sized on the problem's first chip. The allocators are deterministic: the seed
 * only picks the generated trace.
 */
public final class DeviceKind extends SpiProblemKind<DeviceProblem, DeviceRun> {
  /** The serving mix's default catalogue (as {@code memplan device}). */
  public static final String DEFAULT_MODELS =
      "resnet18,resnet50,mobilenetv2,squeezenet1.0,vgg16,efficientnet-b0,bert-base,yolov5s";

  public DeviceKind() {
    super(DeviceProblem.class);
  }

  @Override
  public String name() {
    return "device";
  }

  @Override
  public Validator<DeviceProblem, DeviceRun> validator() {
    return new DeviceRunValidator();
  }

  @Override
  public List<SuiteInstance<DeviceProblem>> instances(JsonNode entry, Context ctx) {
    if (entry.isTextual()) {
      List<SuiteInstance<DeviceProblem>> out = new ArrayList<>();
      for (Path f : SuiteFiles.resolve(entry.asText(), ctx.baseDir())) {
        String n = f.getFileName().toString().replaceFirst("\\.(csv|json)$", "");
        out.add(
            new SuiteInstance<>(n, () -> new DeviceProblem(read(f), DeviceLayout.of(16L << 30))));
      }
      return out;
    }
    SuiteNodes.keys(
        entry,
        "",
        List.of(
            "generate", "seed", "dram", "networks", "depth", "inferences", "swap-every", "models"));
    String kind = SuiteNodes.text(entry, "generate", null);
    if (kind == null || !DeviceTraceGenerators.KINDS.contains(kind)) {
      throw new IllegalArgumentException(
          "generate: expected one of " + String.join(", ", DeviceTraceGenerators.KINDS));
    }
    long seed = SuiteNodes.longValue(entry, "seed", 0);
    String dramText = SuiteNodes.text(entry, "dram", "16GiB");
    long dram;
    try {
      dram = ByteSizes.parse(dramText);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("dram: " + e.getMessage());
    }
    DeviceTraceGenerators.Serving serving =
        new DeviceTraceGenerators.Serving(
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
        new SuiteInstance<>(
            name,
            () ->
                new DeviceProblem(
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
      DeviceTraceGenerators.Serving serving) {
    List<Network> catalogue = new ArrayList<>();
    if (kind.equals("serving")) {
      for (String m : models) {
        Graph g = FrontEnd.apply(Models.get(m).build(), chip, FrontEnd.Options.ALL, quantize);
        catalogue.add(Network.fromGraph(m, g, chip));
      }
    }
    return DeviceTraceGenerators.generate(kind, catalogue, layout, seed, serving);
  }

  private static DeviceTrace read(Path f) {
    try {
      return DeviceTraceFiles.read(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
