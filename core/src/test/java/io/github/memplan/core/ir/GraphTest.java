package io.github.memplan.core.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class GraphTest {

  private static Attributes none() {
    return Attributes.empty();
  }

  /** x -> conv(w, b) -> bn -> relu -> {add(relu, relu)} -> output; the relu feeds two ops. */
  private static Graph small() {
    Graph.Builder b = Graph.builder("small");
    b.input("x", DType.F32, 1, 3, 8, 8);
    b.weight("w", DType.F32, 4, 3, 3, 3);
    b.weight("b", DType.F32, 4);
    b.op("conv", OpKind.CONV, Attributes.builder().put("pads", 1, 1, 1, 1).build(), "x", "w", "b");
    b.weight("bn.scale", DType.F32, 4);
    b.weight("bn.bias", DType.F32, 4);
    b.constant("bn.mean", DType.F32, 4);
    b.constant("bn.var", DType.F32, 4);
    b.op(
        "bn",
        OpKind.BATCH_NORMALIZATION,
        none(),
        "conv",
        "bn.scale",
        "bn.bias",
        "bn.mean",
        "bn.var");
    b.op("relu", OpKind.RELU, none(), "bn");
    b.op("sigmoid", OpKind.SIGMOID, none(), "relu");
    b.op("add", OpKind.ADD, none(), "relu", "relu");
    b.op("mul", OpKind.MUL, none(), "add", "sigmoid");
    b.output("mul");
    return b.build();
  }

  @Test
  void buildsWithInferredShapesInInsertionOrder() {
    Graph g = small();
    assertThat(g.name()).isEqualTo("small");
    assertThat(g.ops())
        .extracting(Op::name)
        .containsExactly("conv", "bn", "relu", "sigmoid", "add", "mul");
    assertThat(g.tensors().keySet())
        .containsExactly(
            "x",
            "w",
            "b",
            "conv",
            "bn.scale",
            "bn.bias",
            "bn.mean",
            "bn.var",
            "bn",
            "relu",
            "sigmoid",
            "add",
            "mul");
    assertThat(g.tensor("mul").shape()).isEqualTo(Shape.of(1, 4, 8, 8));
    assertThat(g.tensor("mul").dtype()).isEqualTo(DType.F32);
    assertThat(g.inputs()).containsExactly("x");
    assertThat(g.outputs()).containsExactly("mul");
    assertThat(g.indexOf(g.op("add"))).isEqualTo(4);
  }

  @Test
  void rolesAndParameterCount() {
    Graph g = small();
    assertThat(g.tensor("x").role()).isEqualTo(Role.INPUT);
    assertThat(g.tensor("w").role()).isEqualTo(Role.WEIGHT);
    assertThat(g.tensor("bn.mean").role()).isEqualTo(Role.CONSTANT);
    assertThat(g.tensor("relu").role()).isEqualTo(Role.ACTIVATION);
    assertThat(g.tensor("mul").role()).isEqualTo(Role.OUTPUT);
    // weights: 4*3*3*3 + 4 + 4 + 4 = 120; the running statistics are constants, not parameters
    assertThat(g.parameterCount()).isEqualTo(120);
    // stored: 120 weights + 8 constants, 4 bytes each
    assertThat(g.storedBytes()).isEqualTo(128 * 4);
  }

  @Test
  void producersConsumersAndPredecessors() {
    Graph g = small();
    assertThat(g.producer("x")).isEmpty();
    assertThat(g.producer("w")).isEmpty();
    assertThat(g.producer("relu")).contains(g.op("relu"));
    // add reads relu twice but is listed once
    assertThat(g.consumers("relu")).containsExactly(g.op("sigmoid"), g.op("add"));
    assertThat(g.consumers("mul")).isEmpty();
    assertThat(g.predecessors(g.op("mul"))).containsExactlyInAnyOrder(g.op("add"), g.op("sigmoid"));
    assertThat(g.predecessors(g.op("sigmoid"))).containsExactly(g.op("relu"));
    assertThat(g.predecessors(g.op("add"))).containsExactly(g.op("relu"));
  }

  @Test
  void dagHasOneEdgePerProducerConsumerOperand() {
    Graph g = small();
    // conv->bn, bn->relu, relu->sigmoid, relu->add (x2), add->mul, sigmoid->mul
    assertThat(g.dag().edgeSet()).hasSize(7);
    assertThat(g.dag().incomingEdgesOf(g.op("sigmoid")))
        .containsExactly(new Graph.Edge("relu", "sigmoid", 0));
  }

  @Test
  void aTensorReadAtTheSameOperandByTwoOpsGivesTwoEdges() {
    Graph.Builder b = Graph.builder("fanout");
    b.input("x", DType.F32, 4);
    b.op("r", OpKind.RELU, none(), "x");
    b.op("a", OpKind.NEG, none(), "r");
    b.op("c", OpKind.ABS, none(), "r");
    b.op("s", OpKind.ADD, none(), "a", "c");
    b.output("s");
    Graph g = b.build();
    assertThat(g.predecessors(g.op("a"))).containsExactly(g.op("r"));
    assertThat(g.predecessors(g.op("c"))).containsExactly(g.op("r"));
    assertThat(g.dag().outDegreeOf(g.op("r"))).isEqualTo(2);
  }

  @Test
  void rejectsMissingInputNamingTheOp() {
    Graph.Builder b = Graph.builder("g");
    b.input("x", DType.F32, 4);
    assertThatThrownBy(() -> b.op("relu1", OpKind.RELU, none(), "y"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'relu1' (Relu)")
        .hasMessageContaining("'y'");
  }

  @Test
  void rejectsAnOpReadingItsOwnOutput() {
    // the only way to close a cycle through the builder: inputs must be defined before use
    Graph.Builder b = Graph.builder("g");
    b.input("x", DType.F32, 4);
    assertThatThrownBy(() -> b.op("loop", OpKind.ADD, none(), "x", "loop"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'loop' (Add) reads tensor 'loop', which is not defined before it");
  }

  @Test
  void rejectsDuplicateNames() {
    Graph.Builder b = Graph.builder("g");
    b.input("x", DType.F32, 4);
    assertThatThrownBy(() -> b.weight("x", DType.F32, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tensor 'x' is defined twice");
    b.op("r", OpKind.RELU, none(), "x");
    assertThatThrownBy(() -> b.op("r", OpKind.NEG, none(), List.of("x"), List.of("other")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("op name 'r' is used twice");
    assertThatThrownBy(() -> b.op("n", OpKind.NEG, none(), List.of("x"), List.of("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tensor 'x' is defined twice");
  }

  @Test
  void aFailedOpLeavesTheBuilderUnchanged() {
    Graph.Builder b = Graph.builder("g");
    b.input("x", DType.F32, 4);
    assertThatThrownBy(() -> b.op("bad", OpKind.ADD, none(), "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("'bad' (Add): expects 2 inputs");
    assertThatThrownBy(() -> b.op("bad2", OpKind.NEG, none(), List.of("x"), List.of("y", "x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(b.has("y")).isFalse();
    // the names of failed ops are still free
    b.op("bad", OpKind.RELU, none(), "x");
    b.op("bad2", OpKind.NEG, none(), "bad");
    b.output("bad2");
    assertThat(b.build().ops()).extracting(Op::name).containsExactly("bad", "bad2");
  }

  @Test
  void rejectsShapeErrorsAtTheOpAtFault() {
    Graph.Builder b = Graph.builder("g");
    b.input("x", DType.F32, 1, 64, 56, 56);
    b.weight("w", DType.F32, 64, 3, 7, 7);
    assertThatThrownBy(() -> b.op("conv1", OpKind.CONV, none(), "x", "w"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "'conv1' (Conv): input channels 64 != weight channels*group 3 (W 64x3x7x7, group 1)");
  }

  @Test
  void outputsMustBeOpResultsAndAreIdempotent() {
    Graph.Builder b = Graph.builder("g");
    b.input("x", DType.F32, 4);
    b.weight("w", DType.F32, 4);
    assertThatThrownBy(() -> b.output("x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("output 'x' is a INPUT, not an op result");
    assertThatThrownBy(() -> b.output("w"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is a WEIGHT");
    assertThatThrownBy(() -> b.output("nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no tensor 'nope'");
    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("graph 'g' has no output");
    b.op("r", OpKind.RELU, none(), "x");
    b.output("r").output("r");
    Graph g = b.build();
    assertThat(g.outputs()).containsExactly("r");
    assertThat(g.tensor("r").role()).isEqualTo(Role.OUTPUT);
  }

  @Test
  void unknownLookupsNameTheGraph() {
    Graph g = small();
    assertThatThrownBy(() -> g.tensor("nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("graph 'small' has no tensor 'nope'");
    assertThatThrownBy(() -> g.op("nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("graph 'small' has no op 'nope'");
    Op stranger = new Op("relu", OpKind.RELU, none(), List.of("x"), List.of("relu2"));
    assertThatThrownBy(() -> g.indexOf(stranger)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void unknownOpKindNamesTheName() {
    assertThat(OpKind.parse("conv")).isEqualTo(OpKind.CONV);
    assertThat(OpKind.parse("BatchNormalization")).isEqualTo(OpKind.BATCH_NORMALIZATION);
    assertThatThrownBy(() -> OpKind.parse("FancyOp"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown op kind 'FancyOp'");
  }
}
