package io.github.memplan.experiments.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.gmem.GmemBuilder;
import io.github.memplan.core.gmem.GmemOptions;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.datasets.fetched.FetchedModels;
import io.github.memplan.solvers.dsa.cpsat.CpSatPlanner;
import io.github.memplan.solvers.dsa.cpsat.CpSatPlannerProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every registered DSA planner on the GMEM problem of every zoo model (after the front end, as
 * {@code memplan gmem} builds it), on a BM168x chip (4 KiB alignment) and a CV18xx chip (16 B):
 * each plan passes the validator and no peak is below the max-load bound. Planners that cannot
 * finish within the budget may say so; none may be wrong. Only {@code cpsat} may answer {@code
 * ERROR}, and only where OR-Tools has no native library. Models fetched from npm (present only
 * where scripts/fetch-models.sh ran) are left to {@link FetchedGmemIT}, on one chip.
 */
class ZooGmemIT {
  private static final List<String> CHIPS = List.of("bm1684x", "cv183x");

  /**
   * The budget per run: local search runs until its budget unless it meets the lower bound, so it
   * gets 2 s (this test checks validity, not quality); the others stop on their own well before 20
   * s.
   */
  private static Duration limit(String planner) {
    return planner.equals("timefold") ? Duration.ofSeconds(2) : Duration.ofSeconds(20);
  }

  /**
   * Runs every planner of {@code planners} on {@code instance}: each plan passes the validator and
   * is at or above the max-load bound; a planner without a plan says it ran out of budget (cpsat
   * may answer ERROR where OR-Tools has no native library).
   */
  static void everyPlannerAboveTheBound(
      String label,
      DsaInstance instance,
      List<PlannerProvider<DsaInstance, DsaSolution>> planners) {
    long lb = LowerBounds.maxLoad(instance);
    assertThat(lb).as(label).isPositive();
    for (PlannerProvider<DsaInstance, DsaSolution> p : planners) {
      Outcome<DsaSolution> out =
          p.create(Map.of()).solve(instance, SolveContext.of(1, Budget.of(limit(p.id()))));
      if (out.status() == Status.ERROR
          && p.id().equals(CpSatPlannerProvider.ID)
          && !CpSatPlanner.available()) {
        continue; // no OR-Tools native library for this platform
      }
      if (out.status().hasSolution()) {
        long peak = DsaPlannerContract.assertSolved(instance, out);
        assertThat(peak).as("%s with %s", label, p.id()).isGreaterThanOrEqualTo(lb);
      } else {
        assertThat(out.status())
            .as("%s with %s: %s", label, p.id(), out.message())
            .isIn(Status.NO_SOLUTION_IN_BUDGET, Status.FAILED_TO_PLACE);
      }
    }
  }

  @TestFactory
  Stream<DynamicTest> everyPlannerOnEveryModel() {
    List<PlannerProvider<DsaInstance, DsaSolution>> planners =
        Planners.forInstance(DsaInstance.class);
    assertThat(planners).isNotEmpty();
    List<DynamicTest> tests = new ArrayList<>();
    for (ModelProvider m : Models.all()) {
      if (FetchedModels.isFetched(m)) {
        continue;
      }
      tests.add(
          DynamicTest.dynamicTest(
              m.name(),
              () -> {
                Graph built = m.build();
                for (String chipName : CHIPS) {
                  Chip chip = Chips.get(chipName);
                  Graph g = FrontEnd.apply(built, chip);
                  DsaInstance instance =
                      GmemBuilder.build(g, chip, GmemOptions.defaults()).activations();
                  everyPlannerAboveTheBound(m.name() + " on " + chipName, instance, planners);
                }
              }));
    }
    return tests.stream();
  }
}
