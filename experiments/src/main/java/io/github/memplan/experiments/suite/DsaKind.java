package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.dsa.MiniMallocCsv;
import io.github.memplan.core.solve.Validator;
import io.github.memplan.datasets.dsa.TraceGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code dsa}: MiniMalloc CSV instances. An instances entry is a file or a glob over file names
 * ({@code ../shared/datasets/minimalloc/challenging/*.csv}), relative to the suite file's
 * directory, or a generated instance {@code {generate: BUFFERS, seed: S}} ({@link TraceGenerator}).
 * A file's instance is named after the file without {@code .csv}; a generated one {@code
 * gen-BUFFERS-sS}.
 */
public final class DsaKind extends SpiProblemKind<DsaInstance, DsaSolution> {
  public DsaKind() {
    super(DsaInstance.class);
  }

  @Override
  public String name() {
    return "dsa";
  }

  @Override
  protected Validator<DsaInstance, DsaSolution> validator() {
    return new DsaValidator();
  }

  @Override
  public List<SuiteInstance> instances(JsonNode entry, Context ctx) {
    if (entry.isTextual()) {
      List<SuiteInstance> out = new ArrayList<>();
      for (Path f : SuiteFiles.resolve(entry.asText(), ctx.baseDir())) {
        String n = f.getFileName().toString().replaceFirst("(?i)\\.csv$", "");
        out.add(new SuiteInstance(n, () -> read(f)));
      }
      return out;
    }
    SuiteNodes.keys(entry, "", List.of("generate", "seed"));
    int buffers = SuiteNodes.intValue(entry, "generate", -1);
    long seed = SuiteNodes.longValue(entry, "seed", 1);
    if (buffers < 1) {
      throw new IllegalArgumentException("generate: need a number of buffers >= 1");
    }
    return List.of(
        new SuiteInstance(
            "gen-" + buffers + "-s" + seed, () -> TraceGenerator.generate(buffers, seed)));
  }

  private static DsaInstance read(Path f) {
    try {
      return MiniMallocCsv.readInstance(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
