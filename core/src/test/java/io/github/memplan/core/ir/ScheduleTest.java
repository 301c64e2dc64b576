package io.github.memplan.core.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleTest {

  private static final Attributes NONE = Attributes.empty();

  /**
   * Two independent branches from x, added interleaved: b1, a1, a2, c1, b2, then a join. A DFS or
   * branch-by-branch order would differ; ties must break by insertion order.
   */
  private static Graph branches() {
    Graph.Builder b = Graph.builder("branches");
    b.input("x", DType.F32, 2, 2);
    b.op("b1", OpKind.RELU, NONE, "x");
    b.op("a1", OpKind.NEG, NONE, "x");
    b.op("a2", OpKind.ABS, NONE, "a1");
    b.op("c1", OpKind.EXP, NONE, "x");
    b.op("b2", OpKind.TANH, NONE, "b1");
    b.op("ab", OpKind.ADD, NONE, "a2", "b2");
    b.op("join", OpKind.MUL, NONE, "ab", "c1");
    b.output("join");
    return b.build();
  }

  @Test
  void topologicalOrderBreaksTiesByInsertionOrder() {
    Graph g = branches();
    List<Op> order = Schedule.topological(g);
    assertThat(order)
        .extracting(Op::name)
        .containsExactly("b1", "a1", "a2", "c1", "b2", "ab", "join");
    assertThat(Schedule.topological(g)).isEqualTo(order);
    Schedule.check(g, order);
  }

  @Test
  void checkRejectsAConsumerBeforeItsProducer() {
    Graph g = branches();
    List<Op> order = new ArrayList<>(g.ops());
    // move a2 before a1
    order.remove(g.op("a2"));
    order.add(1, g.op("a2"));
    assertThatThrownBy(() -> Schedule.check(g, order))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("schedule runs op 'a2' (Abs) before its producer 'a1' (Neg)");
  }

  @Test
  void checkCatchesAMissedFanOutEdge() {
    // r feeds two ops at operand 0; both must wait for it
    Graph.Builder b = Graph.builder("fanout");
    b.input("x", DType.F32, 4);
    b.op("r", OpKind.RELU, NONE, "x");
    b.op("a", OpKind.NEG, NONE, "r");
    b.op("c", OpKind.ABS, NONE, "r");
    b.op("s", OpKind.ADD, NONE, "a", "c");
    b.output("s");
    Graph g = b.build();
    List<Op> bad = List.of(g.op("c"), g.op("r"), g.op("a"), g.op("s"));
    assertThatThrownBy(() -> Schedule.check(g, bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'c' (Abs) before its producer 'r' (Relu)");
  }

  @Test
  void checkRejectsWrongSizeAndRepeats() {
    Graph g = branches();
    List<Op> shorter = g.ops().subList(0, 3);
    assertThatThrownBy(() -> Schedule.check(g, shorter))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("schedule has 3 ops, graph 'branches' has 7");
    List<Op> repeated = new ArrayList<>(g.ops());
    repeated.set(6, g.op("b1"));
    assertThatThrownBy(() -> Schedule.check(g, repeated))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("schedule runs op 'b1' (Relu) twice");
  }
}
