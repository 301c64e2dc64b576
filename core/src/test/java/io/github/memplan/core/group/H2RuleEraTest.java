package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The h/2 rule follows the planner's era by default: on for v0's rules (the 2022 code calls {@code
 * check_hsecs}), off for today's (the call is commented out since 829dab2c2); {@link GroupOptions}
 * can force it either way, and the validator checks a grouping under the rules it names.
 */
class H2RuleEraTest {
  private final Chip bm1684x = Chips.get("bm1684x");

  @Test
  void theDefaultTakesEachErasRuleAndTheSwitchesForceIt() {
    assertThat(GroupOptions.DEFAULT.h2Rule()).isEqualTo(GroupOptions.H2Rule.ERA);
    assertThat(GroupOptions.DEFAULT.rules(SliceRules.V0).h2Rule()).isTrue();
    assertThat(GroupOptions.DEFAULT.rules(SliceRules.TODAY).h2Rule()).isFalse();
    GroupOptions on = new GroupOptions(true, GroupOptions.Objective.CYCLES);
    GroupOptions off = new GroupOptions(false, GroupOptions.Objective.CYCLES);
    assertThat(on.rules(SliceRules.TODAY)).isEqualTo(SliceRules.TODAY.withH2Rule(true));
    assertThat(off.rules(SliceRules.V0)).isEqualTo(SliceRules.V0.withH2Rule(false));
    // what each option admits
    assertThat(GroupOptions.DEFAULT.admits(SliceRules.V0)).isTrue();
    assertThat(GroupOptions.DEFAULT.admits(SliceRules.TODAY)).isTrue();
    assertThat(GroupOptions.DEFAULT.admits(SliceRules.V0.withH2Rule(false))).isFalse();
    assertThat(GroupOptions.DEFAULT.admits(SliceRules.TODAY.withH2Rule(true))).isFalse();
    assertThat(on.admits(SliceRules.TODAY)).isFalse();
    assertThat(off.admits(SliceRules.TODAY)).isTrue();
  }

  /**
   * conv 3x3 pad 1 → relu on an 8-row input, hsecs 4 (even split): relu/conv out (0,2),(2,2),
   * (4,2),(6,2), conv in (0,3),(1,4),(3,4),(5,3): Σ 14 rows > 1.5 · 8 = 12, so the h/2 rule refuses
   * it. Under today's default (rule off) the grouping validates; forcing the rule on, the problem
   * refuses it twice: its rules do not honour the option, and the re-derived slicing fails.
   */
  @Test
  void theValidatorChecksAGroupingUnderItsOwnRules() {
    Graph g = GroupFixtures.convRelu();
    ShapeSecs h4 = ShapeSecs.nh(1, 4);
    GroupCandidate.Built b =
        (GroupCandidate.Built)
            GroupCandidate.build(
                "convrelu/g0", g, g.ops(), bm1684x, h4, SliceRules.TODAY, new Timesteps2026());
    assertThat(b.slices().slices().get("x").h())
        .containsExactly(new Range(0, 3), new Range(1, 4), new Range(3, 4), new Range(5, 3));
    var lmem = new StackLmemPlanner().solve(b.timesteps().lmem(), SolveContext.unlimited());
    Group grp = new Group(0, 1, h4, b.slices().slices(), b.timesteps(), lmem.solution());
    Grouping today = new Grouping(Grouping.names(g.ops()), SliceRules.TODAY, "today", List.of(grp));

    GroupProblem byEra = GroupProblem.of(g, bm1684x, GroupOptions.DEFAULT);
    assertThat(new GroupingValidator().validate(byEra, today)).isEmpty();

    GroupProblem forcedOn =
        GroupProblem.of(g, bm1684x, new GroupOptions(true, GroupOptions.Objective.CYCLES));
    assertThat(new GroupingValidator().validate(forcedOn, today))
        .extracting(v -> v.rule())
        .containsExactly("slicing");
    Grouping todayWithRule =
        new Grouping(today.order(), SliceRules.TODAY.withH2Rule(true), "today", List.of(grp));
    assertThat(new GroupingValidator().validate(forcedOn, todayWithRule))
        .singleElement()
        .satisfies(v -> assertThat(v.message()).contains("group 0 [0..1]", "h/2 rule", "14"));
    // v0's rules without the rule do not honour the default (v0's era has it on)
    Grouping v0NoRule =
        new Grouping(today.order(), SliceRules.V0.withH2Rule(false), "today", List.of(grp));
    assertThat(new GroupingValidator().validate(byEra, v0NoRule))
        .extracting(v -> v.message())
        .anySatisfy(m -> assertThat(m).contains("h/2 rule off", "ERA", "on for these rules"));
  }
}
