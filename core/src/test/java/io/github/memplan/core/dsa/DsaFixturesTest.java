package io.github.memplan.core.dsa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Checks the test material itself: fixture optima, the brute force, the random generator. */
class DsaFixturesTest {

  @TestFactory
  Stream<DynamicTest> everyFixtureOptimumIsAttainedAndBounded() {
    return DsaFixtures.knownOptima().stream()
        .map(
            f ->
                DynamicTest.dynamicTest(
                    f.name(),
                    () -> {
                      assertThat(f.instance().name()).isEqualTo(f.name());
                      assertThat(LowerBounds.maxLoad(f.instance()))
                          .isLessThanOrEqualTo(f.optimum());
                      assertThat(f.why()).isNotBlank();
                      if (!f.hasGaps()) {
                        DsaSolution best = DsaFixtures.bruteForce(f.instance());
                        DsaPlannerContract.assertSolutionValid(f.instance(), best);
                        assertThat(f.instance().peak(best)).as(f.why()).isEqualTo(f.optimum());
                      }
                    }));
  }

  @Test
  void theGapFixtureIsAttainedByTheArguedPlacement() {
    DsaFixtures.Fixture f =
        DsaFixtures.knownOptima().stream().filter(DsaFixtures.Fixture::hasGaps).findFirst().get();
    // a at 0, b at 1 (see the fixture's reasoning); the max load proves it optimal
    DsaSolution s = new DsaSolution(new long[] {0, 1});
    DsaPlannerContract.assertSolutionValid(f.instance(), s);
    assertThat(f.instance().peak(s)).isEqualTo(f.optimum());
    assertThat(LowerBounds.maxLoad(f.instance())).isEqualTo(f.optimum());
  }

  @Test
  void theFragmentationFixtureBeatsItsMaxLoadWithTheArguedPlacement() {
    DsaFixtures.Fixture f = DsaFixtures.fragmentation();
    assertThat(LowerBounds.maxLoad(f.instance())).isEqualTo(4);
    assertThat(f.optimum()).isEqualTo(5);
    // A B X Y Z C D at 0 2 2 3 4 0 2, as in the Javadoc
    DsaSolution s = new DsaSolution(new long[] {0, 2, 2, 3, 4, 0, 2});
    DsaPlannerContract.assertSolutionValid(f.instance(), s);
    assertThat(f.instance().peak(s)).isEqualTo(5);
  }

  @Test
  void bruteForceMatchesExhaustiveOffsetEnumeration() {
    // tiny instances: every offset vector in [0, limit)^n is tried
    SplittableRandom r = new SplittableRandom(7);
    DsaValidator validator = new DsaValidator();
    int aboveMaxLoad = 0;
    for (int k = 0; k < 300; k++) {
      int n = 1 + r.nextInt(4);
      List<Buffer> bs = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int lower = r.nextInt(4);
        Buffer b = Buffer.of("b" + i, lower, lower + 1 + r.nextInt(3), r.nextInt(4));
        if (r.nextInt(3) == 0) {
          b = b.withAlignment(2 + r.nextInt(2));
        }
        if (r.nextInt(6) == 0) {
          b = b.withFixedOffset(b.alignment() * r.nextInt(3));
        }
        bs.add(b);
      }
      DsaInstance inst = DsaInstance.of("tiny-" + k, bs);
      Outcome<DsaSolution> brute = new BruteForcePlanner().solve(inst, SolveContext.unlimited());
      int limit = 16;
      long best = Long.MAX_VALUE;
      long[] offsets = new long[n];
      for (int code = 0; code < Math.pow(limit, n); code++) {
        int c = code;
        for (int i = 0; i < n; i++) {
          offsets[i] = c % limit;
          c /= limit;
        }
        DsaSolution s = new DsaSolution(offsets);
        if (inst.peak(s) < best && validator.isValid(inst, s)) {
          best = inst.peak(s);
        }
      }
      if (best == Long.MAX_VALUE) {
        assertThat(brute.status()).as(inst.buffers().toString()).isEqualTo(Status.INFEASIBLE);
      } else {
        assertThat(brute.status()).as(inst.buffers().toString()).isEqualTo(Status.OPTIMAL);
        assertThat(inst.peak(brute.solution())).as(inst.buffers().toString()).isEqualTo(best);
        assertThat(validator.isValid(inst, brute.solution())).isTrue();
        if (best > LowerBounds.maxLoad(inst)) {
          aboveMaxLoad++;
        }
      }
    }
    // alignment and fixed offsets make some optima exceed the max load
    assertThat(aboveMaxLoad).isPositive();
  }

  @Test
  void bruteForceRefusesWhatItCannotSolve() {
    DsaFixtures.Fixture gap =
        DsaFixtures.knownOptima().stream().filter(DsaFixtures.Fixture::hasGaps).findFirst().get();
    assertThatThrownBy(() -> DsaFixtures.bruteForce(gap.instance()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gaps");
    List<Buffer> many = new ArrayList<>();
    for (int i = 0; i <= DsaFixtures.BRUTE_FORCE_MAX_BUFFERS; i++) {
      many.add(Buffer.of("b" + i, 0, 1, 1));
    }
    assertThatThrownBy(() -> DsaFixtures.bruteForce(DsaInstance.of("many", many)))
        .hasMessageContaining("at most");
    DsaInstance clash =
        DsaInstance.of(
            "clash",
            List.of(
                Buffer.of("a", 0, 2, 4).withFixedOffset(0),
                Buffer.of("b", 1, 3, 4).withFixedOffset(2)));
    assertThatThrownBy(() -> DsaFixtures.bruteForce(clash)).hasMessageContaining("INFEASIBLE");
  }

  @Test
  void randomInstancesAreDeterministicAndWithinTheAdvertisedRanges() {
    List<DsaInstance> a = DsaFixtures.randomInstances(DsaFixtures.RANDOM_SEED, 200);
    List<DsaInstance> b = DsaFixtures.randomInstances(DsaFixtures.RANDOM_SEED, 200);
    assertThat(a).isEqualTo(b);
    assertThat(DsaFixtures.randomInstances(DsaFixtures.RANDOM_SEED + 1, 200)).isNotEqualTo(a);
    int aligned = 0;
    int maxSize = 0;
    for (DsaInstance inst : a) {
      assertThat(inst.size()).isBetween(1, 40);
      maxSize = Math.max(maxSize, inst.size());
      boolean anyAligned = false;
      for (Buffer buf : inst.buffers()) {
        assertThat(buf.lower()).isBetween(0, 49);
        assertThat(buf.upper()).isBetween(buf.lower() + 1, 50);
        assertThat(buf.size()).isBetween(1L, 1000L);
        assertThat(buf.alignment()).isIn(1L, 8L, 64L);
        assertThat(buf.gaps()).isEmpty();
        assertThat(buf.fixedOffset()).isEqualTo(OptionalLong.empty());
        anyAligned |= buf.alignment() > 1;
      }
      if (anyAligned) {
        aligned++;
      }
    }
    assertThat(aligned).isBetween(50, 150);
    assertThat(maxSize).isGreaterThan(35);
  }
}
