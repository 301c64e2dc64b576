package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingValidator;
import io.github.memplan.core.solve.Validator;
import java.util.List;

/**
 * {@code group}: the layer-grouping problem of a model on a chip, as {@code memplan group} builds
 * it (the graph after TPU-MLIR's front-end fusions, {@link FrontEnd}, in its deterministic
 * topological order). An instances entry is a zoo name or a model file (relative to the suite
 * file's directory), or {@code {model: M, h2-rule: false, front-end: PASSES}}: {@code h2-rule:
 * false} switches the seed's h/2 overlap rule off (TPU-MLIR today), {@code front-end} chooses the
 * fusions as {@code --front-end} does (default {@code all}). It gives one instance per chip of the
 * problem, named {@code MODEL@CHIP}, with {@code -no-h2} without the rule and {@code -fe-PASSES}
 * when the front end is not {@code all}. Planners and metrics are those registered for {@link
 * GroupProblem}; every grouping is checked by {@link GroupingValidator}.
 */
public final class GroupKind extends SpiProblemKind<GroupProblem, Grouping> {
  public GroupKind() {
    super(GroupProblem.class);
  }

  @Override
  public String name() {
    return "group";
  }

  @Override
  protected Validator<GroupProblem, Grouping> validator() {
    return new GroupingValidator();
  }

  @Override
  public List<SuiteInstance> instances(JsonNode entry, Context ctx) {
    ModelEntry e = ModelEntry.parse(entry, List.of("h2-rule"));
    boolean h2Rule = GroupOptions.DEFAULT.h2Rule();
    JsonNode h = e.node().get("h2-rule");
    if (h != null) {
      if (!h.isBoolean()) {
        throw new IllegalArgumentException("h2-rule: expected true or false");
      }
      h2Rule = h.asBoolean();
    }
    GroupOptions options = new GroupOptions(h2Rule, GroupOptions.DEFAULT.objective());
    return e.instances(
        ctx,
        h2Rule ? "" : "-no-h2",
        (model, chip, fe, q) ->
            GroupProblem.of(FrontEnd.apply(model.build(), chip, fe, q), chip, options));
  }
}
