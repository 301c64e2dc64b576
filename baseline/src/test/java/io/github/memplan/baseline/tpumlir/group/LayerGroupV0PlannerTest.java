package io.github.memplan.baseline.tpumlir.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingValidator;
import io.github.memplan.core.group.Range;
import io.github.memplan.core.group.ShapeSecs;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * tpumlir-v0 on hand-worked chains, packed by the {@code test-lmem-stack} double (sum of buffers).
 */
class LayerGroupV0PlannerTest {

  private static Outcome<Grouping> plan(Graph g, String chip) {
    var provider = Planners.<GroupProblem, Grouping>get("tpumlir-v0", GroupProblem.class);
    GroupProblem p = GroupProblem.of(g, Chips.get(chip), GroupOptions.DEFAULT);
    Outcome<Grouping> o =
        provider.create(Map.of("lmem", "test-lmem-stack")).solve(p, SolveContext.unlimited());
    assertThat(o.status()).isEqualTo(Status.FEASIBLE);
    assertThat(new GroupingValidator().validate(p, o.solution())).isEmpty();
    return o;
  }

  private static Graph convRelu(long h, boolean withGemm) {
    Graph.Builder b = Graph.builder("chain");
    b.input("x", DType.F32, 1, 64, h, 256);
    b.weight("w", DType.F32, 64, 64, 3, 3);
    b.op(
        "conv",
        OpKind.CONV,
        Attributes.builder().put("kernel_shape", 3, 3).put("pads", 1, 1, 1, 1).build(),
        "x",
        "w");
    b.op("relu", OpKind.RELU, Attributes.empty(), "conv");
    if (!withGemm) {
      b.output("relu");
      return b.build();
    }
    // (1, 64, h, 256) -> (1, 256, 64, h) changes dim 1: global (ReshapeOp::LocalGenSupport)
    b.op("flat", OpKind.RESHAPE, Attributes.builder().put("shape", 1, 256, 64, h).build(), "relu");
    b.op("sig", OpKind.SIGMOID, Attributes.empty(), "flat");
    b.op("tanh", OpKind.TANH, Attributes.empty(), "sig");
    b.output("tanh");
    return b.build();
  }

  @Test
  void splitsHUntilTheGroupFitsAtFourSlices() {
    // bm1684x lane: 256 KiB. Per lane (c = 64 on 64 lanes): rows x 256 x 4 bytes.
    // hsecs 2: x 129 rows + conv 128 + relu 128 + w 2304 = 396544 > 262144
    // hsecs 3: x 88 + 86 + 86 rows + 2304 = 268544 > 262144
    // hsecs 4: x 66 + 64 + 64 rows + 2304 = 200960 fits; h/2: 65+66+66+65 = 262 <= 384
    Outcome<Grouping> o = plan(convRelu(256, false), "bm1684x");
    Grouping g = o.solution();
    assertThat(g.groups()).hasSize(1);
    Group grp = g.groups().get(0);
    assertThat(grp.secs()).isEqualTo(ShapeSecs.nh(1, 4));
    assertThat(grp.slices().get("x").h())
        .containsExactly(
            new Range(0, 65), new Range(63, 66), new Range(127, 66), new Range(191, 65));
    assertThat(o.stats()).containsEntry("tries", 5.0); // n1, h1, h2, h3, h4
    // v0's era has the h/2 rule on (the 2022 code calls check_hsecs), the default follows it
    assertThat(g.rules().h2Rule()).isTrue();
  }

  @Test
  void globalOpsCutTheRunsAndSingleOpsStayGlobal() {
    // conv relu | reshape (global, it changes dim 1) | sigmoid tanh: two runs, each one group
    Outcome<Grouping> o = plan(convRelu(16, true), "bm1684x");
    Grouping g = o.solution();
    assertThat(g.groups())
        .extracting(Group::first, Group::last)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(0, 1), org.assertj.core.groups.Tuple.tuple(3, 4));
    assertThat(g.globalOps()).containsExactly(2);
    assertThat(g.groups()).allSatisfy(x -> assertThat(x.secs()).isEqualTo(ShapeSecs.ONE));
  }

  @Test
  void withV0sOwnLmemPackingConvAndReluShareARowSoFourHSlices() {
    // v0's timesteps: x loads in row 0, conv and relu share row 1 (no transfer between them),
    // relu is stored in row 2; w is held once sliced. Row 1 holds x, conv, relu and w at once:
    // hsecs 3: x 88 rows 90112 + conv 86 rows 88064 + relu 88064 + w 2304 = 268544 > 262144
    // hsecs 4: x 66 rows 67584 + conv 65536 + relu 65536 + w 2304 = 200960 fits
    // (with a row per op, conv and relu never met and hsecs 3 fitted)
    var provider = Planners.<GroupProblem, Grouping>get("tpumlir-v0", GroupProblem.class);
    GroupProblem p =
        GroupProblem.of(convRelu(256, false), Chips.get("bm1684x"), GroupOptions.DEFAULT);
    Outcome<Grouping> o = provider.create(Map.of()).solve(p, SolveContext.unlimited());
    assertThat(o.status()).isEqualTo(Status.FEASIBLE);
    assertThat(new GroupingValidator().validate(p, o.solution())).isEmpty();
    assertThat(o.solution().groups())
        .singleElement()
        .satisfies(g -> assertThat(g.secs()).isEqualTo(ShapeSecs.nh(1, 4)));
  }

  @Test
  void unknownLmemPlannerFailsNamingIt() {
    var provider = Planners.<GroupProblem, Grouping>get("tpumlir-v0", GroupProblem.class);
    assertThatThrownBy(() -> provider.create(Map.of("lmem", "nope")))
        .hasMessageContaining("'nope'");
    assertThatThrownBy(() -> provider.create(Map.of("bogus", "1")))
        .hasMessageContaining("tpumlir-v0")
        .hasMessageContaining("bogus");
  }
}
