package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.frontend.Lowering;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.experiments.model.ModelArg;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * An instances entry of a model-based problem ({@code gmem}, {@code group}): a zoo name or a model
 * file (darknet {@code .cfg}, graph {@code .json}, {@code .onnx}, {@code .tflite}; relative to the
 * suite file's directory), or a mapping {@code {model: M, front-end: PASSES, quantize: MODE}} where
 * {@code model} and {@code quantize} may also be lists, and a kind may allow more keys. It expands
 * to one instance per model, chip and precision, in that order, named {@code MODEL@CHIP}, then the
 * kind's suffix, then {@code -fe-PASSES} when the front end is not {@code all} and {@code -bf16},
 * {@code -f16} or {@code -int8} unless F32 (F32 names stay as they were).
 *
 * <p>Without {@code quantize} the graph is taken as imported (F32) on every chip; a precision given
 * explicitly must be one the chip compiles (CV18xx: BF16 and INT8), else the suite fails to load
 * with one line.
 *
 * @param models the model names or files (files resolved against the suite's directory)
 * @param frontEnd the front-end passes ({@code all} when absent)
 * @param quantize the precisions ({@code [F32]} when absent)
 * @param quantizeGiven whether {@code quantize} was given (only then is it checked per chip)
 * @param node the entry as written, for a kind's own keys (a text node for a bare name)
 */
record ModelEntry(
    List<String> models,
    FrontEnd.Options frontEnd,
    List<Lowering.Quantize> quantize,
    boolean quantizeGiven,
    JsonNode node) {

  /** Builds an instance's loaded object from the front-ended graph's model and chip. */
  interface Builder<I> {
    I build(ModelProvider model, Chip chip, FrontEnd.Options frontEnd, Lowering.Quantize q);
  }

  /**
   * Reads {@code entry}.
   *
   * @param kindKeys the keys the kind allows beside {@code model}, {@code front-end} and {@code
   *     quantize}
   */
  static ModelEntry parse(JsonNode entry, Collection<String> kindKeys) {
    if (entry.isTextual()) {
      return new ModelEntry(
          List.of(entry.asText()),
          FrontEnd.Options.ALL,
          List.of(Lowering.Quantize.F32),
          false,
          entry);
    }
    if (!entry.isObject()) {
      throw new IllegalArgumentException("expected a model name, a model file or {model: ...}");
    }
    List<String> keys = new ArrayList<>(List.of("model", "front-end", "quantize"));
    keys.addAll(kindKeys);
    SuiteNodes.keys(entry, "", keys);
    List<String> models = new ArrayList<>();
    for (JsonNode m : oneOrMany(entry.get("model"), "model", "a model name or file")) {
      models.add(m.asText());
    }
    List<Lowering.Quantize> quantize = new ArrayList<>();
    JsonNode q = entry.get("quantize");
    if (q == null) {
      quantize.add(Lowering.Quantize.F32);
    } else {
      for (JsonNode v : oneOrMany(q, "quantize", "F32, BF16, F16 or INT8")) {
        quantize.add(Lowering.Quantize.parse(v.asText()));
      }
    }
    return new ModelEntry(models, frontEnd(entry), quantize, q != null, entry);
  }

  /** A text node or a non-empty list of text nodes, else one line naming the key. */
  private static List<JsonNode> oneOrMany(JsonNode v, String key, String expected) {
    String msg = key + ": expected " + expected + ", or a list of them";
    if (v == null) {
      throw new IllegalArgumentException(msg);
    }
    List<JsonNode> out = new ArrayList<>();
    if (v.isTextual()) {
      out.add(v);
    } else if (v.isArray() && !v.isEmpty()) {
      for (JsonNode e : v) {
        if (!e.isTextual()) {
          throw new IllegalArgumentException(msg);
        }
        out.add(e);
      }
    } else {
      throw new IllegalArgumentException(msg);
    }
    return out;
  }

  /** An entry's {@code front-end} key ({@code all} when absent). */
  private static FrontEnd.Options frontEnd(JsonNode entry) {
    JsonNode f = entry.get("front-end");
    if (f == null) {
      return FrontEnd.Options.ALL;
    }
    if (!f.isTextual()) {
      throw new IllegalArgumentException(
          "front-end: expected 'all', 'none' or a comma-separated list of passes");
    }
    return FrontEnd.Options.parse(f.asText());
  }

  /**
   * The instances: per model (resolved now, so an unknown name or file fails when the suite loads),
   * chip and precision.
   *
   * @param kindSuffix what the kind appends after {@code MODEL@CHIP} (may be empty)
   */
  <I> List<SuiteInstance<I>> instances(
      ProblemKind.Context ctx, String kindSuffix, Builder<I> builder) {
    List<SuiteInstance<I>> out = new ArrayList<>();
    for (String arg : models) {
      String model =
          ModelArg.fileKind(arg) == null ? arg : ctx.baseDir().resolve(arg).normalize().toString();
      ModelProvider provider = ModelArg.resolve(model);
      for (String chipName : ctx.chips()) {
        Chip chip = Chips.get(chipName);
        for (Lowering.Quantize q : quantize) {
          if (quantizeGiven) {
            q.check(chip);
          }
          Supplier<I> loader = () -> builder.build(provider, chip, frontEnd, q);
          out.add(
              new SuiteInstance<>(
                  provider.name() + "@" + chip.name() + kindSuffix + suffix(frontEnd) + suffix(q),
                  loader));
        }
      }
    }
    return out;
  }

  /** The instance-name suffix of a precision: none for F32 (names stay), else {@code -MODE}. */
  private static String suffix(Lowering.Quantize q) {
    return q == Lowering.Quantize.F32 ? "" : "-" + q.name().toLowerCase(Locale.ROOT);
  }

  /** The instance-name suffix of a front end: none for {@code all}, else {@code -fe-PASSES}. */
  private static String suffix(FrontEnd.Options fe) {
    return fe.isAll() ? "" : "-fe-" + fe;
  }
}
