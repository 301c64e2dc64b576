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
 * topological order). An instances entry is a {@link ModelEntry} (model, {@code front-end}, {@code
 * quantize}) with one key more, {@code h2-rule: BOOL}: without it the seed's h/2 overlap rule
 * follows each planner's era (on for {@code tpumlir-v0}, off for today's planners, as TPU-MLIR
 * today); {@code true} or {@code false} forces it on or off for every planner and appends {@code
 * -h2} or {@code -no-h2} to the instance names. Planners and metrics are those registered for
 * {@link GroupProblem}; every grouping is checked by {@link GroupingValidator}.
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
  public Validator<GroupProblem, Grouping> validator() {
    return new GroupingValidator();
  }

  @Override
  public List<SuiteInstance<GroupProblem>> instances(JsonNode entry, Context ctx) {
    ModelEntry e = ModelEntry.parse(entry, List.of("h2-rule"));
    GroupOptions.H2Rule h2Rule = GroupOptions.DEFAULT.h2Rule();
    JsonNode h = e.node().get("h2-rule");
    if (h != null) {
      if (!h.isBoolean()) {
        throw new IllegalArgumentException("h2-rule: expected true or false");
      }
      h2Rule = h.asBoolean() ? GroupOptions.H2Rule.ON : GroupOptions.H2Rule.OFF;
    }
    GroupOptions options = new GroupOptions(h2Rule, GroupOptions.DEFAULT.objective());
    return e.instances(
        ctx,
        suffix(h2Rule),
        (model, chip, fe, q) ->
            GroupProblem.of(FrontEnd.apply(model.build(), chip, fe, q), chip, options));
  }

  /**
   * The instance-name suffix of the h/2 option: none by era, {@code -h2} on, {@code -no-h2} off.
   */
  static String suffix(GroupOptions.H2Rule h2) {
    return switch (h2) {
      case ERA -> "";
      case ON -> "-h2";
      case OFF -> "-no-h2";
    };
  }
}
