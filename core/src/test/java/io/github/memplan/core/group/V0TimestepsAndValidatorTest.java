package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
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
  void convAndReluShareARowWithTheWeightHeld() {
    // v0's list: x (input), w (weight), conv (op), conv (result), relu (op), relu (group output).
    // The walk: x and w at 0; conv moves to 1; relu follows an op with no load between: stays 1;
    // relu's result is a group output right after its op: 2. Three rows.
    Graph g = GroupFixtures.convRelu();
    GroupTimesteps t = convReluH2(g, bm1684x).timesteps();
    var l = t.lmem();
    assertThat(l.timestepCount()).isEqualTo(3);
    assertThat(l.buffers())
        .containsExactly(
            // x: max slice 1x8x5x8 f32, h·w = 40 aligned to 16 -> 48 x 4 bytes
            new LmemBuffer("x", LmemBuffer.Kind.ACTIVATION, 0, 1, 192, false),
            // [8,8,3,3] f32 filter, oc on lanes, not EU-aligned; held because the group is sliced
            new LmemBuffer("conv/w", LmemBuffer.Kind.WEIGHT, 0, 1, 288, true),
            new LmemBuffer("conv", LmemBuffer.Kind.ACTIVATION, 1, 1, 128, false),
            new LmemBuffer("relu", LmemBuffer.Kind.ACTIVATION, 1, 2, 128, false));
    assertThat(l.timesteps().get(0).gdma()).containsExactly(0, 1);
    assertThat(l.timesteps().get(0).tiu()).isEmpty();
    assertThat(l.timesteps().get(1).tiu())
        .extracting(op -> op.op())
        .containsExactly("conv", "relu");
    assertThat(l.timesteps().get(1).gdma()).isEmpty();
    assertThat(l.timesteps().get(2).gdma()).containsExactly(3);
    assertThat(t.tensors()).containsExactly("x", "w", "conv", "relu");
  }

  /**
   * x[1,8,8,8] f32 → conv1(w1) → relu1 → conv2(w2) → relu2 → act (a ReLU), with relu1 and relu2
   * also graph outputs, unsliced on bm1684x.
   *
   * <pre>
   * v0's list and assign_timestep's walk (counter, last_type, last_output):
   *   x   input         0   (input)
   *   w1  weight        0   (weight)
   *   conv1 op          1   last_type was not an op: +1
   *   conv1 result      1   read inside only: no change
   *   relu1 op          1   last_type is an op: shares conv1's timestep
   *   relu1 result      2   group output right after its op: +1 (store), last_output
   *   w2  weight        1   after a group output: -1, so w2 loads beside relu1
   *   conv2 op          2   +1
   *   conv2 result      2
   *   relu2 op          2   shares conv2's timestep
   *   relu2 result      3   group output: +1
   *   act op            4   last_type is the output, not an op: +1, no sharing
   *   act result        5   group output: +1
   * rows: 0 load x w1 | 1 conv1 relu1, load w2 | 2 conv2 relu2, store relu1 | 3 store relu2
   *       | 4 act | 5 store act
   * </pre>
   *
   * Lives: x [0,1] (load, conv1), conv1/w1 [0,1], conv1 [1,1], relu1 [1,2] (conv2's row is also its
   * store row), conv2/w2 [1,2], conv2 [2,2], relu2 [2,4] (act reads it in row 4, after its store in
   * row 3), act [4,5]. Every activation 8x8x8 f32: 64 elements per lane, 256 bytes; each filter
   * 8·3·3·4 = 288 bytes on its lane, not held (unsliced). The old one-op-per-row table had 5 + 2 =
   * 7 rows.
   */
  @Test
  void consecutiveOpsWithoutATransferShareATimestep() {
    Graph.Builder b = Graph.builder("v0walk");
    b.input("x", DType.F32, 1, 8, 8, 8);
    b.weight("w1", DType.F32, 8, 8, 3, 3);
    b.weight("w2", DType.F32, 8, 8, 3, 3);
    b.op("conv1", OpKind.CONV, GroupFixtures.conv3x3(1), "x", "w1");
    b.op("relu1", OpKind.RELU, Attributes.empty(), "conv1");
    b.op("conv2", OpKind.CONV, GroupFixtures.conv3x3(1), "relu1", "w2");
    b.op("relu2", OpKind.RELU, Attributes.empty(), "conv2");
    b.op("act", OpKind.RELU, Attributes.empty(), "relu2");
    b.output("relu1");
    b.output("relu2");
    b.output("act");
    Graph g = b.build();
    var c =
        (GroupCandidate.Built)
            GroupCandidate.build(
                "walk", g, g.ops(), bm1684x, ShapeSecs.ONE, SliceRules.V0, new V0Timesteps());
    var l = c.timesteps().lmem();
    assertThat(l.timestepCount()).isEqualTo(6);
    assertThat(l.buffers())
        .containsExactly(
            new LmemBuffer("x", LmemBuffer.Kind.ACTIVATION, 0, 1, 256, false),
            new LmemBuffer("conv1/w1", LmemBuffer.Kind.WEIGHT, 0, 1, 288, false),
            new LmemBuffer("conv1", LmemBuffer.Kind.ACTIVATION, 1, 1, 256, false),
            new LmemBuffer("relu1", LmemBuffer.Kind.ACTIVATION, 1, 2, 256, false),
            new LmemBuffer("conv2/w2", LmemBuffer.Kind.WEIGHT, 1, 2, 288, false),
            new LmemBuffer("conv2", LmemBuffer.Kind.ACTIVATION, 2, 2, 256, false),
            new LmemBuffer("relu2", LmemBuffer.Kind.ACTIVATION, 2, 4, 256, false),
            new LmemBuffer("act", LmemBuffer.Kind.ACTIVATION, 4, 5, 256, false));
    List<List<String>> tiu =
        l.timesteps().stream().map(r -> r.tiu().stream().map(op -> op.op()).toList()).toList();
    assertThat(tiu)
        .containsExactly(
            List.of(),
            List.of("conv1", "relu1"),
            List.of("conv2", "relu2"),
            List.of(),
            List.of("act"),
            List.of());
    assertThat(l.timesteps())
        .extracting(r -> r.gdma())
        .containsExactly(List.of(0, 1), List.of(4), List.of(3), List.of(6), List.of(), List.of(7));
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
