package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
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
  protected Validator<LmemInstance, LmemSolution> validator() {
    return new LmemValidator();
  }

  @Override
  public List<SuiteInstance> instances(JsonNode entry, Context ctx) {
    if (!entry.isTextual()) {
      throw new IllegalArgumentException("expected an LMEM instance file or a glob");
    }
    List<SuiteInstance> out = new ArrayList<>();
    for (Path f : SuiteFiles.resolve(entry.asText(), ctx.baseDir())) {
      String n = f.getFileName().toString().replaceFirst("(?i)\\.json$", "");
      out.add(new SuiteInstance(n, () -> read(f)));
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
