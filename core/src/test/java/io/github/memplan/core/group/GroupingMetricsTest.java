package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.solve.Metric;
import io.github.memplan.core.solve.Outcome;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The grouping metrics on conv → relu grouped with hsecs 2 (costs as in RooflineCostModelTest). */
class GroupingMetricsTest {
  @Test
  void metricsOfTheConvReluGroup() {
    Graph g = GroupFixtures.convRelu();
    var chip = Chips.get("bm1684x");
    GroupProblem p = GroupProblem.of(g, chip, GroupOptions.DEFAULT);
    Group grp =
        V0TimestepsAndValidatorTest.stacked(V0TimestepsAndValidatorTest.convReluH2(g, chip));
    Grouping grouping = new Grouping(Grouping.names(p.order()), SliceRules.V0, "v0", List.of(grp));
    Outcome<Grouping> o = Outcome.feasible(grouping, OptionalLong.empty());
    Map<String, Double> values =
        new GroupingMetrics()
            .metrics().stream()
                .collect(Collectors.toMap(Metric::id, m -> m.value(p, o).orElseThrow()));
    assertThat(values)
        .containsEntry("total-cycles", 146.0)
        .containsEntry("ddr-bytes", 6912.0)
        .containsEntry("groups", 1.0)
        .containsEntry("global-ops", 0.0)
        .containsEntry("ungrouped-cycles", 164.0)
        .containsEntry("ungrouped-ddr-bytes", 10496.0)
        // conv: 512 outputs × 72 MACs / (64 lanes × 16 f32 per EU) = 36; relu: ceil(512 / 1024) = 1
        .containsEntry("lower-bound-cycles", 37.0);
    assertThat(new GroupingMetrics().metrics().get(0).value(p, Outcome.error("x"))).isEmpty();
  }
}
