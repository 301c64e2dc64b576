package io.github.memplan.datasets.fetched;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.ModelSource;
import io.github.memplan.datasets.onnx.OnnxImporter;
import io.github.memplan.datasets.tflite.TfliteImporter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The zoo's models read from files that {@code scripts/fetch-models.sh} fetched from npm: every
 * manifest entry marked for the zoo whose file is in the {@link ModelCache}, under its format as
 * source ({@code tflite}, {@code onnx}). Listing only looks for the files; building checks the
 * file's SHA-256 against the manifest first, then imports it at the manifest's input shapes, with
 * its input values bound (an ONNX file's, as {@code --input-value} binds them: Silero VAD's sample
 * rate, which folds its If nodes).
 */
public final class FetchedModels implements ModelSource {
  static final String MANIFEST = "/io/github/memplan/datasets/fetched/models.tsv";

  @Override
  public List<ModelProvider> models() {
    Path cache = ModelCache.dir();
    List<ModelProvider> out = new ArrayList<>();
    for (FetchedModel m : manifest()) {
      if (m.zoo() && Files.isRegularFile(m.path(cache))) {
        out.add(new Provider(m, m.path(cache)));
      }
    }
    return out;
  }

  /** Whether {@code p} is a model of this source (a fetched file). */
  public static boolean isFetched(ModelProvider p) {
    return p instanceof Provider;
  }

  /** Every model of the manifest, in its order. */
  public static List<FetchedModel> manifest() {
    try (InputStream in = FetchedModels.class.getResourceAsStream(MANIFEST)) {
      if (in == null) {
        throw new IllegalStateException("resource " + MANIFEST + " is missing");
      }
      return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<FetchedModel> parse(BufferedReader r) throws IOException {
    List<FetchedModel> out = new ArrayList<>();
    String pkg = null;
    String licence = null;
    String line;
    int n = 0;
    while ((line = r.readLine()) != null) {
      n++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t", -1);
      String where = "models.tsv line " + n;
      switch (f[0]) {
        case "package" -> {
          need(f, 4, where);
          pkg = f[1];
          licence = f[3];
        }
        case "model" -> {
          need(f, 11, where);
          if (pkg == null) {
            throw new IllegalStateException(where + ": a model before any package");
          }
          Map<String, long[]> inputs =
              f[7].equals("-") ? Map.of() : OnnxImporter.parseInputShapes(f[7]);
          Map<String, List<String>> values =
              f[8].equals("-") ? Map.of() : OnnxImporter.parseInputValues(f[8]);
          if (!values.isEmpty() && !f[2].equals("onnx")) {
            throw new IllegalStateException(
                where + ": input values are for ONNX files, not " + f[2]);
          }
          out.add(
              new FetchedModel(
                  f[1],
                  f[2],
                  f[3],
                  pkg,
                  licence,
                  f[4],
                  f[5],
                  inputs,
                  values,
                  f[9].equals("yes"),
                  f[10]));
        }
        default -> throw new IllegalStateException(where + ": unknown row kind '" + f[0] + "'");
      }
    }
    return out;
  }

  private static void need(String[] f, int n, String where) {
    if (f.length != n) {
      throw new IllegalStateException(where + ": " + f.length + " fields, expected " + n);
    }
  }

  /** The SHA-256 of {@code file}, lower-case hex. */
  public static String sha256(Path file) throws IOException {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    byte[] buf = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      int k;
      while ((k = in.read(buf)) > 0) {
        md.update(buf, 0, k);
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }

  /** Imports {@code m} from {@code file} after checking its SHA-256. */
  public static Graph load(FetchedModel m, Path file) throws IOException {
    String got = sha256(file);
    if (!got.equals(m.sha256())) {
      throw new IllegalArgumentException(
          file
              + ": SHA-256 "
              + got
              + " differs from the "
              + m.sha256()
              + " pinned for "
              + m.name()
              + " ("
              + m.pkg()
              + "); run scripts/fetch-models.sh again");
    }
    return switch (m.format()) {
      case "tflite" -> TfliteImporter.read(file, m.inputShapes(), m.name()).graph();
      case "onnx" -> OnnxImporter.read(file, m.inputShapes(), m.inputValues(), m.name()).graph();
      default -> throw new IllegalStateException("format " + m.format() + " of " + m.name());
    };
  }

  private record Provider(FetchedModel m, Path file) implements ModelProvider {
    @Override
    public String name() {
      return m.name();
    }

    @Override
    public String description() {
      return m.description();
    }

    @Override
    public String citation() {
      return "npm "
          + m.pkg()
          + ", "
          + m.file()
          + " ("
          + m.licence()
          + "), fetched by"
          + " scripts/fetch-models.sh";
    }

    @Override
    public String family() {
      return m.family();
    }

    @Override
    public String source() {
      return m.format();
    }

    @Override
    public Graph build() {
      try {
        return load(m, file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
