package io.github.memplan.solvers.dsa.bnb;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaFixtures;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code exact} against the brute-force oracle of core's test-jar ({@link
 * DsaFixtures#bruteForcePeak}) on seeded random instances of up to 8 buffers: the same least peak,
 * proven ({@code OPTIMAL}); that peak as a capacity is feasible, one byte less is proven {@code
 * INFEASIBLE}.
 */
class ExactPlannerBruteForceTest {
  static final int INSTANCES = 300;
  static final long SEED = 0x5EED_E8AC7L;

  /**
   * Instance {@code i}: 1 to 8 buffers with lifetimes inside [0, 10) (short and long alike; one in
   * four copies an earlier buffer's lifetime), sizes 1 to 16 with now and then a size 0, alignments
   * 1 (most), 2, 4 or 8, and in one instance of six a buffer with a fixed aligned offset below 24.
   * Small sizes and short horizons make ties, fragmentation and optima above the max load frequent.
   */
  static DsaInstance instance(SplittableRandom r, int i) {
    int n = 1 + r.nextInt(8);
    boolean fixedOne = r.nextInt(6) == 0;
    List<Buffer> bs = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      int lower = r.nextInt(9);
      int upper = lower + 1 + r.nextInt(10 - lower);
      if (k > 0 && r.nextInt(4) == 0) {
        // a twin's lifetime: stacks of same-lifetime buffers are pruned by their own rule
        Buffer earlier = bs.get(r.nextInt(k));
        lower = earlier.lower();
        upper = earlier.upper();
      }
      long size = r.nextInt(12) == 0 ? 0 : 1 + r.nextInt(16);
      long alignment = r.nextInt(10) < 7 ? 1 : new long[] {2, 4, 8}[r.nextInt(3)];
      Buffer b = Buffer.of("b" + k, lower, upper, size).withAlignment(alignment);
      if (fixedOne && k == 0) {
        b = b.withFixedOffset(alignment * r.nextInt((int) (24 / alignment)));
      }
      bs.add(b);
    }
    return DsaInstance.of("bf-" + i, bs);
  }

  static List<DsaInstance> instances() {
    SplittableRandom master = new SplittableRandom(SEED);
    return IntStream.range(0, INSTANCES).mapToObj(i -> instance(master.split(), i)).toList();
  }

  @TestFactory
  Stream<DynamicTest> agreesWithBruteForce() {
    ExactPlanner planner = new ExactPlanner();
    return instances().stream()
        .map(
            inst ->
                DynamicTest.dynamicTest(
                    inst.name() + " (" + inst.size() + " buffers)",
                    () -> {
                      long optimum = DsaFixtures.bruteForcePeak(inst);
                      Outcome<DsaSolution> out = planner.solve(inst, SolveContext.unlimited());
                      assertThat(out.status())
                          .as("status on %s", inst.name())
                          .isEqualTo(Status.OPTIMAL);
                      assertThat(DsaPlannerContract.assertSolved(inst, out))
                          .as("peak on %s vs brute force", inst.name())
                          .isEqualTo(optimum);

                      DsaInstance tight = inst.withCapacity(Math.max(1, optimum));
                      Outcome<DsaSolution> fits = planner.solve(tight, SolveContext.unlimited());
                      assertThat(DsaPlannerContract.assertSolved(tight, fits)).isEqualTo(optimum);

                      if (optimum > 1) {
                        DsaInstance below = inst.withCapacity(optimum - 1);
                        Outcome<DsaSolution> none = planner.solve(below, SolveContext.unlimited());
                        assertThat(none.status())
                            .as("%s below its optimum %d", inst.name(), optimum)
                            .isEqualTo(Status.INFEASIBLE);
                        ExactPlanner decide =
                            new ExactPlanner(
                                ExactPlanner.Options.defaults().withMode(ExactPlanner.Mode.DECIDE));
                        assertThat(decide.solve(below, SolveContext.unlimited()).status())
                            .isEqualTo(Status.INFEASIBLE);
                        assertThat(decide.solve(tight, SolveContext.unlimited()).status())
                            .isIn(Status.FEASIBLE, Status.OPTIMAL);
                      }
                    }));
  }
}
