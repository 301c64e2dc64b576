package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemSolution;
import java.util.List;
import org.junit.jupiter.api.Test;

/** v0's timestep table of conv → relu and the grouping validator on it. */
class V0TimestepsAndValidatorTest {
  private final Chip bm1684x = Chips.get("bm1684x");

  static GroupCandidate.Built convReluH2(Graph g, Chip chip) {
    List<Op> ops = g.ops();
    return (GroupCandidate.Built)
        GroupCandidate.build(
            "convrelu/g0", g, ops, chip, ShapeSecs.nh(1, 2), SliceRules.V0, new V0Timesteps());
  }

  /** The group with its four buffers stacked at 0, 192, 512 and 640 (EU-aligned, disjoint). */
  static Group stacked(GroupCandidate.Built b) {
    return new Group(
        0,
        1,
        ShapeSecs.nh(1, 2),
        b.slices().slices(),
        b.timesteps(),
        new LmemSolution(new long[] {0, 192, 512, 640}));
  }

  @Test
  void v0LoadsOneStepBeforeAndStoresOneStepAfterWithTheWeightHeld() {
    Graph g = GroupFixtures.convRelu();
    GroupTimesteps t = convReluH2(g, bm1684x).timesteps();
    var l = t.lmem();
    assertThat(l.timestepCount()).isEqualTo(4);
    assertThat(l.buffers())
        .containsExactly(
            // x: max slice 1x8x5x8 f32, h·w = 40 aligned to 16 -> 48 x 4 bytes
            new LmemBuffer("x", LmemBuffer.Kind.ACTIVATION, 0, 1, 192, false),
            // [8,8,3,3] f32 filter, oc on lanes, not EU-aligned; held because the group is sliced
            new LmemBuffer("conv/w", LmemBuffer.Kind.WEIGHT, 0, 1, 288, true),
            new LmemBuffer("conv", LmemBuffer.Kind.ACTIVATION, 1, 2, 128, false),
            new LmemBuffer("relu", LmemBuffer.Kind.ACTIVATION, 2, 3, 128, false));
    assertThat(l.timesteps().get(0).gdma()).containsExactly(0, 1);
    assertThat(l.timesteps().get(1).tiu().get(0).op()).isEqualTo("conv");
    assertThat(l.timesteps().get(2).tiu().get(0).op()).isEqualTo("relu");
    assertThat(l.timesteps().get(3).gdma()).containsExactly(3);
    assertThat(t.tensors()).containsExactly("x", "w", "conv", "relu");
  }

  @Test
  void validatorAcceptsTheRederivedGroupAndNamesTamperedOnes() {
    Graph g = GroupFixtures.convRelu();
    GroupCandidate.Built b = convReluH2(g, bm1684x);
    GroupProblem p = GroupProblem.of(g, bm1684x, GroupOptions.DEFAULT);
    Group ok = stacked(b);
    Grouping good = new Grouping(Grouping.names(p.order()), SliceRules.V0, "v0", List.of(ok));
    assertThat(new GroupingValidator().validate(p, good)).isEmpty();
    assertThat(good.globalOps()).isEmpty();

    Group overlapping =
        new Group(
            0,
            1,
            ok.secs(),
            ok.slices(),
            ok.timesteps(),
            new LmemSolution(new long[] {0, 128, 512, 640}));
    assertThat(
            new GroupingValidator()
                .validate(p, new Grouping(good.order(), SliceRules.V0, "v0", List.of(overlapping))))
        .extracting(v -> v.rule())
        .containsExactly("lmem");

    // recorded with hsecs 4, which the h/2 rule refuses
    Group h4 = new Group(0, 1, ShapeSecs.nh(1, 4), ok.slices(), ok.timesteps(), ok.lmem());
    assertThat(
            new GroupingValidator()
                .validate(p, new Grouping(good.order(), SliceRules.V0, "v0", List.of(h4))))
        .singleElement()
        .satisfies(v -> assertThat(v.message()).contains("group 0 [0..1]", "h/2 rule"));
  }

  @Test
  void groupedGmemKeepsOnlyGroupBoundaryTensors() {
    Graph g = GroupFixtures.convRelu();
    GroupCandidate.Built b = convReluH2(g, bm1684x);
    Group ok = stacked(b);
    Grouping grouping = new Grouping(Grouping.names(g.ops()), SliceRules.V0, "v0", List.of(ok));
    DsaInstance d = GroupedGmem.build(g, bm1684x, grouping);
    // x (input step 0, read by the group at step 1), relu (group step 1, read by return step 2)
    assertThat(d.buffers()).extracting(x -> x.id()).containsExactly("x", "relu");
    assertThat(d.buffers().get(0).lower()).isEqualTo(0);
    assertThat(d.buffers().get(0).upper()).isEqualTo(2);
    assertThat(d.buffers().get(1).size()).isEqualTo(4096);
  }
}
