package io.github.memplan.core.lmem;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.lmem.LmemBuffer.Kind;
import io.github.memplan.core.solve.Metric;
import io.github.memplan.core.solve.MetricProvider;
import io.github.memplan.core.solve.Outcome;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class LmemMetricsTest {

  private static Timestep empty() {
    return new Timestep(List.of(), List.of());
  }

  /**
   * Four rows. held (8) lives everywhere; wrap [3, 0] (16) is live in rows 3 and 0; a [0, 1] (24);
   * b [1, 2] (32) may reuse a in place; c [2, 3] (4).
   *
   * <pre>
   * row 0: held + wrap + a        = 8 + 16 + 24       = 48
   * row 1: held + a ~ b (in place) = 8 + max(24, 32)  = 40
   * row 2: held + b + c           = 8 + 32 + 4        = 44
   * row 3: held + c + wrap        = 8 + 4 + 16        = 28
   * </pre>
   */
  static LmemInstance instance() {
    return new LmemInstance(
        "lb",
        256,
        4,
        64,
        4,
        List.of(
            new LmemBuffer("held", Kind.WEIGHT, 0, 0, 8, true),
            new LmemBuffer("wrap", Kind.ACTIVATION, 3, 0, 16, false),
            new LmemBuffer("a", Kind.ACTIVATION, 0, 1, 24, false),
            new LmemBuffer("b", Kind.ACTIVATION, 1, 2, 32, false),
            new LmemBuffer("c", Kind.SCRATCH, 2, 3, 4, false)),
        List.of(empty(), empty(), empty(), empty()),
        List.of(new InPlace(2, 3)));
  }

  @Test
  void maxLiveCountsInPlacePairsOnceAndWrapsCyclically() {
    LmemInstance inst = instance();
    assertThat(List.of(0, 1, 2, 3).stream().map(t -> LmemLowerBounds.liveBytes(inst, t)))
        .containsExactly(48L, 40L, 44L, 28L);
    assertThat(LmemLowerBounds.maxLive(inst)).isEqualTo(48);
  }

  @Test
  void metricsFoundThroughServiceLoader() {
    LmemInstance inst = instance();
    // held [0, 8), wrap [8, 24), a [24, 48), b [24, 56) in place over a, c [60, 64)
    LmemSolution sol = new LmemSolution(new long[] {0, 8, 24, 24, 60});
    assertThat(new LmemValidator().validate(inst, sol)).isEmpty();
    Map<String, Double> values = new LinkedHashMap<>();
    for (MetricProvider<?, ?> p : ServiceLoader.load(MetricProvider.class)) {
      if (p.instanceType() == LmemInstance.class) {
        @SuppressWarnings("unchecked")
        MetricProvider<LmemInstance, LmemSolution> lp =
            (MetricProvider<LmemInstance, LmemSolution>) p;
        for (Metric<LmemInstance, LmemSolution> m : lp.metrics()) {
          values.put(
              m.id(), m.value(inst, Outcome.feasible(sol, OptionalLong.of(40))).getAsDouble());
        }
      }
    }
    // all inside bank 0; no engine touches anything, so no conflicts
    assertThat(values)
        .containsExactly(
            Map.entry("lmem-peak-bytes", 64.0),
            Map.entry("lmem-lower-bound-bytes", 48.0),
            Map.entry("bank-conflicts", 0.0),
            Map.entry("bank-straddles", 0.0));
  }

  @Test
  void straddleCounted() {
    LmemInstance inst = instance();
    // wrap [56, 72) crosses the 64-byte boundary; c [124, 128) ends exactly at bank 1's end
    LmemSolution crossing = new LmemSolution(new long[] {0, 56, 72, 72, 124});
    assertThat(new LmemValidator().validate(inst, crossing)).isEmpty();
    assertThat(LmemBanks.report(inst, crossing).straddling()).containsExactly(1);
  }
}
