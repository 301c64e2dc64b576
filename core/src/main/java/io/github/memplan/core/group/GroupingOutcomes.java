package io.github.memplan.core.group;

import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Violation;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** What the layer-group planners share: the {@code lmem} parameter and the validated outcome. */
public final class GroupingOutcomes {
  private GroupingOutcomes() {}

  /** The {@code lmem} parameter with its default. */
  public static Parameter lmemParameter(String defaultId) {
    return new Parameter("lmem", "id of the LmemInstance planner that packs each group", defaultId);
  }

  /**
   * {@code grouping} checked by {@link GroupingValidator}: FEASIBLE with the stats (and the groups
   * and global-op counts), or ERROR naming {@code planner} and the first violation.
   *
   * @param budgetNote message when the budget ran out, else {@code null}
   */
  public static Outcome<Grouping> validated(
      String planner,
      GroupProblem p,
      Grouping grouping,
      Map<String, ? extends Number> stats,
      String budgetNote) {
    List<Violation> v = new GroupingValidator().validate(p, grouping);
    if (!v.isEmpty()) {
      return Outcome.error(planner + " produced an invalid grouping: " + v.get(0));
    }
    Outcome<Grouping> out =
        Outcome.feasible(grouping, OptionalLong.empty())
            .withStats(
                Map.of(
                    "groups", grouping.groups().size(),
                    "global-ops", grouping.globalOps().size()))
            .withStats(stats);
    return budgetNote != null ? out.withMessage(budgetNote) : out;
  }
}
