package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.dataset.Datasets;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.dsa.MiniMallocCsv;
import io.github.memplan.core.solve.Validator;
import io.github.memplan.datasets.dsa.DsaTraceGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code dsa}: MiniMalloc CSV instances. An instances entry is one of
 *
 * <ul>
 *   <li>a shipped dataset's entry, {@code minimalloc:A} ({@link Datasets});
 *   <li>a whole shipped dataset, {@code {dataset: minimalloc/challenging}}, or some of its entries
 *       in the given order, {@code {dataset: minimalloc/challenging, entries: [A, F, K]}};
 *   <li>a file or a glob over file names ({@code data/*.csv}), relative to the suite file's
 *       directory;
 *   <li>a generated instance {@code {generate: BUFFERS, seed: S}} ({@link DsaTraceGenerator}).
 * </ul>
 *
 * A file's or an entry's instance is named after the file without {@code .csv} ({@code A.1048576});
 * a generated one {@code gen-BUFFERS-sS}.
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
  public Validator<DsaInstance, DsaSolution> validator() {
    return new DsaValidator();
  }

  @Override
  public List<SuiteInstance<DsaInstance>> instances(JsonNode entry, Context ctx) {
    if (entry.isTextual() && Datasets.isReference(entry.asText())) {
      return List.of(fromDataset(Datasets.resolve(entry.asText())));
    }
    if (entry.isTextual()) {
      List<SuiteInstance<DsaInstance>> out = new ArrayList<>();
      for (Path f : SuiteFiles.resolve(entry.asText(), ctx.baseDir())) {
        String n = f.getFileName().toString().replaceFirst("(?i)\\.csv$", "");
        out.add(new SuiteInstance<>(n, () -> read(f)));
      }
      return out;
    }
    if (entry.isObject() && entry.has("dataset")) {
      SuiteNodes.keys(entry, "", List.of("dataset", "entries"));
      JsonNode names = entry.path("entries");
      if (!names.isMissingNode() && !names.isArray()) {
        throw new IllegalArgumentException("entries: need a list of entry names");
      }
      List<String> wanted = new ArrayList<>();
      names.forEach(n -> wanted.add(n.asText()));
      return Datasets.entries(SuiteNodes.text(entry, "dataset", ""), wanted).stream()
          .map(DsaKind::fromDataset)
          .toList();
    }
    SuiteNodes.keys(entry, "", List.of("generate", "seed", "dataset"));
    int buffers = SuiteNodes.intValue(entry, "generate", -1);
    long seed = SuiteNodes.longValue(entry, "seed", 1);
    if (buffers < 1) {
      throw new IllegalArgumentException("generate: need a number of buffers >= 1");
    }
    return List.of(
        new SuiteInstance<>(
            DsaTraceGenerator.name(buffers, seed),
            () -> DsaTraceGenerator.generate(buffers, seed)));
  }

  private static SuiteInstance<DsaInstance> fromDataset(Datasets.Entry e) {
    return new SuiteInstance<>(
        e.file().name(),
        () -> {
          try {
            return MiniMallocCsv.readInstance(e);
          } catch (IOException ex) {
            throw new UncheckedIOException(ex);
          }
        });
  }

  private static DsaInstance read(Path f) {
    try {
      return MiniMallocCsv.readInstance(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
