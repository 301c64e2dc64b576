package io.github.memplan.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.baseline.tvm.HillClimbPlanner;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The TVM, XLA, OpenVINO and ORT providers are registered, described, cited and configurable. */
class TvmXlaOrtProvidersTest {
  private static final List<String> IDS =
      List.of(
          "tvm-storage-rewrite",
          "tvm-greedy-by-size",
          "tvm-greedy-by-conflicts",
          "tvm-hill-climb",
          "xla-spatial",
          "xla-temporal",
          "xla",
          "openvino",
          "ort-exact-size");

  @Test
  void everyPlannerIsRegisteredWithADescriptionAndCitation() {
    for (String id : IDS) {
      PlannerProvider<DsaInstance, DsaSolution> p = Planners.get(id, DsaInstance.class);
      assertThat(p.id()).matches("[a-z0-9]+(-[a-z0-9]+)*");
      assertThat(p.description()).isNotBlank();
      assertThat(p.citation()).isNotBlank();
      assertThat(p.create(Map.of())).isNotNull();
    }
  }

  @Test
  void unknownParametersFail() {
    assertThatThrownBy(() -> Planners.get("xla", DsaInstance.class).create(Map.of("x", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'x'");
    assertThatThrownBy(
            () ->
                Planners.get("tvm-hill-climb", DsaInstance.class).create(Map.of("rng", "mersenne")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rng");
  }

  /**
   * The hill climb's parameters reach the planner: with one attempt it returns its first decode,
   * with memory-pressure 0 it never stops early (two coexisting 4-byte buffers: peak 8 either way,
   * decoded once, then up to max-attempts times).
   */
  @Test
  void hillClimbParametersApply() {
    DsaInstance instance =
        DsaInstance.of("two", List.of(Buffer.of("a", 0, 2, 4), Buffer.of("b", 0, 2, 4)));
    PlannerProvider<DsaInstance, DsaSolution> p = Planners.get("tvm-hill-climb", DsaInstance.class);
    Planner<DsaInstance, DsaSolution> three =
        p.create(Map.of("max-attempts", "3", "memory-pressure", "0", "rng", "rand_r"));
    assertThat(three.solve(instance, SolveContext.unlimited()).stats())
        .containsEntry("decodes", 3.0);
    assertThat(p.create(Map.of()).solve(instance, SolveContext.unlimited()).stats())
        .containsEntry("decodes", 1.0);
    assertThat(p.parameters()).extracting(x -> x.name()).contains("max-attempts");
    assertThat(HillClimbPlanner.MAX_ATTEMPTS).isEqualTo(500);
  }
}
