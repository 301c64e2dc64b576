package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.lmem.LmemGenerator;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemJson;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.LmemValidator;
import io.github.memplan.core.solve.Validator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code lmem}: LMEM placement instances of single layer groups in memplan's JSON format ({@link
 * LmemJson}; {@code memplan lmem} reads the same files). An instances entry is a file or a glob
 * over file names, relative to the suite file's directory; an instance is named after its file.
 * Planners and metrics are those registered for {@link LmemInstance}.
 */
public final class LmemKind extends SpiProblemKind<LmemInstance, LmemSolution> {
  public LmemKind() {
    super(LmemInstance.class);
  }

  @Override
  public String name() {
    return "lmem";
  }

  @Override
  public Validator<LmemInstance, LmemSolution> validator() {
    return new LmemValidator();
  }

  @Override
  public List<SuiteInstance<LmemInstance>> instances(JsonNode entry, Context ctx) {
    if (entry.isObject()) {
      return generated(entry, ctx);
    }
    if (!entry.isTextual()) {
      throw new IllegalArgumentException(
          "expected an LMEM instance file, a glob or {generate: ...}");
    }
    List<SuiteInstance<LmemInstance>> out = new ArrayList<>();
    for (Path f : SuiteFiles.resolve(entry.asText(), ctx.baseDir())) {
      String n = f.getFileName().toString().replaceFirst("(?i)\\.json$", "");
      out.add(new SuiteInstance<>(n, () -> read(f)));
    }
    return out;
  }

  /**
   * {@code {generate: OPS, seed: S, fill: F, sliced: B, pipelined: B}}: {@link LmemGenerator}'s
   * layer-group-shaped instance of OPS ops whose max-live bytes are close to F (default 0.8) of the
   * LMEM of one lane of each chip of the problem (default bm1684x).
   */
  private static List<SuiteInstance<LmemInstance>> generated(JsonNode entry, Context ctx) {
    SuiteNodes.keys(entry, "", List.of("generate", "seed", "fill", "sliced", "pipelined"));
    int ops = SuiteNodes.intValue(entry, "generate", -1);
    long seed = SuiteNodes.longValue(entry, "seed", 1);
    double fill = entry.has("fill") ? entry.get("fill").asDouble() : 0.8;
    boolean sliced = !entry.has("sliced") || entry.get("sliced").asBoolean();
    boolean pipelined = !entry.has("pipelined") || entry.get("pipelined").asBoolean();
    if (ops < 2) {
      throw new IllegalArgumentException("generate: need a number of ops >= 2");
    }
    if (!(fill > 0 && fill <= 1)) {
      throw new IllegalArgumentException("fill: need a fraction in (0, 1]");
    }
    List<SuiteInstance<LmemInstance>> out = new ArrayList<>();
    List<String> chips = ctx.chips().isEmpty() ? List.of("bm1684x") : ctx.chips();
    for (String chipName : chips) {
      Chip c = Chips.get(chipName);
      var g =
          new LmemGenerator.Geometry(c.lmemBytesPerLane(), c.banks(), c.bankBytes(), c.euBytes());
      String name = "gen-" + ops + "-s" + seed + "@" + c.name();
      out.add(
          new SuiteInstance<>(
              name, () -> LmemGenerator.generate(name, seed, ops, g, sliced, pipelined, fill)));
    }
    return out;
  }

  private static LmemInstance read(Path f) {
    try {
      return LmemJson.read(f).instance();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
