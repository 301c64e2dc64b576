package io.github.memplan.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.baseline.tflite.GpuStrategy;
import io.github.memplan.baseline.tflite.TfliteSharedObjectsPlanner;
import io.github.memplan.baseline.vela.VelaHillClimbPlanner;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every baseline planner of the GMEM issue is registered under its documented id and creates with
 * defaults.
 */
class BaselineProvidersTest {

  private static final List<String> IDS =
      List.of(
          "glow-linear",
          "naive",
          "openvino",
          "ort-exact-size",
          "tflite-arena",
          "tflite-equality-shared",
          "tflite-greedy-best-shared",
          "tflite-greedy-by-breadth-shared",
          "tflite-greedy-by-size",
          "tflite-greedy-by-size-shared",
          "tflite-greedy-in-order-shared",
          "tflite-mincostflow-shared",
          "tflite-naive-shared",
          "tflm",
          "tpumlir",
          "tpumlir-doc",
          "tpumlir-fitfirst",
          "tpumlir-opsize",
          "tvm-greedy-by-conflicts",
          "tvm-greedy-by-size",
          "tvm-hill-climb",
          "tvm-storage-rewrite",
          "vela-hill-climb",
          "xla",
          "xla-spatial",
          "xla-temporal");

  @Test
  void everyIdIsRegisteredOnce() {
    List<String> ids =
        Planners.forInstance(DsaInstance.class).stream().map(PlannerProvider::id).toList();
    assertThat(ids).containsAll(IDS).doesNotHaveDuplicates();
  }

  @Test
  void everyProviderDescribesAndCreates() {
    for (String id : IDS) {
      PlannerProvider<DsaInstance, DsaSolution> p = Planners.get(id, DsaInstance.class);
      assertThat(p.id()).matches("[a-z0-9]+(-[a-z0-9]+)*");
      assertThat(p.description()).as(id).isNotBlank();
      assertThat(p.citation()).as(id).isNotBlank();
      assertThat(p.create(Map.of())).as(id).isNotNull();
    }
  }

  /** Each shared-object provider runs the strategy its id names. */
  @Test
  void sharedObjectIdsMatchTheirStrategies() {
    for (GpuStrategy s : GpuStrategy.values()) {
      PlannerProvider<DsaInstance, DsaSolution> p = Planners.get(s.plannerId(), DsaInstance.class);
      Object planner = p.create(Map.of());
      assertThat(planner).isInstanceOf(TfliteSharedObjectsPlanner.class);
      assertThat(((TfliteSharedObjectsPlanner) planner).strategy()).isEqualTo(s);
    }
    assertThat(Arrays.stream(GpuStrategy.values()).map(GpuStrategy::plannerId))
        .allMatch(id -> id.startsWith("tflite-") && id.endsWith("-shared"));
  }

  @Test
  void velaTakesItsIterationParameters() {
    PlannerProvider<DsaInstance, DsaSolution> p =
        Planners.get("vela-hill-climb", DsaInstance.class);
    assertThat(p.parameters())
        .extracting(pr -> pr.name() + "=" + pr.defaultValue())
        .containsExactly(
            "max-iterations=99999", "max-iterations-stuck=50", "min-iterations-improve=500");
    assertThat(p.create(Map.of("max-iterations", "10"))).isInstanceOf(VelaHillClimbPlanner.class);
    assertThatThrownBy(() -> p.create(Map.of("iterations", "10")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown parameter 'iterations'");
  }
}
