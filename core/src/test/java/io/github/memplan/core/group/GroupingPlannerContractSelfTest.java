package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.solve.ContractRuns;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * Shows that {@link GroupingPlannerContract} fails broken grouping planners and passes a sound one:
 * each nested contract runs the inherited suite on a deliberately wrong planner through the JUnit
 * engine test kit (the nested classes are {@link Disabled} so that no build runs them directly).
 */
class GroupingPlannerContractSelfTest {

  @Disabled("run only through GroupingPlannerContractSelfTest")
  static class AllGlobalContract extends GroupingPlannerContract {
    @Override
    protected PlannerProvider<GroupProblem, Grouping> provider() {
      return AllGlobalGroupingPlanner.provider(new AllGlobalGroupingPlanner());
    }
  }

  /** The op order reversed: not the problem's order. */
  @Disabled("run only through GroupingPlannerContractSelfTest: it must fail")
  static class InvalidContract extends GroupingPlannerContract {
    @Override
    protected PlannerProvider<GroupProblem, Grouping> provider() {
      return AllGlobalGroupingPlanner.provider(
          (p, ctx) -> {
            Grouping g = AllGlobalGroupingPlanner.allGlobal(p, SliceRules.TODAY);
            List<String> reversed = new ArrayList<>(g.order());
            java.util.Collections.reverse(reversed);
            return Outcome.feasible(
                new Grouping(reversed, g.rules(), g.timestepMethod(), g.groups()),
                OptionalLong.empty());
          });
    }
  }

  /** Valid, but v0's and today's conventions in turn: not reproducible. */
  @Disabled("run only through GroupingPlannerContractSelfTest: it must fail")
  static class StatefulContract extends GroupingPlannerContract {
    private final AtomicLong runs = new AtomicLong();

    @Override
    protected PlannerProvider<GroupProblem, Grouping> provider() {
      return AllGlobalGroupingPlanner.provider(
          (p, ctx) ->
              Outcome.feasible(
                  AllGlobalGroupingPlanner.allGlobal(
                      p, runs.incrementAndGet() % 2 == 0 ? SliceRules.V0 : SliceRules.TODAY),
                  OptionalLong.empty()));
    }
  }

  /** Valid, but it claims a lower bound above its own cost. */
  @Disabled("run only through GroupingPlannerContractSelfTest: it must fail")
  static class OverclaimingContract extends GroupingPlannerContract {
    @Override
    protected PlannerProvider<GroupProblem, Grouping> provider() {
      return AllGlobalGroupingPlanner.provider(
          (p, ctx) -> {
            Grouping g = AllGlobalGroupingPlanner.allGlobal(p, SliceRules.TODAY);
            long cost = new RooflineCostModel().model(p.graph(), p.chip(), g).cycles();
            return Outcome.feasible(g, OptionalLong.of(cost + 1));
          });
    }
  }

  /** Works for 0.5 s whatever its budget says, against a prompt of 0.2 s. */
  @Disabled("run only through GroupingPlannerContractSelfTest: it must fail")
  static class BudgetIgnoringContract extends GroupingPlannerContract {
    @Override
    protected PlannerProvider<GroupProblem, Grouping> provider() {
      Planner<GroupProblem, Grouping> all = new AllGlobalGroupingPlanner();
      return AllGlobalGroupingPlanner.provider(
          (p, ctx) -> {
            try {
              Thread.sleep(500);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return all.solve(p, ctx);
          });
    }

    @Override
    protected java.time.Duration prompt() {
      return java.time.Duration.ofMillis(200);
    }

    /** Only the budget tests: the others would only be slow. */
    @Override
    public java.util.stream.Stream<org.junit.jupiter.api.DynamicTest>
        groupingsAreValidAndAboveTheBound() {
      return java.util.stream.Stream.empty();
    }

    @Override
    public void sameSeedSameGrouping() {}
  }

  /** Accepts any parameter, known or not. */
  @Disabled("run only through GroupingPlannerContractSelfTest: it must fail")
  static class LenientContract extends GroupingPlannerContract {
    @Override
    protected PlannerProvider<GroupProblem, Grouping> provider() {
      PlannerProvider<GroupProblem, Grouping> strict =
          AllGlobalGroupingPlanner.provider(new AllGlobalGroupingPlanner());
      return ContractRuns.ignoringUnknownParameters(strict);
    }
  }

  private static EngineExecutionResults runContract(Class<?> contract) {
    return ContractRuns.run(contract);
  }

  private static Map<String, String> failures(EngineExecutionResults results) {
    return ContractRuns.failures(results);
  }

  @Test
  void theAllGlobalPlannerPassesTheWholeContract() {
    EngineExecutionResults results = runContract(AllGlobalContract.class);
    assertThat(failures(results)).isEmpty();
    assertThat(results.testEvents().succeeded().count())
        .isGreaterThanOrEqualTo(GroupingPlannerContract.problems().size() + 4);
  }

  @Test
  void anInvalidGroupingIsCaught() {
    Map<String, String> failed = failures(runContract(InvalidContract.class));
    assertThat(failed.keySet())
        .containsExactlyInAnyOrder(
            "convrelu/bm1684x CYCLES",
            "stack/bm1684x CYCLES",
            "chain3/cv183x CYCLES",
            "moves4/bm1688 CYCLES",
            "reluPair/bm1684x DDR_BYTES",
            "cancelled",
            "zero deadline");
    assertThat(failed.get("stack/bm1684x CYCLES")).contains("invalid grouping").contains("order");
  }

  @Test
  void aNonReproduciblePlannerIsCaught() {
    Map<String, String> failed = failures(runContract(StatefulContract.class));
    assertThat(failed.keySet()).containsExactly("sameSeedSameGrouping()");
  }

  @Test
  void aBoundAboveTheCostIsCaught() {
    Map<String, String> failed = failures(runContract(OverclaimingContract.class));
    assertThat(failed).containsKey("convrelu/bm1684x CYCLES");
    assertThat(failed.get("convrelu/bm1684x CYCLES")).contains("the planner's lower bound");
  }

  @Test
  void aPlannerIgnoringItsBudgetIsCaught() {
    Map<String, String> failed = failures(runContract(BudgetIgnoringContract.class));
    assertThat(failed.keySet()).containsExactlyInAnyOrder("cancelled", "zero deadline");
    assertThat(failed.get("cancelled")).contains("time to return");
  }

  @Test
  void acceptingUnknownParametersIsCaught() {
    Map<String, String> failed = failures(runContract(LenientContract.class));
    assertThat(failed.keySet()).containsExactly("unknownParametersFail()");
  }
}
