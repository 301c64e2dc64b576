package io.github.memplan.core.dsa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.ExhaustedBudgets;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.core.solve.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The contract every DSA planner's test extends (shipped in {@code core}'s test-jar). A subclass
 * supplies the planner and says whether it is exact; it inherits these tests:
 *
 * <ul>
 *   <li>{@link #knownOptima}: the {@link DsaFixtures#knownOptima() fixtures}, each with a proven
 *       optimum. Every planner returns a valid solution with {@code peak >= optimum} and a lower
 *       bound {@code <= optimum}; a planner that says {@code OPTIMAL} must be at the optimum; an
 *       {@link #exact()} planner must always be.
 *   <li>{@link #boundedCapacity}: the fixtures with the capacity set to their optimum (a planner
 *       must not call them infeasible; an exact one must solve them) and to one byte less (no
 *       solution can be valid; an exact planner must prove infeasibility).
 *   <li>{@link #seededRandomInstances}: {@value #RANDOM_INSTANCES} seeded random instances, each
 *       solved with a valid solution, {@code peak >= max load}, {@code 0 <= bound <= peak}.
 *   <li>{@link #sameSeedSameSolution}: two runs with the same seed give equal outcomes.
 *   <li>{@link #cancelledBudget} and {@link #zeroDurationBudget}: the planner returns (no timing is
 *       asserted) either a valid solution or {@code NO_SOLUTION_IN_BUDGET}, never an invalid
 *       solution, never an exception.
 * </ul>
 *
 * <p>All solutions are checked by {@link DsaValidator}; {@link #assertSolved} is public so that a
 * planner's own tests can apply the same checks to other instances.
 */
public abstract class DsaPlannerContract {

  /** How many seeded random instances {@link #seededRandomInstances} solves. */
  public static final int RANDOM_INSTANCES = 200;

  /** The seed of every contract run (the runs are independent: one context each). */
  public static final long RUN_SEED = 42;

  private static final DsaValidator VALIDATOR = new DsaValidator();

  /** The planner under test; may return the same instance every time (planners are immutable). */
  protected abstract Planner<DsaInstance, DsaSolution> planner();

  /** Whether the planner is exact: it must then reach the known optimum and say {@code OPTIMAL}. */
  protected boolean exact() {
    return false;
  }

  /**
   * Whether the planner is exact on instances with gaps too (default: {@link #exact()}). A planner
   * that treats every buffer as occupying its whole size throughout stays valid but not exact.
   */
  protected boolean exactWithGaps() {
    return exact();
  }

  /**
   * Whether the planner honours fixed offsets. If not, it must refuse instances that have them with
   * an {@link IllegalArgumentException}, never ignore them.
   */
  protected boolean supportsFixedOffsets() {
    return true;
  }

  /**
   * The budget of one run on {@code instance} (not used by the budget tests): unlimited by default.
   * A planner too slow for 40 buffers may return a step cap here; it must be deterministic (no
   * deadline), because {@link #sameSeedSameSolution} uses it too. Called once per run.
   */
  protected Budget budget(DsaInstance instance) {
    return Budget.unlimited();
  }

  private Outcome<DsaSolution> run(DsaInstance instance, Budget budget) {
    return planner().solve(instance, SolveContext.of(RUN_SEED, budget));
  }

  // ---------------------------------------------------------------------------------------------
  // checks, reusable by planner tests

  /**
   * Asserts that {@code outcome} carries a solution of {@code instance} that passes the validator,
   * with {@code peak >= max load}, a lower bound (if any) in {@code [0, peak]}, and, when the
   * status is {@code OPTIMAL}, a lower bound equal to the peak.
   *
   * @return the peak
   */
  public static long assertSolved(DsaInstance instance, Outcome<DsaSolution> outcome) {
    String what = "'" + instance.name() + "'";
    assertThat(outcome).as("outcome on %s", what).isNotNull();
    if (!outcome.status().hasSolution()) {
      fail("no solution for %s: %s %s", what, outcome.status(), outcome.message());
    }
    assertSolutionValid(instance, outcome.solution());
    long peak = instance.peak(outcome.solution());
    assertThat(peak)
        .as("peak on %s vs the max-load bound", what)
        .isGreaterThanOrEqualTo(LowerBounds.maxLoad(instance));
    assertBoundSane(instance, outcome, peak);
    if (outcome.status() == Status.OPTIMAL) {
      assertThat(outcome.lowerBound())
          .as("OPTIMAL on %s must carry a lower bound equal to the peak %d", what, peak)
          .hasValue(peak);
    }
    return peak;
  }

  /** Asserts that {@code solution} passes {@link DsaValidator} on {@code instance}. */
  public static void assertSolutionValid(DsaInstance instance, DsaSolution solution) {
    List<Violation> violations = VALIDATOR.validate(instance, solution);
    if (!violations.isEmpty()) {
      fail(
          "invalid solution of '%s' (%d violations): %s",
          instance.name(), violations.size(), violations);
    }
  }

  private static void assertBoundSane(DsaInstance instance, Outcome<?> outcome, long limit) {
    if (outcome.lowerBound().isPresent()) {
      assertThat(outcome.lowerBound().getAsLong())
          .as("lower bound on '%s'", instance.name())
          .isBetween(0L, limit);
    }
  }

  /**
   * Asserts that a run under an exhausted budget returned a valid solution or {@code
   * NO_SOLUTION_IN_BUDGET} (with a sane bound, if any).
   */
  public static void assertBudgetRespected(DsaInstance instance, Outcome<DsaSolution> outcome) {
    assertThat(outcome).as("outcome on '%s'", instance.name()).isNotNull();
    if (outcome.status().hasSolution()) {
      assertSolved(instance, outcome);
    } else {
      assertThat(outcome.status())
          .as("status on '%s' (%s)", instance.name(), outcome.message())
          .isEqualTo(Status.NO_SOLUTION_IN_BUDGET);
      assertBoundSane(instance, outcome, Long.MAX_VALUE);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // the contract

  @TestFactory
  public Stream<DynamicTest> knownOptima() {
    return DsaFixtures.knownOptima().stream()
        .map(f -> DynamicTest.dynamicTest(f.name(), () -> checkFixture(f)));
  }

  private void checkFixture(DsaFixtures.Fixture f) {
    DsaInstance inst = f.instance();
    if (f.hasFixedOffsets() && !supportsFixedOffsets()) {
      assertThatThrownBy(() -> run(inst, budget(inst)))
          .as("a planner without fixed-offset support must refuse '%s'", f.name())
          .isInstanceOf(IllegalArgumentException.class);
      return;
    }
    Outcome<DsaSolution> out = run(inst, budget(inst));
    long peak = assertSolved(inst, out);
    assertThat(peak)
        .as("peak on '%s' vs its optimum (%s)", f.name(), f.why())
        .isGreaterThanOrEqualTo(f.optimum());
    assertBoundSane(inst, out, f.optimum());
    if (out.status() == Status.OPTIMAL) {
      assertThat(peak).as("'%s' claimed OPTIMAL (%s)", f.name(), f.why()).isEqualTo(f.optimum());
    }
    if (exact() && (exactWithGaps() || !f.hasGaps())) {
      assertThat(out.status())
          .as("status of an exact planner on '%s'", f.name())
          .isEqualTo(Status.OPTIMAL);
      assertThat(peak)
          .as("peak of an exact planner on '%s' (%s)", f.name(), f.why())
          .isEqualTo(f.optimum());
    }
  }

  @TestFactory
  public Stream<DynamicTest> boundedCapacity() {
    List<DynamicTest> tests = new ArrayList<>();
    for (DsaFixtures.Fixture f : DsaFixtures.knownOptima()) {
      if (f.optimum() == 0 || (f.hasFixedOffsets() && !supportsFixedOffsets())) {
        continue;
      }
      boolean exactHere = exact() && (exactWithGaps() || !f.hasGaps());
      tests.add(
          DynamicTest.dynamicTest(
              f.name() + " capacity=optimum",
              () -> {
                DsaInstance inst = f.instance().withCapacity(f.optimum());
                Outcome<DsaSolution> out = run(inst, budget(inst));
                assertThat(out.status())
                    .as("'%s' fits in its optimum %d (%s)", f.name(), f.optimum(), f.why())
                    .isNotEqualTo(Status.INFEASIBLE);
                if (out.status().hasSolution() || exactHere) {
                  assertThat(assertSolved(inst, out)).isEqualTo(f.optimum());
                }
              }));
      tests.add(
          DynamicTest.dynamicTest(
              f.name() + " capacity=optimum-1",
              () -> {
                DsaInstance inst = f.instance().withCapacity(f.optimum() - 1);
                Outcome<DsaSolution> out = run(inst, budget(inst));
                if (out.status().hasSolution()) {
                  assertSolutionValid(inst, out.solution()); // cannot pass: below the optimum
                  fail("'%s' solved below its optimum %d", f.name(), f.optimum());
                }
                if (exactHere) {
                  assertThat(out.status())
                      .as("an exact planner on '%s' below its optimum", f.name())
                      .isEqualTo(Status.INFEASIBLE);
                }
              }));
    }
    return tests.stream();
  }

  @TestFactory
  public Stream<DynamicTest> seededRandomInstances() {
    return DsaFixtures.randomInstances(DsaFixtures.RANDOM_SEED, RANDOM_INSTANCES).stream()
        .map(
            inst ->
                DynamicTest.dynamicTest(
                    inst.name() + " (" + inst.size() + " buffers)",
                    () -> assertSolved(inst, run(inst, budget(inst)))));
  }

  @Test
  public void sameSeedSameSolution() {
    List<DsaInstance> instances = new ArrayList<>();
    DsaFixtures.knownOptima().stream()
        .filter(f -> supportsFixedOffsets() || !f.hasFixedOffsets())
        .forEach(f -> instances.add(f.instance()));
    instances.addAll(DsaFixtures.randomInstances(DsaFixtures.RANDOM_SEED + 1, 20));
    Planner<DsaInstance, DsaSolution> p = planner();
    List<Outcome<DsaSolution>> first = new ArrayList<>();
    for (DsaInstance inst : instances) {
      first.add(p.solve(inst, SolveContext.of(RUN_SEED, budget(inst))));
    }
    // again, in reverse order: state left over from earlier runs must not matter either.
    // Statistics and messages may hold timings, so only status, solution and bound are compared.
    for (int i = instances.size() - 1; i >= 0; i--) {
      DsaInstance inst = instances.get(i);
      Outcome<DsaSolution> again = p.solve(inst, SolveContext.of(RUN_SEED, budget(inst)));
      assertThat(again.status()).as("status on '%s'", inst.name()).isEqualTo(first.get(i).status());
      assertThat(again.solution())
          .as("solution on '%s' with seed %d", inst.name(), RUN_SEED)
          .isEqualTo(first.get(i).solution());
      assertThat(again.lowerBound())
          .as("bound on '%s'", inst.name())
          .isEqualTo(first.get(i).lowerBound());
    }
  }

  private List<DsaInstance> budgetInstances() {
    List<DsaInstance> out = new ArrayList<>();
    out.add(DsaInstance.of("empty", List.of()));
    out.add(DsaFixtures.fragmentation().instance());
    // the largest of a few random instances: the one most likely to need the budget
    DsaFixtures.randomInstances(DsaFixtures.RANDOM_SEED + 2, 10).stream()
        .max(java.util.Comparator.comparingInt(DsaInstance::size))
        .ifPresent(out::add);
    return out;
  }

  private void checkExhausted(Supplier<Budget> budget) {
    ExhaustedBudgets.check(
        budgetInstances(),
        budget,
        (inst, ctx) -> planner().solve(inst, ctx),
        DsaPlannerContract::assertBudgetRespected,
        RUN_SEED);
  }

  @Test
  public void cancelledBudget() {
    checkExhausted(ExhaustedBudgets.KINDS.get(0));
  }

  @Test
  public void zeroDurationBudget() {
    checkExhausted(ExhaustedBudgets.KINDS.get(1));
  }
}
