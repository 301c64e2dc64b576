package io.github.memplan.experiments.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.group.GroupCost;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingBound;
import io.github.memplan.core.group.GroupingValidator;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code lower-bound-cycles} and {@code lower-bound-ddr-bytes} ({@link GroupingBound}) on zoo
 * models of both kinds (CNNs with long base groups, a transformer with short ones), after the front
 * end as the CLI plans them, on both chips: never above the total cycles and DDR bytes of any
 * planner's validated grouping, nor of the ungrouped model; the bound of each planner's own
 * timestep method ({@link GroupingBound#forMethod}, tighter for today's pipelined tables) and of
 * its own method and slicing rules ({@link GroupingBound#forGroupings}, section 7) never below the
 * former nor above that planner's grouping.
 */
class GroupingBoundIT {
  private static final List<String> MODELS = List.of("squeezenet1.0", "resnet18", "minilm-l6");
  private static final List<String> PLANNERS = List.of("tpumlir-v0", "tpumlir-dp", "group-dp-best");

  @TestFactory
  Stream<DynamicTest> boundNeverAboveAnyPlannersGrouping() {
    List<DynamicTest> tests = new ArrayList<>();
    RooflineCostModel cost = new RooflineCostModel();
    for (String model : MODELS) {
      for (String chipName : List.of("bm1684x", "cv183x")) {
        tests.add(
            DynamicTest.dynamicTest(
                model + "@" + chipName,
                () -> {
                  Chip chip = Chips.get(chipName);
                  Graph g = FrontEnd.apply(Models.get(model).build(), chip);
                  GroupProblem p = GroupProblem.of(g, chip, GroupOptions.DEFAULT);
                  GroupingBound.Totals bound = GroupingBound.of(p).totals();
                  GroupCost ungrouped = cost.ungrouped(g, p.order(), chip);
                  assertThat(bound.cycles())
                      .as("ungrouped")
                      .isLessThanOrEqualTo(ungrouped.cycles());
                  assertThat(bound.ddrBytes())
                      .as("ungrouped")
                      .isLessThanOrEqualTo(ungrouped.ddrBytes());
                  for (String planner : PLANNERS) {
                    Outcome<Grouping> o =
                        Planners.<GroupProblem, Grouping>get(planner, GroupProblem.class)
                            .create(Map.of())
                            .solve(p, SolveContext.of(0, Budget.of(Duration.ofSeconds(60))));
                    assertThat(o.status().hasSolution()).as(planner).isTrue();
                    assertThat(new GroupingValidator().validate(p, o.solution()))
                        .as(planner)
                        .isEmpty();
                    GroupCost total = cost.model(g, chip, o.solution());
                    assertThat(bound.cycles())
                        .as("%s on %s cycles", planner, p.name())
                        .isLessThanOrEqualTo(total.cycles());
                    assertThat(bound.ddrBytes())
                        .as("%s on %s bytes", planner, p.name())
                        .isLessThanOrEqualTo(total.ddrBytes());
                    // the bound of the planner's own timestep method (folded for today's)
                    GroupingBound.Totals own =
                        GroupingBound.forMethod(cost, p, o.solution().timestepMethod()).totals();
                    assertThat(own.cycles())
                        .as("%s on %s cycles, %s bound", planner, p.name(), "own method's")
                        .isGreaterThanOrEqualTo(bound.cycles())
                        .isLessThanOrEqualTo(total.cycles());
                    assertThat(own.ddrBytes())
                        .as("%s on %s bytes, %s bound", planner, p.name(), "own method's")
                        .isLessThanOrEqualTo(total.ddrBytes());
                    // and of its own method and slicing rules (section 7 for today's tables)
                    GroupingBound.Totals sliced =
                        GroupingBound.forGroupings(
                                cost, p, o.solution().timestepMethod(), o.solution().rules())
                            .totals();
                    assertThat(sliced.cycles())
                        .as("%s on %s cycles, %s bound", planner, p.name(), "own rules'")
                        .isGreaterThanOrEqualTo(own.cycles())
                        .isLessThanOrEqualTo(total.cycles());
                    assertThat(sliced.ddrBytes())
                        .as("%s on %s bytes, %s bound", planner, p.name(), "own rules'")
                        .isGreaterThanOrEqualTo(own.ddrBytes())
                        .isLessThanOrEqualTo(total.ddrBytes());
                  }
                }));
      }
    }
    return tests.stream();
  }
}
