package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.gmem.GmemBuilder;
import io.github.memplan.core.gmem.GmemOptions;
import io.github.memplan.core.solve.Validator;
import java.util.List;

/**
 * {@code gmem}: a model's GMEM activations on a chip, built as {@code memplan gmem} builds them (on
 * the graph after TPU-MLIR's front-end fusions, {@link FrontEnd}; TPU-MLIR's lifetimes, graph
 * inputs live for the whole run). An instances entry is a {@link ModelEntry} (model, {@code
 * front-end}, {@code quantize}). Planners and metrics are those of the DSA problem.
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
  public Validator<DsaInstance, DsaSolution> validator() {
    return new DsaValidator();
  }

  @Override
  public List<SuiteInstance<DsaInstance>> instances(JsonNode entry, Context ctx) {
    return ModelEntry.parse(entry, List.of())
        .instances(
            ctx,
            "",
            (model, chip, fe, q) ->
                GmemBuilder.build(
                        FrontEnd.apply(model.build(), chip, fe, q),
                        chip,
                        GmemOptions.defaults().withInputsLiveForever(true))
                    .activations());
  }
}
