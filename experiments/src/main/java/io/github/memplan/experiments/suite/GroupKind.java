package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingValidator;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.solve.Validator;
import io.github.memplan.experiments.cli.ModelArg;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code group}: the layer-grouping problem of a model on a chip, as {@code memplan group} builds
 * it (the graph's deterministic topological order). An instances entry is a zoo name or a model
 * file (relative to the suite file's directory), or {@code {model: M, h2-rule: false}} to switch
 * the seed's h/2 overlap rule off (TPU-MLIR today); it gives one instance per chip of the problem,
 * named {@code MODEL@CHIP} ({@code MODEL@CHIP-no-h2} without the rule). Planners and metrics are
 * those registered for {@link GroupProblem}; every grouping is checked by {@link
 * GroupingValidator}.
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
    String arg;
    boolean h2Rule = GroupOptions.DEFAULT.h2Rule();
    if (entry.isTextual()) {
      arg = entry.asText();
    } else if (entry.isObject()) {
      SuiteNodes.keys(entry, "", List.of("model", "h2-rule"));
      JsonNode m = entry.get("model");
      if (m == null || !m.isTextual()) {
        throw new IllegalArgumentException("model: expected a model name or file");
      }
      arg = m.asText();
      JsonNode h = entry.get("h2-rule");
      if (h != null) {
        if (!h.isBoolean()) {
          throw new IllegalArgumentException("h2-rule: expected true or false");
        }
        h2Rule = h.asBoolean();
      }
    } else {
      throw new IllegalArgumentException("expected a model name, a model file or {model: ...}");
    }
    String model =
        ModelArg.fileKind(arg) == null ? arg : ctx.baseDir().resolve(arg).normalize().toString();
    ModelProvider provider = ModelArg.resolve(model); // fails now on an unknown name or file
    GroupOptions options = new GroupOptions(h2Rule, GroupOptions.DEFAULT.objective());
    List<SuiteInstance> out = new ArrayList<>();
    for (String chip : ctx.chips()) {
      var c = Chips.get(chip);
      out.add(
          new SuiteInstance(
              provider.name() + "@" + c.name() + (h2Rule ? "" : "-no-h2"),
              () -> GroupProblem.of(provider.build(), c, options)));
    }
    return out;
  }
}
