package io.github.memplan.solvers.dsa.cpsat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaFixtures;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.Gap;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.dsa.Occupancy;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code cpsat} against brute force, NoOverlap2D on one deterministic worker and pairwise on two
 * workers, on seeded random instances of up to 6 buffers with alignments, fixed offsets and gaps
 * (empty and windowed): the same least peak, proven; that peak as the capacity is solved, one byte
 * less is proven {@code INFEASIBLE}. Gapless instances use core's oracle ({@link
 * DsaFixtures#bruteForcePeak}); those with gaps the exhaustive search below, which checks every
 * piece pair as the validator does.
 */
class CpSatPlannerBruteForceTest {
  static final int INSTANCES = 150;
  static final long SEED = 0xC95A7L;

  static final List<CpSatPlanner> PLANNERS =
      List.of(
          new CpSatPlanner(CpSatPlanner.Options.defaults().withDeterministicTime(20)),
          new CpSatPlanner(
              CpSatPlanner.Options.defaults().withFormulation(CpSatPlanner.Formulation.PAIRWISE)));

  @BeforeAll
  static void natives() {
    assumeTrue(CpSatPlanner.available(), "OR-Tools has no native library for this platform");
  }

  /**
   * Instance {@code i}: 1 to 6 buffers with lifetimes inside [0, 8), sizes 1 to 8 (now and then 0),
   * alignments 1 (most), 2 or 4, one instance in six with a fixed aligned offset, and one buffer in
   * three of length 3 or more with a gap inside: empty, or a window of its bytes.
   */
  static DsaInstance instance(SplittableRandom r, int i) {
    int n = 1 + r.nextInt(6);
    boolean fixedOne = r.nextInt(6) == 0;
    List<Buffer> bs = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      int lower = r.nextInt(7);
      int upper = lower + 1 + r.nextInt(8 - lower);
      long size = r.nextInt(12) == 0 ? 0 : 1 + r.nextInt(8);
      long alignment = r.nextInt(10) < 7 ? 1 : new long[] {2, 4}[r.nextInt(2)];
      List<Gap> gaps = List.of();
      if (upper - lower >= 3 && size > 0 && r.nextInt(3) == 0) {
        int gl = lower + 1 + r.nextInt(upper - lower - 2);
        int gu = gl + 1 + r.nextInt(upper - 1 - gl);
        if (r.nextBoolean()) {
          gaps = List.of(Gap.empty(gl, gu));
        } else {
          long wlo = r.nextInt((int) size);
          long whi = wlo + 1 + r.nextInt((int) (size - wlo));
          gaps = List.of(new Gap(gl, gu, wlo, whi));
        }
      }
      Buffer b = new Buffer("b" + k, lower, upper, size, alignment, gaps, OptionalLong.empty());
      if (fixedOne && k == 0) {
        b = b.withFixedOffset(alignment * r.nextInt((int) (12 / alignment)));
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
    return instances().stream()
        .map(
            inst ->
                DynamicTest.dynamicTest(
                    inst.name() + " (" + inst.size() + " buffers)", () -> check(inst)));
  }

  private static void check(DsaInstance inst) {
    boolean gaps = inst.buffers().stream().anyMatch(b -> !b.gaps().isEmpty());
    long optimum = gaps ? Exhaustive.optimum(inst) : DsaFixtures.bruteForcePeak(inst);
    for (CpSatPlanner planner : PLANNERS) {
      String model = planner.options().formulation().id();
      Outcome<DsaSolution> out = planner.solve(inst, SolveContext.unlimited());
      assertThat(out.status())
          .as("%s with %s: %s", inst.name(), model, out.message())
          .isEqualTo(Status.OPTIMAL);
      assertThat(DsaPlannerContract.assertSolved(inst, out))
          .as("peak on %s with %s vs brute force", inst.name(), model)
          .isEqualTo(optimum);

      DsaInstance tight = inst.withCapacity(Math.max(1, optimum));
      Outcome<DsaSolution> fits = planner.solve(tight, SolveContext.unlimited());
      assertThat(DsaPlannerContract.assertSolved(tight, fits)).isEqualTo(optimum);

      if (optimum > 1) {
        DsaInstance below = inst.withCapacity(optimum - 1);
        assertThat(planner.solve(below, SolveContext.unlimited()).status())
            .as("%s with %s below its optimum %d", inst.name(), model, optimum)
            .isEqualTo(Status.INFEASIBLE);
      }
    }
  }

  /** The least peak by exhaustive search over aligned offsets, for tiny instances with gaps. */
  static final class Exhaustive {
    private final DsaInstance inst;
    private final List<List<Occupancy.Piece>> pieces = new ArrayList<>();
    private final long[] offs;

    private Exhaustive(DsaInstance inst) {
      this.inst = inst;
      for (int i = 0; i < inst.size(); i++) {
        pieces.add(Occupancy.pieces(i, inst.buffer(i)));
      }
      offs = new long[inst.size()];
    }

    static long optimum(DsaInstance inst) {
      Exhaustive e = new Exhaustive(inst);
      for (long peak = LowerBounds.maxLoad(inst); ; peak++) {
        if (e.fits(0, peak)) {
          return peak;
        }
      }
    }

    private boolean fits(int i, long peak) {
      if (i == inst.size()) {
        return true;
      }
      Buffer b = inst.buffer(i);
      long from = b.fixedOffset().orElse(0);
      long to = b.fixedOffset().isPresent() ? from : peak - b.size();
      for (long o = from; o <= to; o += b.alignment()) {
        if (o + b.size() > peak) {
          return false;
        }
        offs[i] = o;
        if (clear(i) && fits(i + 1, peak)) {
          return true;
        }
      }
      return false;
    }

    /** Whether buffer {@code i} at {@code offs[i]} overlaps none of the buffers before it. */
    private boolean clear(int i) {
      for (Occupancy.Piece p : pieces.get(i)) {
        for (int j = 0; j < i; j++) {
          for (Occupancy.Piece q : pieces.get(j)) {
            if (p.lower() < q.upper()
                && q.lower() < p.upper()
                && offs[i] + p.from() < offs[j] + q.to()
                && offs[j] + q.from() < offs[i] + p.to()) {
              return false;
            }
          }
        }
      }
      return true;
    }
  }
}
