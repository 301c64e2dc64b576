package io.github.memplan.core.group;

import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import java.util.OptionalLong;

/**
 * Test double: every op global (no group), sliced by today's rules as the problem's h/2 option has
 * them. Always valid, and its cost is the ungrouped cost, so the grouping contract must pass it.
 */
public final class AllGlobalGroupingPlanner implements Planner<GroupProblem, Grouping> {
  /** The all-global grouping of {@code p} under the slicing rules of {@code era}. */
  public static Grouping allGlobal(GroupProblem p, SliceRules era) {
    return new Grouping(
        Grouping.names(p.order()),
        p.options().rules(era),
        era == SliceRules.V0 ? "v0" : "today",
        List.of());
  }

  @Override
  public Outcome<Grouping> solve(GroupProblem p, SolveContext ctx) {
    return Outcome.feasible(allGlobal(p, SliceRules.TODAY), OptionalLong.empty());
  }

  /** A provider ({@code test-all-global}, not registered) of {@code planner}, no parameters. */
  public static PlannerProvider<GroupProblem, Grouping> provider(
      Planner<GroupProblem, Grouping> planner) {
    return new PlannerProvider<>() {
      @Override
      public String id() {
        return "test-all-global";
      }

      @Override
      public String description() {
        return "every op global";
      }

      @Override
      public String citation() {
        return "none: a test double";
      }

      @Override
      public Class<GroupProblem> instanceType() {
        return GroupProblem.class;
      }

      @Override
      public Planner<GroupProblem, Grouping> create(PlannerConfig config) {
        return planner;
      }
    };
  }
}
