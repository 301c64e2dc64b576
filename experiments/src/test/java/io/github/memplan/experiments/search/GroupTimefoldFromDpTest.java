package io.github.memplan.experiments.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.group.GroupFixtures;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingValidator;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code group-timefold} started from {@code tpumlir-dp} (a baseline, reached through the planner
 * SPI: only this module sees both) never ends costlier than its start, on a 14-op conv chain with
 * LMEM packed by {@code lmem-tpumlir}, on a BM168x and a CV18xx chip.
 */
class GroupTimefoldFromDpTest {
  private static final RooflineCostModel MODEL = new RooflineCostModel();

  /** x[1,32,96,96] f32 → six (conv 3x3 → relu), the third conv of stride 2 → gap → relu. */
  private static Graph chain() {
    return GroupFixtures.convReluChain("chain14", 32, 96, 6, 2);
  }

  private static Outcome<Grouping> solve(String id, GroupProblem p) {
    Outcome<Grouping> o =
        Planners.<GroupProblem, Grouping>get(id, GroupProblem.class)
            .create(Map.of())
            .solve(p, SolveContext.of(0, Budget.of(null, 500)));
    assertThat(o.status()).as(id + ": " + o.message()).isEqualTo(Status.FEASIBLE);
    assertThat(new GroupingValidator().validate(p, o.solution())).isEmpty();
    return o;
  }

  private static long cycles(GroupProblem p, Grouping g) {
    return MODEL.model(p.graph(), p.chip(), g).cycles();
  }

  @ParameterizedTest
  @ValueSource(strings = {"bm1684x", "cv183x"})
  void neverEndsCostlierThanTheDpItStartsFrom(String chip) {
    GroupProblem p = GroupProblem.of(chain(), Chips.get(chip), GroupOptions.DEFAULT);
    long dp = cycles(p, solve("tpumlir-dp", p).solution());
    Outcome<Grouping> tf = solve("group-timefold", p);
    assertThat(tf.stats().get("start-cost")).isEqualTo((double) dp);
    assertThat(cycles(p, tf.solution())).isLessThanOrEqualTo(dp);
    assertThat(dp).isLessThan(MODEL.ungrouped(p.graph(), p.order(), p.chip()).cycles());
  }
}
