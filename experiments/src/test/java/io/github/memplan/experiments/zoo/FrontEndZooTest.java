package io.github.memplan.experiments.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The front end ({@link FrontEnd}) on the zoo's models. */
class FrontEndZooTest {
  private static final Chip BM1684X = Chips.get("bm1684x");
  private static final FrontEnd.Options NO_ATTENTION = FrontEnd.Options.parse("all,-attention");

  @TestFactory
  Stream<DynamicTest> everyModelKeepsItsInterfaceAndMacsAndReachesAFixedPoint() {
    List<DynamicTest> tests = new ArrayList<>();
    for (ModelProvider m : Models.all()) {
      tests.add(
          DynamicTest.dynamicTest(
              m.name(),
              () -> {
                Graph g = m.build();
                Graph f = FrontEnd.apply(g, BM1684X);
                // every pass but the attention fusion, whose per-head split may add ops, only
                // removes ops
                Graph noAttention = FrontEnd.apply(g, BM1684X, NO_ATTENTION);
                assertThat(noAttention.ops().size()).isLessThanOrEqualTo(g.ops().size());
                assertThat(f.inputs()).isEqualTo(g.inputs());
                assertThat(f.outputs()).isEqualTo(g.outputs());
                for (String out : g.outputs()) {
                  assertThat(f.tensor(out).type()).isEqualTo(g.tensor(out).type());
                }
                assertThat(Macs.of(f)).isEqualTo(Macs.of(g));
                assertThat(f.parameterCount()).isLessThanOrEqualTo(g.parameterCount());
                assertThat(FrontEnd.apply(f, BM1684X)).isSameAs(f);
                Graph onBm1684 = FrontEnd.apply(g, Chips.get("bm1684"));
                assertThat(onBm1684.ops().size())
                    .isBetween(noAttention.ops().size(), g.ops().size());
              }));
    }
    return tests.stream();
  }

  private static long count(Graph g, OpKind kind, boolean relu) {
    return g.ops().stream().filter(o -> o.kind() == kind && FrontEnd.doRelu(o) == relu).count();
  }

  @Test
  void resnet18ReachesLayerGroupAsTpuMlirsThirtyTwoOps() {
    Graph g = Models.get("resnet18").build();
    Graph f = FrontEnd.apply(g, BM1684X);
    // 20 Conv (the stem's and each block's first with their ReLU: 9; each block's second and
    // the 3 downsamples feed an Add: 11), 8 Add with ReLU, MaxPool, global pool, Flatten, Gemm;
    // the 20 BatchNorms and 17 ReLUs (9 after a conv, 8 after an Add) leave
    assertThat(g.ops()).hasSize(69);
    assertThat(f.ops()).hasSize(32);
    assertThat(count(f, OpKind.CONV, true)).isEqualTo(9);
    assertThat(count(f, OpKind.CONV, false)).isEqualTo(11);
    assertThat(count(f, OpKind.ADD, true)).isEqualTo(8);
    assertThat(f.ops().stream().map(Op::kind))
        .doesNotContain(OpKind.BATCH_NORMALIZATION, OpKind.RELU);
    // BM1684 keeps the BatchNorms (Scales there) and fuses the ReLUs into them and the Adds
    assertThat(FrontEnd.apply(g, Chips.get("bm1684")).ops()).hasSize(32 + 20);
  }

  @Test
  void bertBaseLosesItsSeventyTwoBiasAdds() {
    Graph g = Models.get("bert-base").build();
    Graph f = FrontEnd.apply(g, BM1684X, NO_ATTENTION);
    // 12 layers x 6 linear layers (query, key, value, attention output, intermediate, output)
    assertThat(g.ops().size() - f.ops().size()).isEqualTo(12 * 6);
    assertThat(f.ops().stream().filter(o -> o.kind() == OpKind.MAT_MUL && o.inputs().size() == 3))
        .hasSize(72);
  }

  /**
   * On bm1684x each self-attention block (bert-base: q, k, v MatMuls, 3 Reshapes and 3 Transposes,
   * scores, Div, mask Add, Softmax, context, Transpose, Reshape, output MatMul: 17 ops; vit-b16 has
   * no mask Add: 16) becomes 12 Attention heads and 11 Adds (23 ops): bert-base 300 - 12·17 + 12·23
   * = 372, vit-b16 284 - 12·16 + 12·23 = 368; on cv183x nothing is fused. MACs are unchanged (a
   * head's projections and products sum to the block's).
   */
  @Test
  void transformersOnBm1684xGetOneAttentionOpPerHead() {
    for (String name : List.of("bert-base", "vit-b16")) {
      Graph g = Models.get(name).build();
      Graph f = FrontEnd.apply(g, BM1684X);
      assertThat(f.ops().stream().filter(o -> o.kind() == OpKind.ATTENTION)).hasSize(144);
      assertThat(
              f.ops().stream()
                  .filter(o -> o.kind() == OpKind.ADD && o.inputs().get(0).contains("_head_0")))
          .hasSize(12);
      assertThat(Macs.of(f)).isEqualTo(Macs.of(g));
      assertThat(FrontEnd.apply(g, Chips.get("cv183x")).ops())
          .noneMatch(o -> o.kind() == OpKind.ATTENTION);
    }
    assertThat(FrontEnd.apply(Models.get("bert-base").build(), BM1684X).ops()).hasSize(372);
    assertThat(FrontEnd.apply(Models.get("vit-b16").build(), BM1684X).ops()).hasSize(368);
  }
}
