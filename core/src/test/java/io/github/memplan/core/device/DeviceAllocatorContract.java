package io.github.memplan.core.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.ExhaustedBudgets;
import io.github.memplan.core.solve.Metric;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Violation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The contract every device allocator's test extends (shipped in {@code core}'s test-jar):
 *
 * <ul>
 *   <li>{@link #runsAreValidAndTheirMetricsConsistent}: on {@link #problems()} (the four
 *       adversarial traces of {@link DeviceTraceGenerators} and two serving mixes, on 64 MiB and
 *       256 MiB) the allocator returns a run that passes {@link DeviceRunValidator}, with one usage
 *       sample per event, whose {@link DeviceMetrics} agree with what its records say: peak live
 *       bytes recomputed from the buffer records, every inference started counted once as served,
 *       failed or skipped, failures with free space among the failures, held bytes at least live
 *       bytes, the smallest largest free block the samples' minimum and within the shared region;
 *   <li>{@link #sameProblemSameRun}: the same problem gives the same run, whatever ran before;
 *   <li>{@link #exhaustedBudgets}: a cancelled budget and a zero deadline give a valid run or
 *       {@code NO_SOLUTION_IN_BUDGET}, never an exception;
 *   <li>{@link #unknownParametersFail}.
 * </ul>
 */
public abstract class DeviceAllocatorContract {
  private static final DeviceRunValidator VALIDATOR = new DeviceRunValidator();
  private static final long MIB = 1 << 20;

  /** The provider under test. */
  protected abstract PlannerProvider<DeviceProblem, DeviceRun> provider();

  /** The registered device allocator {@code id}. */
  public static PlannerProvider<DeviceProblem, DeviceRun> registered(String id) {
    return Planners.get(id, DeviceProblem.class);
  }

  private Outcome<DeviceRun> run(DeviceProblem p, Budget budget) {
    return provider().create(Map.of()).solve(p, SolveContext.of(0, budget));
  }

  /** Five small networks, from 0.5 MB to 18 MB. */
  public static final List<Network> CATALOGUE =
      List.of(
          new Network("a", 300_000, 3 * MIB, List.of(150_528L), List.of(4000L), List.of(), 2 * MIB),
          new Network("b", 500_000, 9 * MIB, List.of(600_000L), List.of(1000L), List.of(), 5 * MIB),
          new Network("c", 100_000, MIB, List.of(64L), List.of(64L), List.of(8192L), 700_000),
          new Network("d", 800_000, 14 * MIB, List.of(MIB), List.of(MIB), List.of(), 3 * MIB),
          new Network("e", 200_000, 500_000, List.of(4096L), List.of(), List.of(), 100_000));

  /** The adversarial traces and two serving mixes on 64 MiB, and the serving mix on 256 MiB. */
  public static List<DeviceProblem> problems() {
    List<DeviceProblem> out = new ArrayList<>();
    DeviceLayout small = DeviceLayout.of(64 * MIB);
    out.add(new DeviceProblem(DeviceTraceGenerators.fragment(small), small));
    out.add(new DeviceProblem(DeviceTraceGenerators.poolHoard(small, 4), small));
    out.add(new DeviceProblem(DeviceTraceGenerators.pinFront(small), small));
    out.add(new DeviceProblem(DeviceTraceGenerators.buddyRound(small), small));
    for (long seed = 1; seed <= 2; seed++) {
      out.add(
          new DeviceProblem(
              DeviceTraceGenerators.serving(
                  CATALOGUE, seed, new DeviceTraceGenerators.Serving(3, 3, 120, 20)),
              small));
    }
    DeviceLayout large = DeviceLayout.of(256 * MIB, 16 * MIB, MIB);
    out.add(
        new DeviceProblem(
            DeviceTraceGenerators.serving(
                CATALOGUE, 3, new DeviceTraceGenerators.Serving(5, 4, 200, 30)),
            large));
    return out;
  }

  private static String name(DeviceProblem p) {
    return p.trace().name() + "@" + p.layout().dram();
  }

  /** Asserts a valid run whose metrics agree with its records. */
  public static void assertRun(DeviceProblem p, Outcome<DeviceRun> outcome) {
    if (!outcome.status().hasSolution()) {
      fail("no run of %s: %s %s", name(p), outcome.status(), outcome.message());
    }
    DeviceRun run = outcome.solution();
    List<Violation> v = VALIDATOR.validate(p, run);
    if (!v.isEmpty()) {
      fail("invalid run of %s (%d violations): %s", name(p), v.size(), v);
    }
    List<DeviceEvent> events = p.trace().events();
    assertThat(run.samples()).as("samples of %s", name(p)).hasSize(events.size());
    Map<String, Double> m = new LinkedHashMap<>();
    for (Metric<DeviceProblem, DeviceRun> metric : new DeviceMetrics().metrics()) {
      m.put(metric.id(), metric.value(p, outcome).orElseThrow());
    }
    long peak = 0;
    for (int t = -1; t < events.size(); t++) {
      long live = 0;
      for (BufferRecord r : run.buffers()) {
        if (r.common().liveAfter(t)) {
          live += r.common().size();
        }
      }
      peak = Math.max(peak, live);
    }
    assertThat(m.get("peak-live-bytes")).as("peak live bytes of %s", name(p)).isEqualTo(peak);
    assertThat(m.get("peak-held-bytes"))
        .as("peak held bytes of %s", name(p))
        .isGreaterThanOrEqualTo(peak);
    long starts = events.stream().filter(e -> e.op() == DeviceEvent.Op.START).count();
    long loads = events.stream().filter(e -> e.op() == DeviceEvent.Op.LOAD).count();
    assertThat(m.get("inferences-served") + run.inferencesFailed() + run.inferencesSkipped())
        .as("inferences of %s served, failed or skipped", name(p))
        .isEqualTo(starts);
    assertThat(m.get("loads-failed")).as("loads failed of %s", name(p)).isBetween(0.0, loads * 1.0);
    assertThat(m.get("networks-served"))
        .as("networks served of %s", name(p))
        .isBetween(0.0, p.trace().networks().size() * 1.0);
    assertThat(m.get("failures")).as("failures of %s", name(p)).isEqualTo(run.failures().size());
    assertThat(m.get("failures-with-free-space"))
        .as("failures with free space of %s", name(p))
        .isBetween(0.0, m.get("failures"));
    long minFree =
        run.samples().stream().mapToLong(DeviceRun.Sample::largestFreeBlock).min().orElse(0);
    assertThat(m.get("min-largest-free-block-bytes"))
        .as("smallest largest free block of %s", name(p))
        .isEqualTo(minFree)
        .isLessThanOrEqualTo(p.layout().shared().size());
  }

  @TestFactory
  public Stream<DynamicTest> runsAreValidAndTheirMetricsConsistent() {
    return problems().stream()
        .map(p -> DynamicTest.dynamicTest(name(p), () -> assertRun(p, run(p, Budget.unlimited()))));
  }

  @Test
  public void sameProblemSameRun() {
    List<DeviceProblem> problems = problems();
    List<Outcome<DeviceRun>> first = new ArrayList<>();
    for (DeviceProblem p : problems) {
      first.add(run(p, Budget.unlimited()));
    }
    for (int k = problems.size() - 1; k >= 0; k--) {
      DeviceProblem p = problems.get(k);
      Outcome<DeviceRun> again = run(p, Budget.unlimited());
      assertThat(again.status()).as("status on %s", name(p)).isEqualTo(first.get(k).status());
      assertThat(again.solution()).as("run of %s", name(p)).isEqualTo(first.get(k).solution());
    }
  }

  private void checkExhausted(Supplier<Budget> budget) {
    ExhaustedBudgets.check(
        problems(),
        budget,
        (p, ctx) -> provider().create(Map.of()).solve(p, ctx),
        ExhaustedBudgets.solvedOrNoSolution(DeviceAllocatorContract::assertRun, p -> name(p)),
        0);
  }

  /** A cancelled budget and a zero deadline, each over {@link #problems()}. */
  @TestFactory
  public Stream<DynamicTest> exhaustedBudgets() {
    return ExhaustedBudgets.dynamicTests(this::checkExhausted);
  }

  @Test
  public void unknownParametersFail() {
    assertThatThrownBy(() -> provider().create(Map.of("no-such-parameter", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no-such-parameter");
  }
}
