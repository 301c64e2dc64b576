package io.github.memplan.core.dsa;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.solve.ContractRuns;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * Shows that {@link DsaPlannerContract} fails broken planners: each nested contract below runs the
 * whole inherited suite on a deliberately wrong planner through the JUnit engine test kit, and the
 * failures are asserted here. The nested classes are {@link Disabled} so that no build runs them
 * directly (their failures are the point); the test kit lifts that condition.
 */
class DsaPlannerContractSelfTest {

  /** Every buffer at offset 0: overlaps as soon as two buffers coexist. */
  @Disabled("run only through DsaPlannerContractSelfTest: it must fail")
  static class AllAtZeroContract extends DsaPlannerContract {
    @Override
    protected Planner<DsaInstance, DsaSolution> planner() {
      return (inst, ctx) ->
          Outcome.feasible(new DsaSolution(new long[inst.size()]), OptionalLong.empty());
    }
  }

  /** A valid stacking that claims to be optimal with a bound it never proved. */
  @Disabled("run only through DsaPlannerContractSelfTest: it must fail")
  static class OverclaimingContract extends DsaPlannerContract {
    @Override
    protected Planner<DsaInstance, DsaSolution> planner() {
      NaiveStackPlanner naive = new NaiveStackPlanner();
      return (inst, ctx) -> {
        Outcome<DsaSolution> out = naive.solve(inst, ctx);
        return out.status().hasSolution()
            ? Outcome.optimal(out.solution(), inst.peak(out.solution()))
            : out;
      };
    }
  }

  /** Valid, but its offsets depend on how many runs came before: not reproducible. */
  @Disabled("run only through DsaPlannerContractSelfTest: it must fail")
  static class StatefulContract extends DsaPlannerContract {
    private final AtomicLong runs = new AtomicLong();

    @Override
    protected Planner<DsaInstance, DsaSolution> planner() {
      NaiveStackPlanner naive = new NaiveStackPlanner();
      return (inst, ctx) -> {
        Outcome<DsaSolution> out = naive.solve(inst, ctx);
        if (!out.status().hasSolution()) {
          return out;
        }
        long shift = 64 * (runs.incrementAndGet() % 2); // keeps every alignment used here
        if (inst.peak(out.solution()) > inst.capacity() - shift) {
          return out;
        }
        long[] offsets = out.solution().offsets();
        for (int i = 0; i < offsets.length; i++) {
          if (inst.buffer(i).fixedOffset().isEmpty()) {
            offsets[i] += shift;
          }
        }
        return Outcome.feasible(new DsaSolution(offsets), out.lowerBound());
      };
    }
  }

  /** Throws when the budget is exhausted instead of returning. */
  @Disabled("run only through DsaPlannerContractSelfTest: it must fail")
  static class ThrowingOnBudgetContract extends DsaPlannerContract {
    @Override
    protected Planner<DsaInstance, DsaSolution> planner() {
      NaiveStackPlanner naive = new NaiveStackPlanner();
      return (inst, ctx) -> {
        if (ctx.budget().exhausted()) {
          throw new IllegalStateException("out of time");
        }
        return naive.solve(inst, ctx);
      };
    }
  }

  private static EngineExecutionResults runContract(Class<?> contract) {
    return ContractRuns.run(contract);
  }

  private static Map<String, String> failures(EngineExecutionResults results) {
    return ContractRuns.failures(results);
  }

  @Test
  void theValidatorCatchesAPlannerThatPutsEverythingAtOffsetZero() {
    EngineExecutionResults results = runContract(AllAtZeroContract.class);
    Map<String, String> failed = failures(results);
    // the fixtures where buffers coexist fail on overlap; the others pass
    assertThat(failed).containsKeys("fragmentation", "all-overlapping", "staircase");
    assertThat(failed.get("fragmentation")).contains("invalid solution").contains("overlap");
    assertThat(failed).doesNotContainKeys("empty", "one-buffer", "disjoint-lifetimes");
    // nearly every random instance has coexisting buffers
    long randomFailures = failed.keySet().stream().filter(k -> k.startsWith("random-")).count();
    assertThat(randomFailures).isGreaterThan(DsaPlannerContract.RANDOM_INSTANCES * 3L / 4);
    // its invalid solutions are caught under an exhausted budget too
    assertThat(failed.get("cancelledBudget()")).contains("overlap");
    // but it is deterministic, so that test passes
    assertThat(failed).doesNotContainKey("sameSeedSameSolution()");
    assertThat(results.testEvents().succeeded().count()).isPositive();
  }

  @Test
  void aFalseOptimalityClaimIsCaught() {
    Map<String, String> failed = failures(runContract(OverclaimingContract.class));
    // its claimed bound (its own peak, 11) exceeds the proven optimum, 5
    assertThat(failed).containsKey("fragmentation");
    assertThat(failed.get("fragmentation")).contains("lower bound on 'fragmentation'");
    // where stacking happens to be optimal, the claim is true and passes
    assertThat(failed).doesNotContainKeys("one-buffer", "all-overlapping");
  }

  @Test
  void aNonReproduciblePlannerIsCaught() {
    Map<String, String> failed = failures(runContract(StatefulContract.class));
    assertThat(failed).containsKey("sameSeedSameSolution()");
    assertThat(failed.keySet()).allMatch(k -> k.equals("sameSeedSameSolution()"));
  }

  @Test
  void aPlannerThatThrowsOnAnExhaustedBudgetIsCaught() {
    Map<String, String> failed = failures(runContract(ThrowingOnBudgetContract.class));
    assertThat(failed.keySet())
        .containsExactlyInAnyOrderElementsOf(List.of("cancelledBudget()", "zeroDurationBudget()"));
    assertThat(failed.get("cancelledBudget()")).contains("threw").contains("out of time");
  }

  @Test
  void theReferencePlannersPassTheWholeContract() {
    for (Class<?> c : List.of(NaiveStackContractTest.class, BruteForceContractTest.class)) {
      EngineExecutionResults results = runContract(c);
      assertThat(failures(results)).as(c.getSimpleName()).isEmpty();
      assertThat(results.testEvents().succeeded().count())
          .as(c.getSimpleName())
          .isGreaterThan(DsaPlannerContract.RANDOM_INSTANCES);
    }
  }
}
