package io.github.memplan.experiments.zoo;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.gmem.GmemBuilder;
import io.github.memplan.core.gmem.GmemOptions;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.datasets.fetched.FetchedModels;
import io.github.memplan.datasets.fetched.ModelCache;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code memplan gmem --planner all} on every model fetched from npm that the zoo lists (the 26
 * .tflite and 24 .onnx files; skipped when scripts/fetch-models.sh has not run), on BM1684X after
 * the front end: every plan passes the validator and no peak is below the max-load bound.
 */
class FetchedGmemIT {
  @TestFactory
  Stream<DynamicTest> everyPlannerOnEveryFetchedModel() {
    List<ModelProvider> fetched = Models.all().stream().filter(FetchedModels::isFetched).toList();
    Assumptions.assumeFalse(
        fetched.isEmpty(),
        "no fetched model in " + ModelCache.dir() + ": run scripts/fetch-models.sh");
    List<PlannerProvider<DsaInstance, DsaSolution>> planners =
        Planners.forInstance(DsaInstance.class);
    Chip chip = Chips.get("bm1684x");
    List<DynamicTest> tests = new ArrayList<>();
    for (ModelProvider m : fetched) {
      tests.add(
          DynamicTest.dynamicTest(
              m.name(),
              () -> {
                Graph g = FrontEnd.apply(m.build(), chip);
                DsaInstance instance =
                    GmemBuilder.build(g, chip, GmemOptions.defaults()).activations();
                ZooGmemIT.everyPlannerAboveTheBound(m.name(), instance, planners);
              }));
    }
    return tests.stream();
  }
}
