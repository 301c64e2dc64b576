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
                .filter(m -> m.value(p, o).isPresent())
                .collect(Collectors.toMap(Metric::id, m -> m.value(p, o).orElseThrow()));
    assertThat(values)
        .containsEntry("total-cycles", 146.0)
        .containsEntry("ddr-bytes", 6912.0)
        .containsEntry("groups", 1.0)
        .containsEntry("global-ops", 0.0)
        .containsEntry("ungrouped-cycles", 164.0)
        .containsEntry("ungrouped-ddr-bytes", 10496.0)
        // One base group conv..relu; its partitions: {conv}{relu} global, 100 + 64 = 164 cycles and
        // 6400 + 4096 bytes; or the group conv..relu: TIU (36 - 1 - 1) + max(0, 1 - 1 - 1) = 34;
        // bytes w 2304 + output relu 2048 + input x, whole (a 3x3/p1 conv reads every row and
        // column of x for its whole output) 2048 = 6400, 6400 / 64 - 1 = 99 GDMA cycles. So 99
        // cycles (above Σ whole-op TIU 36 + 1 = 37, the former bound) and 6400 bytes.
        .containsEntry("lower-bound-cycles", 99.0)
        .containsEntry("lower-bound-ddr-bytes", 6400.0)
        // x, w, conv and relu stacked within bank 0: the conv's operands and result pairwise (x-w,
        // x-conv, w-conv) and the relu's operand and result (conv-relu) conflict
        .containsEntry("bank-conflicts", 4.0)
        .containsEntry("bank-conflict-groups", 1.0)
        // counts only a planner that treats conflicts reports
        .doesNotContainKeys(
            GroupingMetrics.CONFLICTS_UNAVOIDABLE, GroupingMetrics.CONFLICTS_UNDECIDED);
    Outcome<Grouping> reported =
        o.withStats(Map.of(GroupingMetrics.CONFLICTS_UNAVOIDABLE, 1, "other", 5));
    assertThat(
            new GroupingMetrics()
                .metrics().stream()
                    .filter(m -> m.id().equals(GroupingMetrics.CONFLICTS_UNAVOIDABLE))
                    .findFirst()
                    .orElseThrow()
                    .value(p, reported))
        .hasValue(1.0);
    assertThat(new GroupingMetrics().metrics().get(0).value(p, Outcome.error("x"))).isEmpty();
  }
}
