package io.github.memplan.core.lmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.github.memplan.core.lmem.LmemBuffer.Kind;
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
 * The contract every LMEM planner's test extends (shipped in {@code core}'s test-jar):
 *
 * <ul>
 *   <li>{@link #fixtures}: small hand-made instances that fit (one buffer, a chain, a held weight
 *       with wrapping buffers, an in-place pair, a buffer of exactly the capacity); every planner
 *       places them with a valid solution.
 *   <li>{@link #overCapacity}: instances whose live bytes exceed the capacity: the planner reports
 *       {@code INFEASIBLE}, {@code FAILED_TO_PLACE} or {@code NO_SOLUTION_IN_BUDGET}, never a
 *       solution, never an exception.
 *   <li>{@link #seededRandomInstances}: {@value #RANDOM_INSTANCES} {@link LmemGenerator} instances
 *       (all four slicing/pipelining shapes, live bytes at most half the capacity) all solved with
 *       a valid solution, {@code peak >= max live}, bound in {@code [0, peak]}; plus tight
 *       instances (90% full) where a greedy may fail, but only with a proper status.
 *   <li>{@link #sameSeedSameSolution}: same seed, same outcome, whatever ran before.
 *   <li>{@link #exhaustedBudgets}: cancelled or zero-deadline budgets give a valid solution or
 *       {@code NO_SOLUTION_IN_BUDGET}, never an exception.
 * </ul>
 */
public abstract class LmemPlannerContract {

  public static final int RANDOM_INSTANCES = 100;
  public static final long RANDOM_SEED = 20261125;
  public static final long RUN_SEED = 42;

  private static final LmemValidator VALIDATOR = new LmemValidator();

  protected abstract Planner<LmemInstance, LmemSolution> planner();

  private Outcome<LmemSolution> run(LmemInstance instance, Budget budget) {
    return planner().solve(instance, SolveContext.of(RUN_SEED, budget));
  }

  /** Asserts a valid solution with {@code peak >= max live} and a sane bound; returns the peak. */
  public static long assertSolved(LmemInstance instance, Outcome<LmemSolution> outcome) {
    assertThat(outcome).as("outcome on '%s'", instance.name()).isNotNull();
    if (!outcome.status().hasSolution()) {
      fail("no solution for '%s': %s %s", instance.name(), outcome.status(), outcome.message());
    }
    assertValid(instance, outcome.solution());
    long peak = outcome.solution().peak(instance);
    assertThat(peak)
        .as("peak on '%s'", instance.name())
        .isGreaterThanOrEqualTo(LmemLowerBounds.maxLive(instance));
    assertBoundSane(instance, outcome, peak);
    return peak;
  }

  public static void assertValid(LmemInstance instance, LmemSolution solution) {
    List<Violation> v = VALIDATOR.validate(instance, solution);
    if (!v.isEmpty()) {
      fail("invalid solution of '%s' (%d violations): %s", instance.name(), v.size(), v);
    }
  }

  private static void assertBoundSane(LmemInstance instance, Outcome<?> outcome, long limit) {
    if (outcome.lowerBound().isPresent()) {
      assertThat(outcome.lowerBound().getAsLong())
          .as("lower bound on '%s'", instance.name())
          .isBetween(0L, limit);
    }
  }

  /**
   * Asserts a valid solution, or a failure status that is honest: {@code INFEASIBLE} only with a
   * bound above the capacity, else {@code FAILED_TO_PLACE} (a heuristic) or {@code
   * NO_SOLUTION_IN_BUDGET} (a search).
   */
  public static void assertSolvedOrFailedProperly(
      LmemInstance instance, Outcome<LmemSolution> outcome) {
    if (outcome.status().hasSolution()) {
      assertSolved(instance, outcome);
      return;
    }
    assertThat(outcome.status())
        .as("status on '%s' (%s)", instance.name(), outcome.message())
        .isIn(Status.INFEASIBLE, Status.FAILED_TO_PLACE, Status.NO_SOLUTION_IN_BUDGET);
    assertThat(outcome.message()).as("why no solution on '%s'", instance.name()).isNotBlank();
    if (outcome.status() == Status.INFEASIBLE) {
      assertThat(outcome.lowerBound())
          .as("INFEASIBLE on '%s' needs a bound above the capacity", instance.name())
          .isPresent();
      assertThat(outcome.lowerBound().getAsLong()).isGreaterThan(instance.capacity());
    }
  }

  // ---------------------------------------------------------------------------------------------
  // fixtures

  private static Timestep row(List<Timestep.TiuOp> tiu, Integer... gdma) {
    return new Timestep(tiu, List.of(gdma));
  }

  private static Timestep.TiuOp op(String name, List<Integer> in, List<Integer> out) {
    return new Timestep.TiuOp(name, in, out, List.of());
  }

  private static LmemBuffer act(String id, int start, int end, long bytes) {
    return new LmemBuffer(id, Kind.ACTIVATION, start, end, bytes, false);
  }

  private static LmemInstance inst(
      String name,
      long capacity,
      int banks,
      int eu,
      List<LmemBuffer> buffers,
      List<Timestep> rows,
      List<InPlace> inPlace) {
    return new LmemInstance(name, capacity, banks, capacity / banks, eu, buffers, rows, inPlace);
  }

  /** Small instances that fit in their capacity. */
  public static List<LmemInstance> fixtures() {
    List<LmemInstance> out = new ArrayList<>();
    out.add(
        inst(
            "one-buffer",
            256,
            4,
            16,
            List.of(act("x", 0, 0, 40)),
            List.of(row(List.of(), 0)),
            List.of()));
    out.add(
        inst(
            "exactly-full",
            256,
            4,
            16,
            List.of(act("x", 0, 1, 256)),
            List.of(row(List.of(), 0), row(List.of(op("relu", List.of(0), List.of(0))))),
            List.of()));
    // load x; conv(x, w) -> y while loading v; add(y, v) -> z; store z
    out.add(
        inst(
            "chain",
            512,
            4,
            16,
            List.of(
                act("x", 0, 1, 100),
                new LmemBuffer("w", Kind.WEIGHT, 0, 1, 30, false),
                act("y", 1, 2, 128),
                act("v", 1, 2, 64),
                act("z", 2, 3, 128)),
            List.of(
                row(List.of(), 0, 1),
                row(List.of(op("conv", List.of(0, 1), List.of(2))), 3),
                row(List.of(op("add", List.of(2, 3), List.of(4)))),
                row(List.of(), 4)),
            List.of(new InPlace(2, 4))));
    // a held weight, the input and output wrapping around the loop boundary
    out.add(
        inst(
            "pipelined",
            1024,
            8,
            32,
            List.of(
                act("in", 2, 0, 200),
                new LmemBuffer("w", Kind.WEIGHT, 0, 0, 300, true),
                act("mid", 0, 1, 100),
                act("out", 1, 0, 200),
                new LmemBuffer("imm", Kind.SCRATCH, 1, 1, 64, false)),
            List.of(
                row(List.of(op("conv", List.of(0, 1), List.of(2))), 3),
                row(List.of(new Timestep.TiuOp("pool", List.of(2), List.of(3), List.of(4)))),
                row(List.of(op("relu", List.of(3), List.of(3))), 0)),
            List.of()));
    return out;
  }

  @TestFactory
  public Stream<DynamicTest> fixturesArePlaced() {
    return fixtures().stream()
        .map(
            f ->
                DynamicTest.dynamicTest(
                    f.name(), () -> assertSolved(f, run(f, Budget.unlimited()))));
  }

  @TestFactory
  public Stream<DynamicTest> overCapacity() {
    List<LmemInstance> tight = new ArrayList<>();
    for (LmemInstance f : fixtures()) {
      long need = LmemLowerBounds.maxLive(f);
      long bank = Math.max(1, (need - 1) / f.banks()); // capacity banks × bank < need
      tight.add(
          new LmemInstance(
              f.name() + "-over",
              f.banks() * bank,
              f.banks(),
              bank,
              1,
              f.buffers(),
              f.timesteps(),
              f.inPlace()));
    }
    return tight.stream()
        .map(
            f ->
                DynamicTest.dynamicTest(
                    f.name(),
                    () -> {
                      Outcome<LmemSolution> out = run(f, Budget.unlimited());
                      assertThat(out.status().hasSolution())
                          .as("a solution of '%s', whose live bytes exceed the capacity", f.name())
                          .isFalse();
                      assertSolvedOrFailedProperly(f, out);
                    }));
  }

  /** The seeded random instances: roomy ones (must be solved) then tight ones. */
  public static List<LmemInstance> randomInstances(long seed, int count, double fill) {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
    List<LmemInstance> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      boolean sliced = (i & 1) != 0;
      boolean pipelined = (i & 2) != 0;
      int ops = 2 + rnd.nextInt(14);
      out.add(
          LmemGenerator.generate(
              "random-" + fill + "-" + i,
              rnd.nextLong(),
              ops,
              LmemGenerator.SMALL,
              sliced,
              pipelined,
              fill));
    }
    return out;
  }

  @TestFactory
  public Stream<DynamicTest> seededRandomInstances() {
    Stream<DynamicTest> roomy =
        randomInstances(RANDOM_SEED, RANDOM_INSTANCES, 0.5).stream()
            .map(
                i ->
                    DynamicTest.dynamicTest(
                        i.name(), () -> assertSolved(i, run(i, Budget.unlimited()))));
    Stream<DynamicTest> tight =
        randomInstances(RANDOM_SEED + 1, RANDOM_INSTANCES / 4, 0.9).stream()
            .map(
                i ->
                    DynamicTest.dynamicTest(
                        i.name(),
                        () -> assertSolvedOrFailedProperly(i, run(i, Budget.unlimited()))));
    return Stream.concat(roomy, tight);
  }

  @Test
  public void sameSeedSameSolution() {
    List<LmemInstance> instances = new ArrayList<>(fixtures());
    instances.addAll(randomInstances(RANDOM_SEED + 2, 20, 0.7));
    List<Outcome<LmemSolution>> first = new ArrayList<>();
    for (LmemInstance i : instances) {
      first.add(run(i, Budget.unlimited()));
    }
    for (int k = instances.size() - 1; k >= 0; k--) {
      LmemInstance i = instances.get(k);
      Outcome<LmemSolution> again = run(i, Budget.unlimited());
      assertThat(again.status()).as("status on '%s'", i.name()).isEqualTo(first.get(k).status());
      assertThat(again.solution())
          .as("solution on '%s'", i.name())
          .isEqualTo(first.get(k).solution());
      assertThat(again.lowerBound())
          .as("bound on '%s'", i.name())
          .isEqualTo(first.get(k).lowerBound());
    }
  }

  private void checkExhausted(Supplier<Budget> budget) {
    List<LmemInstance> instances = new ArrayList<>(fixtures());
    instances.addAll(randomInstances(RANDOM_SEED + 3, 4, 0.5));
    ExhaustedBudgets.check(
        instances,
        budget,
        (i, ctx) -> planner().solve(i, ctx),
        ExhaustedBudgets.solvedOrNoSolution(
            LmemPlannerContract::assertSolved, i -> "'" + i.name() + "'"),
        RUN_SEED);
  }

  /** A cancelled budget and a zero deadline, each over the fixtures and a few random instances. */
  @TestFactory
  public Stream<DynamicTest> exhaustedBudgets() {
    return ExhaustedBudgets.dynamicTests(this::checkExhausted);
  }
}
