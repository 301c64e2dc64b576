package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.ExhaustedBudgets;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Violation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The contract every layer-grouping planner's test extends (shipped in {@code core}'s test-jar):
 *
 * <ul>
 *   <li>{@link #groupingsAreValidAndAboveTheBound}: on {@link #problems()} (small graphs on several
 *       chips, both objectives) the planner returns a grouping that passes {@link
 *       GroupingValidator}, whose cycles and DDR bytes are never below {@link GroupingBound}'s for
 *       its timestep method ({@link GroupingBound#forMethod}), and whose claimed lower bound, if
 *       any, is not above its objective;
 *   <li>{@link #sameSeedSameGrouping}: the same problem and seed give the same outcome, whatever
 *       ran before;
 *   <li>{@link #exhaustedBudgets}: a cancelled budget and a zero deadline give, within {@link
 *       #prompt()}, a valid grouping or {@code NO_SOLUTION_IN_BUDGET}, never an exception;
 *   <li>{@link #unknownParametersFail}: an unknown parameter is an {@link IllegalArgumentException}
 *       naming it.
 * </ul>
 *
 * A subclass names the provider and, through {@link #parameters()}, the parameters the contract
 * runs it with (for example {@code lmem=test-lmem-stack} in a module without the TPU-MLIR LMEM
 * allocators).
 */
public abstract class GroupingPlannerContract {
  /** The run's seed. */
  public static final long RUN_SEED = 42;

  /**
   * How soon a planner must return under an exhausted budget by default: generous, since the build
   * shares its cores and a planner's first call loads its classes.
   */
  public static final Duration PROMPT = Duration.ofSeconds(5);

  private static final GroupingValidator VALIDATOR = new GroupingValidator();
  private static final RooflineCostModel COST = new RooflineCostModel();

  /** The registered grouping planner {@code id}. */
  public static PlannerProvider<GroupProblem, Grouping> registered(String id) {
    return Planners.get(id, GroupProblem.class);
  }

  /**
   * The ids of the registered grouping planners whose provider classes are in packages under {@code
   * packagePrefix} (a module's, so that its coverage test can list them), sorted.
   */
  public static List<String> registeredIn(String packagePrefix) {
    return Planners.forInstance(GroupProblem.class).stream()
        .filter(p -> p.getClass().getName().startsWith(packagePrefix))
        .map(PlannerProvider::id)
        .toList();
  }

  /** The provider under test. */
  protected abstract PlannerProvider<GroupProblem, Grouping> provider();

  /** How soon the planner must return under an exhausted budget ({@link #PROMPT}). */
  protected Duration prompt() {
    return PROMPT;
  }

  /** The parameters the contract creates the planner with (default: none, so all defaults). */
  protected Map<String, String> parameters() {
    return Map.of();
  }

  private Planner<GroupProblem, Grouping> planner() {
    return provider().create(parameters());
  }

  private Outcome<Grouping> run(GroupProblem p, Budget budget) {
    return planner().solve(p, SolveContext.of(RUN_SEED, budget));
  }

  /**
   * Small problems: a conv and a ReLU, two stride-2 convs, a chain of three convs with ReLUs and a
   * pool, the prefetch graph whose conv is also a graph output, a ReLU pair too big for one group
   * unsliced; on bm1684x, cv183x and bm1688, one minimising DDR bytes.
   */
  public static List<GroupProblem> problems() {
    GroupOptions cycles = GroupOptions.DEFAULT;
    GroupOptions ddr = new GroupOptions(GroupOptions.H2Rule.ERA, GroupOptions.Objective.DDR_BYTES);
    return List.of(
        GroupProblem.of(GroupFixtures.convRelu(), Chips.get("bm1684x"), cycles),
        GroupProblem.of(GroupFixtures.convStackS2(), Chips.get("bm1684x"), cycles),
        GroupProblem.of(
            GroupFixtures.convReluChain("chain3", 16, 32, 3, 1), Chips.get("cv183x"), cycles),
        GroupProblem.of(GroupFixtures.prefetch(true), Chips.get("bm1688"), cycles),
        GroupProblem.of(GroupFixtures.reluPair(2, 32, 64, 64), Chips.get("bm1684x"), ddr));
  }

  /** Asserts a valid grouping whose costs are not below the bound; returns its cost. */
  public static GroupCost assertGrouped(GroupProblem p, Outcome<Grouping> outcome) {
    assertThat(outcome).as("outcome on %s", p.name()).isNotNull();
    if (!outcome.status().hasSolution()) {
      fail("no grouping of %s: %s %s", p.name(), outcome.status(), outcome.message());
    }
    assertValid(p, outcome.solution());
    GroupCost cost = COST.model(p.graph(), p.chip(), outcome.solution());
    GroupingBound.Totals bound =
        GroupingMetrics.computeBound(
            p, outcome.solution().timestepMethod(), outcome.solution().rules());
    assertThat(cost.cycles()).as("cycles on %s", p.name()).isGreaterThanOrEqualTo(bound.cycles());
    assertThat(cost.ddrBytes())
        .as("DDR bytes on %s", p.name())
        .isGreaterThanOrEqualTo(bound.ddrBytes());
    if (outcome.lowerBound().isPresent()) {
      long objective =
          p.options().objective() == GroupOptions.Objective.DDR_BYTES
              ? cost.ddrBytes()
              : cost.cycles();
      assertThat(outcome.lowerBound().getAsLong())
          .as("the planner's lower bound on %s", p.name())
          .isBetween(0L, objective);
    }
    return cost;
  }

  public static void assertValid(GroupProblem p, Grouping g) {
    List<Violation> v = VALIDATOR.validate(p, g);
    if (!v.isEmpty()) {
      fail("invalid grouping of %s (%d violations): %s", p.name(), v.size(), v);
    }
  }

  @TestFactory
  public Stream<DynamicTest> groupingsAreValidAndAboveTheBound() {
    return problems().stream()
        .map(
            p ->
                DynamicTest.dynamicTest(
                    p.name() + " " + p.options().objective(),
                    () -> assertGrouped(p, run(p, Budget.unlimited()))));
  }

  @Test
  public void sameSeedSameGrouping() {
    List<GroupProblem> problems = problems();
    List<Outcome<Grouping>> first = new ArrayList<>();
    for (GroupProblem p : problems) {
      first.add(run(p, Budget.unlimited()));
    }
    for (int k = problems.size() - 1; k >= 0; k--) {
      GroupProblem p = problems.get(k);
      Outcome<Grouping> again = run(p, Budget.unlimited());
      assertThat(again.status()).as("status on %s", p.name()).isEqualTo(first.get(k).status());
      assertThat(again.solution())
          .as("grouping of %s", p.name())
          .isEqualTo(first.get(k).solution());
      assertThat(again.lowerBound())
          .as("bound on %s", p.name())
          .isEqualTo(first.get(k).lowerBound());
    }
  }

  private void checkExhausted(Supplier<Budget> budget) {
    ExhaustedBudgets.check(
        problems(),
        budget,
        (p, ctx) -> {
          long t0 = System.nanoTime();
          Outcome<Grouping> out = planner().solve(p, ctx);
          Duration took = Duration.ofNanos(System.nanoTime() - t0);
          assertThat(took)
              .as("time to return on %s under an exhausted budget", p.name())
              .isLessThanOrEqualTo(prompt());
          return out;
        },
        ExhaustedBudgets.solvedOrNoSolution(
            GroupingPlannerContract::assertGrouped, GroupProblem::name),
        RUN_SEED);
  }

  /** A cancelled budget and a zero deadline, each over {@link #problems()}. */
  @TestFactory
  public Stream<DynamicTest> exhaustedBudgets() {
    return ExhaustedBudgets.dynamicTests(this::checkExhausted);
  }

  @Test
  public void unknownParametersFail() {
    Map<String, String> params = new TreeMap<>(parameters());
    params.put("no-such-parameter", "1");
    assertThatThrownBy(() -> provider().create(params))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no-such-parameter");
  }
}
