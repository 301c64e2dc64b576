package io.github.memplan.datasets.dsa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.ir.OpKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrainingTraceTest {

  /** x -> mm1(w1) -> h -> relu -> r -> mm2(w2) -> y (the output); h and r are 4x8 floats. */
  private static Graph mlp() {
    Graph.Builder b = Graph.builder("mlp");
    b.input("x", DType.F32, 4, 16);
    b.weight("w1", DType.F32, 16, 8);
    b.weight("w2", DType.F32, 8, 2);
    b.op("h", OpKind.MAT_MUL, Attributes.empty(), "x", "w1");
    b.op("r", OpKind.RELU, Attributes.empty(), "h");
    b.op("y", OpKind.MAT_MUL, Attributes.empty(), "r", "w2");
    b.output("y");
    return b.build();
  }

  /**
   * One step of the MLP, by hand: F = 3 ops, so the input loads at 0, mm1/relu/mm2 run at 1/2/3,
   * the loss seeds its gradient at 4, the backwards of mm2/relu/mm1 run at 5/6/7 and Adam updates
   * w1, w2 at 8, 9.
   */
  @Test
  void oneStepHasTheTrueLifetimes() {
    int persistent = 6; // w1, w2, then two Adam moments each
    int perStep = TrainingTrace.buffersPerStep(mlp());
    DsaInstance in = TrainingTrace.generate(mlp(), persistent + perStep, 1, 1);
    List<Buffer> b = in.buffers();
    // persistent: the whole trace, weight sized
    assertThat(b.subList(0, 6))
        .extracting(Buffer::size)
        .containsExactly(512L, 64L, 512L, 64L, 512L, 64L);
    assertThat(b.subList(0, 6)).allMatch(x -> x.lower() == 0 && x.upper() == in.horizon());
    List<String> step =
        b.subList(6, b.size()).stream()
            .map(x -> "[" + x.lower() + "," + x.upper() + ")" + x.size())
            .toList();
    assertThat(step)
        .containsExactlyInAnyOrder(
            "[0,8)256", // x: saved by mm1 for w1's gradient, to mm1's backward at 7
            "[1,3)128", // h: read by relu at 2, which saves its output, not h
            "[2,7)128", // r: relu's output, saved by relu (backward at 6) and by mm2 (at 5)
            "[3,5)32", // y: the output, read by the loss at 4
            "[4,6)32", // dy: seeded by the loss at 4, read by mm2's backward at 5
            "[5,7)128", // dr: made by mm2's backward, read by relu's backward at 6
            "[6,8)128", // dh: made by relu's backward, read by mm1's backward at 7
            "[7,9)512", // dw1: from mm1's backward to Adam's update of w1 at 8
            "[5,10)64", // dw2: from mm2's backward to Adam's update of w2 at 9
            "[8,9)512", // Adam's denominator of w1
            "[9,10)64"); // Adam's denominator of w2
  }

  @Test
  void exactlyTheRequestedBuffersDeterministicNumericIds() {
    Graph g = Models.get("resnet18").build();
    DsaInstance a = TrainingTrace.generate(g, 5_000, 8, 64);
    assertThat(a.size()).isEqualTo(5_000);
    assertThat(TrainingTrace.generate(g, 5_000, 8, 64)).isEqualTo(a);
    assertThat(a.name()).isEqualTo("training-resnet18-b8-5000");
    for (int i = 0; i < a.size(); i++) {
      Buffer x = a.buffer(i);
      assertThat(x.id()).isEqualTo(Integer.toString(i));
      assertThat(x.lower()).isLessThan(x.upper());
      assertThat(x.size() % 64).isZero();
    }
    assertThatThrownBy(() -> TrainingTrace.generate(g, 0, 1, 64))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
