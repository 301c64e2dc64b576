package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.frontend.Lowering;
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
 * it (the graph after TPU-MLIR's front-end fusions, {@link FrontEnd}, in its deterministic
 * topological order). An instances entry is a zoo name or a model file (relative to the suite
 * file's directory), or {@code {model: M, h2-rule: BOOL, front-end: PASSES}}: without {@code
 * h2-rule} the seed's h/2 overlap rule follows each planner's era (on for {@code tpumlir-v0}, off
 * for today's planners, as TPU-MLIR today), {@code true} or {@code false} forces it on or off for
 * every planner; {@code front-end} chooses the fusions as {@code --front-end} does (default {@code
 * all}). It gives one instance per chip of the problem, named {@code MODEL@CHIP}, with {@code -h2}
 * or {@code -no-h2} when the rule is forced and {@code -fe-PASSES} when the front end is not {@code
 * all}. Planners and metrics are those registered for {@link GroupProblem}; every grouping is
 * checked by {@link GroupingValidator}.
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
    GroupOptions.H2Rule h2Rule = GroupOptions.DEFAULT.h2Rule();
    FrontEnd.Options frontEnd = FrontEnd.Options.ALL;
    Lowering.Quantize quantize = Lowering.Quantize.F32;
    boolean hasQuantize = false;
    if (entry.isTextual()) {
      arg = entry.asText();
    } else if (entry.isObject()) {
      SuiteNodes.keys(entry, "", List.of("model", "h2-rule", "front-end", "quantize"));
      frontEnd = frontEnd(entry);
      quantize = quantize(entry);
      hasQuantize = entry.has("quantize");
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
        h2Rule = h.asBoolean() ? GroupOptions.H2Rule.ON : GroupOptions.H2Rule.OFF;
      }
    } else {
      throw new IllegalArgumentException("expected a model name, a model file or {model: ...}");
    }
    String model =
        ModelArg.fileKind(arg) == null ? arg : ctx.baseDir().resolve(arg).normalize().toString();
    ModelProvider provider = ModelArg.resolve(model); // fails now on an unknown name or file
    GroupOptions options = new GroupOptions(h2Rule, GroupOptions.DEFAULT.objective());
    List<SuiteInstance> out = new ArrayList<>();
    FrontEnd.Options fe = frontEnd;
    Lowering.Quantize q = quantize;
    for (String chip : ctx.chips()) {
      var c = Chips.get(chip);
      if (hasQuantize) {
        q.check(c);
      }
      out.add(
          new SuiteInstance(
              provider.name() + "@" + c.name() + suffix(h2Rule) + suffix(fe) + suffix(q),
              () -> GroupProblem.of(FrontEnd.apply(provider.build(), c, fe, q), c, options)));
    }
    return out;
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

  /** An entry's {@code front-end} key ({@code all} when absent). */
  static FrontEnd.Options frontEnd(JsonNode entry) {
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

  /** An entry's {@code quantize} key ({@code F32} when absent): F32, BF16, F16 or INT8. */
  static Lowering.Quantize quantize(JsonNode entry) {
    JsonNode q = entry.get("quantize");
    if (q == null) {
      return Lowering.Quantize.F32;
    }
    if (!q.isTextual()) {
      throw new IllegalArgumentException("quantize: expected F32, BF16, F16 or INT8");
    }
    return Lowering.Quantize.parse(q.asText());
  }

  /** The instance-name suffix of a precision: none for F32 (names stay), else {@code -MODE}. */
  static String suffix(Lowering.Quantize q) {
    return q == Lowering.Quantize.F32 ? "" : "-" + q.name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The instance-name suffix of a front end: none for {@code all}, else {@code -fe-PASSES}. */
  static String suffix(FrontEnd.Options fe) {
    return fe.isAll() ? "" : "-fe-" + fe;
  }
}
