package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.frontend.Lowering;
import io.github.memplan.core.gmem.GmemBuilder;
import io.github.memplan.core.gmem.GmemOptions;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.solve.Validator;
import io.github.memplan.experiments.cli.ModelArg;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code gmem}: a model's GMEM activations on a chip, built as {@code memplan gmem} builds them (on
 * the graph after TPU-MLIR's front-end fusions, {@link FrontEnd}; TPU-MLIR's lifetimes, graph
 * inputs live for the whole run). An instances entry is a zoo name or a model file (darknet {@code
 * .cfg}, graph {@code .json}, {@code .onnx}; relative to the suite file's directory), or {@code
 * {model: M, front-end: PASSES}} to choose the fusions as {@code --front-end} does (default {@code
 * all}); it gives one instance per chip of the problem, named {@code MODEL@CHIP}, with {@code
 * -fe-PASSES} when the front end is not {@code all}. Planners and metrics are those of the DSA
 * problem.
 */
public final class GmemKind extends SpiProblemKind<DsaInstance, DsaSolution> {
  public GmemKind() {
    super(DsaInstance.class);
  }

  @Override
  public String name() {
    return "gmem";
  }

  @Override
  protected Validator<DsaInstance, DsaSolution> validator() {
    return new DsaValidator();
  }

  @Override
  public List<SuiteInstance> instances(JsonNode entry, Context ctx) {
    String arg;
    FrontEnd.Options fe = FrontEnd.Options.ALL;
    Lowering.Quantize quantize = Lowering.Quantize.F32;
    boolean hasQuantize = false;
    if (entry.isTextual()) {
      arg = entry.asText();
    } else if (entry.isObject()) {
      SuiteNodes.keys(entry, "", List.of("model", "front-end", "quantize"));
      JsonNode m = entry.get("model");
      if (m == null || !m.isTextual()) {
        throw new IllegalArgumentException("model: expected a model name or file");
      }
      arg = m.asText();
      fe = GroupKind.frontEnd(entry);
      quantize = GroupKind.quantize(entry);
      hasQuantize = entry.has("quantize");
    } else {
      throw new IllegalArgumentException("expected a model name, a model file or {model: ...}");
    }
    FrontEnd.Options frontEnd = fe;
    Lowering.Quantize q = quantize;
    String model =
        ModelArg.fileKind(arg) == null ? arg : ctx.baseDir().resolve(arg).normalize().toString();
    ModelProvider provider = ModelArg.resolve(model); // fails now on an unknown name or file
    List<SuiteInstance> out = new ArrayList<>();
    for (String chip : ctx.chips()) {
      var c = Chips.get(chip);
      if (hasQuantize) {
        q.check(c);
      }
      out.add(
          new SuiteInstance(
              provider.name() + "@" + c.name() + GroupKind.suffix(frontEnd) + GroupKind.suffix(q),
              () ->
                  GmemBuilder.build(
                          FrontEnd.apply(provider.build(), c, frontEnd, q),
                          c,
                          GmemOptions.defaults().withInputsLiveForever(true))
                      .activations()));
    }
    return out;
  }
}
