package io.github.memplan.core.ir;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Hand-worked MAC counts of single ops (the zoo's models are checked against papers). */
class MacsTest {
  @Test
  void lstmCountsFourGatesOverInputAndHiddenPerStepRowAndDirection() {
    Graph.Builder b = Graph.builder("lstm");
    b.input("x", DType.F32, 5, 3, 10);
    b.weight("w", DType.F32, 2, 16, 10);
    b.weight("r", DType.F32, 2, 16, 4);
    b.weight("b", DType.F32, 2, 32);
    b.op(
        "lstm",
        OpKind.LSTM,
        Attributes.builder().put("hidden_size", 4).put("direction", "bidirectional").build(),
        "x",
        "w",
        "r",
        "b");
    b.output("lstm");
    Graph g = b.build();
    // 5 steps x 3 rows x 2 directions x 4 gates x 4 units x (10 inputs + 4 hidden)
    assertThat(Macs.of(g, g.op("lstm"))).isEqualTo(5L * 3 * 2 * 4 * 4 * (10 + 4));
    assertThat(Macs.of(g)).isEqualTo(6720L);
  }

  @Test
  void batchFirstLstmCountsTheSameSteps() {
    Graph.Builder b = Graph.builder("lstm");
    b.input("x", DType.F32, 3, 5, 10);
    b.weight("w", DType.F32, 1, 16, 10);
    b.weight("r", DType.F32, 1, 16, 4);
    b.op("lstm", OpKind.LSTM, Attributes.builder().put("layout", 1).build(), "x", "w", "r");
    b.output("lstm");
    Graph g = b.build();
    assertThat(Macs.of(g)).isEqualTo(5L * 3 * 1 * 16 * (10 + 4));
  }
}
