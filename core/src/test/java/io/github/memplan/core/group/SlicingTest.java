package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Schedule;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-worked backward slicing (reference/tpu-mlir.md §4.1, §2.7, §2.13). */
class SlicingTest {
  private final Chip bm1684x = Chips.get("bm1684x");

  @Test
  void backwardHOfA3x3Stride2ConvStack() {
    Graph g = GroupFixtures.convStackS2();
    SliceResult r =
        Slicing.slice(g, Schedule.topological(g), bm1684x, ShapeSecs.nh(1, 2), SliceRules.V0);
    assertThat(r).isInstanceOf(SliceResult.Sliced.class);
    var s = ((SliceResult.Sliced) r).slices();
    // output 8 rows in ceil chunks of 4
    assertThat(s.get("conv2").h()).containsExactly(new Range(0, 4), new Range(4, 4));
    // conv2: in_idx = 2o - 1, in_len = (L-1)*2 + max(3, 2) = 9; clamp; the last slice runs to 16
    assertThat(s.get("conv1").h()).containsExactly(new Range(0, 8), new Range(7, 9));
    // conv1: (0,8) -> [-1,16) -> (0,16); (7,9) -> [13,32) -> (13,19)
    assertThat(s.get("x").h()).containsExactly(new Range(0, 16), new Range(13, 19));
    // N, C, W are not split
    assertThat(s.get("x").w()).containsExactly(new Range(0, 32));
    assertThat(s.get("x").n()).containsExactly(new Range(0, 1));
  }

  @Test
  void evenSplitGivesTheFirstSlicesTheExtraRows() {
    assertThat(Slicing.outputSlices(10, 4, 1, SliceRules.Split.EVEN))
        .containsExactly(new Range(0, 3), new Range(3, 3), new Range(6, 2), new Range(8, 2));
    assertThat(Slicing.outputSlices(10, 4, 1, SliceRules.Split.CEIL))
        .containsExactly(new Range(0, 3), new Range(3, 3), new Range(6, 3), new Range(9, 1));
    assertThat(Slicing.outputSlices(3, 4, 1, SliceRules.Split.EVEN)).isEmpty();
  }

  @Test
  void theHalfHRuleRejectsFourSlicesOfAnEightRowConvButNotTwo() {
    Graph g = GroupFixtures.convRelu();
    var order = Schedule.topological(g);
    // hsecs 4: relu/conv out (0,2),(2,2),(4,2),(6,2); conv in (0,3),(1,4),(3,4),(5,3): Σ 14 > 12
    SliceResult four = Slicing.slice(g, order, bm1684x, ShapeSecs.nh(1, 4), SliceRules.V0);
    assertThat(four).isInstanceOf(SliceResult.Failed.class);
    assertThat(((SliceResult.Failed) four).noMore()).isTrue();
    assertThat(((SliceResult.Failed) four).reason()).contains("h/2 rule", "'x'", "14");
    // without the rule the same slicing is accepted
    SliceResult off =
        Slicing.slice(g, order, bm1684x, ShapeSecs.nh(1, 4), SliceRules.V0.withH2Rule(false));
    assertThat(((SliceResult.Sliced) off).slices().get("x").h())
        .containsExactly(new Range(0, 3), new Range(1, 4), new Range(3, 4), new Range(5, 3));
    // hsecs 2: (0,5),(3,5): Σ 10 <= 12
    SliceResult two = Slicing.slice(g, order, bm1684x, ShapeSecs.nh(1, 2), SliceRules.V0);
    assertThat(((SliceResult.Sliced) two).slices().get("x").h())
        .containsExactly(new Range(0, 5), new Range(3, 5));
  }

  @Test
  void globalPoolCannotBeSplitOnH() {
    Graph.Builder b = Graph.builder("gp");
    b.input("x", io.github.memplan.core.ir.DType.F32, 1, 8, 8, 8);
    b.op(
        "relu",
        io.github.memplan.core.ir.OpKind.RELU,
        io.github.memplan.core.ir.Attributes.empty(),
        "x");
    b.op(
        "gap",
        io.github.memplan.core.ir.OpKind.GLOBAL_AVERAGE_POOL,
        io.github.memplan.core.ir.Attributes.empty(),
        "relu");
    b.output("gap");
    Graph g = b.build();
    List<io.github.memplan.core.ir.Op> order = Schedule.topological(g);
    assertThat(Slicing.slice(g, order, bm1684x, ShapeSecs.nh(1, 2), SliceRules.V0))
        .isInstanceOf(SliceResult.Failed.class);
    assertThat(Slicing.slice(g, order, bm1684x, ShapeSecs.ONE, SliceRules.V0))
        .isInstanceOf(SliceResult.Sliced.class);
  }
}
