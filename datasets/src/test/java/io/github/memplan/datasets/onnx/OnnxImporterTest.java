package io.github.memplan.datasets.onnx;

import static io.github.memplan.datasets.onnx.OnnxModels.constant;
import static io.github.memplan.datasets.onnx.OnnxModels.floatConstant;
import static io.github.memplan.datasets.onnx.OnnxModels.graphAttr;
import static io.github.memplan.datasets.onnx.OnnxModels.intAttr;
import static io.github.memplan.datasets.onnx.OnnxModels.ints;
import static io.github.memplan.datasets.onnx.OnnxModels.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import io.github.memplan.core.io.SparseFiles;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Shape;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The importer on small hand-built models, one edge case of models.md §3 at a time. */
class OnnxImporterTest {

  private static Graph load(ModelProto m, Map<String, long[]> shapes) {
    return OnnxImporter.importModel(m, "model.onnx", shapes, Map.of(), "m").graph();
  }

  private static Graph load(ModelProto m) {
    return load(m, Map.of());
  }

  private static List<String> opNames(Graph g) {
    return g.ops().stream().map(Op::name).toList();
  }

  @Nested
  class OrderAndWeights {
    @Test
    void nodesAreSortedAndWeightsComeFromInitializersAndConstantNodes() {
      // the Relu is written before the Conv that produces its input
      ModelProto m =
          new OnnxModels(13)
              .input("x", DType.F32, 1L, 3L, 8L, 8L)
              .weight("w", 4, 3, 3, 3)
              .node(floatConstant("b", 4))
              .node("Relu", "relu", List.of("c"), List.of("r"))
              .node("Conv", "conv", List.of("x", "w", "b"), List.of("c"), ints("pads", 1, 1, 1, 1))
              .output("r")
              .build();
      Graph g = load(m);
      assertThat(opNames(g)).containsExactly("conv", "relu");
      assertThat(g.tensor("c").shape()).isEqualTo(Shape.of(1, 4, 8, 8));
      assertThat(g.tensor("w").role()).isEqualTo(Role.WEIGHT);
      assertThat(g.tensor("b").role()).isEqualTo(Role.WEIGHT);
      // 4*3*3*3 + 4
      assertThat(g.parameterCount()).isEqualTo(112);
    }

    @Test
    void scalarsAndIntegerTensorsAreConstants() {
      // Gather(embedding, ids) with int64 ids; Div by a scalar; Pow with a rank-0 exponent
      ModelProto m =
          new OnnxModels(13)
              .weight("emb", 10, 4)
              .ints("ids", new long[] {1, 3}, 0, 1, 2)
              .node(floatConstant("scale"))
              .node("Gather", "gather", List.of("emb", "ids"), List.of("e"))
              .node("Div", "div", List.of("e", "scale"), List.of("y"))
              .output("y")
              .build();
      Graph g = load(m);
      assertThat(g.tensor("emb").role()).isEqualTo(Role.WEIGHT);
      assertThat(g.tensor("ids").role()).isEqualTo(Role.CONSTANT);
      assertThat(g.tensor("scale").role()).isEqualTo(Role.CONSTANT);
      assertThat(g.parameterCount()).isEqualTo(40);
      assertThat(g.tensor("y").shape()).isEqualTo(Shape.of(1, 3, 4));
    }

    @Test
    void theRoleRule() {
      assertThat(ImportPipeline.storedRole(DType.F32, new long[] {384})).isEqualTo(Role.WEIGHT);
      assertThat(ImportPipeline.storedRole(DType.F16, new long[] {1})).isEqualTo(Role.WEIGHT);
      assertThat(ImportPipeline.storedRole(DType.I8, new long[] {384, 384})).isEqualTo(Role.WEIGHT);
      assertThat(ImportPipeline.storedRole(DType.U8, new long[] {30522, 384}))
          .isEqualTo(Role.WEIGHT);
      assertThat(ImportPipeline.storedRole(DType.F32, new long[0])).isEqualTo(Role.CONSTANT);
      assertThat(ImportPipeline.storedRole(DType.U8, new long[0])).isEqualTo(Role.CONSTANT);
      assertThat(ImportPipeline.storedRole(DType.I64, new long[] {1, 512}))
          .isEqualTo(Role.CONSTANT);
      assertThat(ImportPipeline.storedRole(DType.I32, new long[] {4})).isEqualTo(Role.CONSTANT);
      assertThat(ImportPipeline.storedRole(DType.BOOL, new long[] {8})).isEqualTo(Role.CONSTANT);
    }

    @Test
    void cyclesAndUndefinedInputsNameTheNode() {
      ModelProto cycle =
          new OnnxModels(13)
              .input("x", DType.F32, 2L)
              .node("Add", "a", List.of("x", "q"), List.of("p"))
              .node("Relu", "r", List.of("p"), List.of("q"))
              .output("q")
              .build();
      assertThatThrownBy(() -> load(cycle))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("model.onnx: node 'a' (Add) is part of a cycle");
      ModelProto undefined =
          new OnnxModels(13)
              .input("x", DType.F32, 2L)
              .node("Add", "a", List.of("x", "nowhere"), List.of("p"))
              .output("p")
              .build();
      assertThatThrownBy(() -> load(undefined))
          .hasMessage(
              "model.onnx: node 'a' (Add) reads 'nowhere', which nothing defines before it");
    }
  }

  @Nested
  class Folding {
    /** BERT's Reshape target: Shape, Gather, Unsqueeze, Concat. */
    @Test
    void shapeSubGraphsBecomeAttributes() {
      ModelProto m =
          new OnnxModels(13)
              .input("x", DType.F32, "batch", "seq", 8L)
              .node("Shape", "shape", List.of("x"), List.of("s"))
              .node(constant("i0", new long[0], 0))
              .node(constant("i1", new long[0], 1))
              .node(constant("ax", new long[] {1}, 0))
              .node(constant("tail", new long[] {2}, 2, 4))
              .node("Gather", "g0", List.of("s", "i0"), List.of("b"))
              .node("Gather", "g1", List.of("s", "i1"), List.of("t"))
              .node("Unsqueeze", "u0", List.of("b", "ax"), List.of("ub"))
              .node("Unsqueeze", "u1", List.of("t", "ax"), List.of("ut"))
              .node(
                  "Concat",
                  "cat",
                  List.of("ub", "ut", "tail"),
                  List.of("target"),
                  intAttr("axis", 0))
              .node("Reshape", "reshape", List.of("x", "target"), List.of("y"))
              .output("y")
              .build();
      Graph g = load(m, Map.of("x", new long[] {1, 5, 8}));
      assertThat(opNames(g)).containsExactly("reshape");
      assertThat(g.op("reshape").attributes().getInts("shape", null)).containsExactly(1, 5, 2, 4);
      assertThat(g.tensor("y").shape()).isEqualTo(Shape.of(1, 5, 2, 4));
      assertThat(g.tensors()).doesNotContainKeys("s", "target", "tail");
    }

    /** ISNet's Resize sizes: Shape of another tensor, Slice, Concat. */
    @Test
    void resizeSizesFromAnotherTensorsShape() {
      ModelProto m =
          new OnnxModels(13)
              .input("x", DType.F32, 1L, 4L, 8L, 8L)
              .input("skip", DType.F32, 1L, 4L, 16L, 16L)
              .node("Shape", "shape", List.of("skip"), List.of("s"))
              .node(constant("st", new long[] {1}, 2))
              .node(constant("en", new long[] {1}, 4))
              .node(constant("nc", new long[] {2}, 1, 4))
              .node("Slice", "slice", List.of("s", "st", "en"), List.of("hw"))
              .node("Concat", "cat", List.of("nc", "hw"), List.of("sizes"), intAttr("axis", 0))
              .node("Resize", "up", List.of("x", "", "", "sizes"), List.of("y"))
              .node("Add", "add", List.of("y", "skip"), List.of("z"))
              .output("z")
              .build();
      Graph g = load(m);
      assertThat(opNames(g)).containsExactly("up", "add");
      assertThat(g.op("up").attributes().getInts("sizes", null)).containsExactly(1, 4, 16, 16);
      assertThat(g.op("up").inputs()).containsExactly("x");
    }

    @Test
    void multiOutputSplitTakesItsSizesFromAConstantInput() {
      ModelProto m =
          new OnnxModels(13)
              .input("x", DType.F32, 1L, 6L)
              .ints("split", new long[] {2}, 2, 4)
              .node("Split", "split", List.of("x", "split"), List.of("p", "q"), intAttr("axis", 1))
              .node("Concat", "cat", List.of("q", "p"), List.of("y"), intAttr("axis", 1))
              .output("y")
              .build();
      Graph g = load(m);
      assertThat(g.op("split").outputs()).containsExactly("p", "q");
      assertThat(g.tensor("p").shape()).isEqualTo(Shape.of(1, 2));
      assertThat(g.tensor("q").shape()).isEqualTo(Shape.of(1, 4));
      assertThat(g.tensors()).doesNotContainKey("split");
    }

    @Test
    void aFoldedValueReadAsDataIsAConstant() {
      ModelProto m =
          new OnnxModels(13)
              .input("x", DType.F32, 2L, 3L)
              .node(constant("dims", new long[] {2}, 2, 3))
              .node("ConstantOfShape", "zeros", List.of("dims"), List.of("z"))
              .node("Add", "add", List.of("x", "z"), List.of("y"))
              .output("y")
              .build();
      Graph g = load(m);
      assertThat(opNames(g)).containsExactly("add");
      assertThat(g.tensor("z").role()).isEqualTo(Role.CONSTANT);
      assertThat(g.tensor("z").type().toString()).isEqualTo("f32[2x3]");
    }

    @Test
    void aConstantGraphOutputIsCopiedIntoPlace() {
      ModelProto m =
          new OnnxModels(13)
              .input("x", DType.F32, 2L, 3L)
              .node("Shape", "shape", List.of("x"), List.of("s"))
              .output("s")
              .build();
      Graph g = load(m);
      assertThat(g.op("s").kind()).isEqualTo(OpKind.IDENTITY);
      assertThat(g.op("s").inputs()).containsExactly("s/value");
      assertThat(g.tensor("s").type().toString()).isEqualTo("i64[2]");
      assertThat(g.outputs()).containsExactly("s");
    }

    @Test
    void aRunTimeShapeOperandLeavesItsConsumersNonStatic() {
      ModelProto m =
          new OnnxModels(13)
              .input("x", DType.F32, 2L, 6L)
              .input("shape", DType.I64, 2L)
              .node("Reshape", "reshape", List.of("x", "shape"), List.of("y"))
              .node("Relu", "relu", List.of("y"), List.of("z"))
              .output("z")
              .build();
      assertThatThrownBy(() -> load(m))
          .isInstanceOfSatisfying(
              NonStaticShapesException.class,
              e -> assertThat(e.tensors()).containsExactly("y", "z"))
          .hasMessage(
              "model.onnx: 2 tensors have no static shape (node 'reshape' (Reshape) reads 'shape'"
                  + " as a constant operand, but it is computed at run time): 'y', 'z'");
    }
  }

  @Nested
  class DynamicDims {
    private ModelProto fourSpellings() {
      return new OnnxModels(13)
          .input("a", DType.F32, "batch", 3L)
          .input("b", DType.F32, -1L, 3L)
          .input("c", DType.F32, 0L, 3L)
          .input("d", DType.F32, null, 3L)
          .node("Add", "ab", List.of("a", "b"), List.of("ab"))
          .node("Add", "cd", List.of("c", "d"), List.of("cd"))
          .node("Add", "out", List.of("ab", "cd"), List.of("out"))
          .output("out")
          .build();
    }

    @Test
    void dimParamMinusOneZeroAndMissingAreAllDynamic() {
      assertThatThrownBy(() -> load(fourSpellings()))
          .isInstanceOfSatisfying(
              NonStaticShapesException.class,
              e -> {
                assertThat(e.tensors()).containsExactly("a", "b", "c", "d", "ab", "cd", "out");
                // every input at once, with the declared dim kept in the example
                assertThat(e.dynamicInputs())
                    .extracting(NonStaticShapesException.DynamicInput::name)
                    .containsExactly("a", "b", "c", "d");
                assertThat(e.dynamicInputs().get(3).example("D")).isEqualTo("d=D0,3");
                assertThat(e.source()).isEqualTo("model.onnx");
              })
          .hasMessageStartingWith(
              "model.onnx: 7 tensors have no static shape (inputs 'a' (?x3), 'b' (?x3), 'c' (?x3)"
                  + " and 'd' (?x3) have dynamic dims; give their shapes, e.g. a=d0,3 b=d0,3"
                  + " c=d0,3 d=d0,3)");
      // with three fixed, the one left is named alone
      long[] s = {2, 3};
      assertThatThrownBy(() -> load(fourSpellings(), Map.of("a", s, "b", s, "c", s)))
          .hasMessageStartingWith(
              "model.onnx: 3 tensors have no static shape (input 'd' has dynamic dims ?x3; give"
                  + " its shape, e.g. d=d0,3)");
    }

    @Test
    void inputShapesMakeThemStatic() {
      long[] s = {2, 3};
      Graph g = load(fourSpellings(), Map.of("a", s, "b", s, "c", s, "d", s));
      assertThat(g.tensor("out").shape()).isEqualTo(Shape.of(2, 3));
      assertThat(g.inputs()).containsExactly("a", "b", "c", "d");
    }

    @Test
    void inputShapesMustFitTheDeclaration() {
      ModelProto m = fourSpellings();
      assertThatThrownBy(() -> load(m, Map.of("e", new long[] {1})))
          .hasMessage(
              "model.onnx: an input shape is given for 'e', which is not a graph input (inputs: a,"
                  + " b, c, d)");
      assertThatThrownBy(() -> load(m, Map.of("a", new long[] {2, 3, 1})))
          .hasMessage("model.onnx: input 'a' has rank 2 but the input shape [2, 3, 1] has rank 3");
      assertThatThrownBy(() -> load(m, Map.of("a", new long[] {2, 4})))
          .hasMessage("model.onnx: input 'a' declares dim 1 = 3 but the input shape gives 4");
    }

    @Test
    void parsesInputShapeSpecs() {
      Map<String, long[]> s =
          OnnxImporter.parseInputShapes(" input_ids=1,128 attention_mask=1,128;x=1,3,640,640 s=");
      assertThat(s.keySet()).containsExactly("input_ids", "attention_mask", "x", "s");
      assertThat(s.get("x")).containsExactly(1, 3, 640, 640);
      assertThat(s.get("s")).isEmpty();
      assertThatThrownBy(() -> OnnxImporter.parseInputShapes("x:1,2"))
          .hasMessageContaining("should be name=d0,d1,...");
      assertThatThrownBy(() -> OnnxImporter.parseInputShapes("x=1,a"))
          .hasMessageContaining("not an integer");
      assertThatThrownBy(() -> OnnxImporter.parseInputShapes("x=1 x=2"))
          .hasMessageContaining("given twice");
    }

    @Test
    void parsesInputValueSpecs() {
      Map<String, List<String>> v = OnnxImporter.parseInputValues("sr=16000 mask=1,0,1;e=");
      assertThat(v.keySet()).containsExactly("sr", "mask", "e");
      assertThat(v.get("sr")).containsExactly("16000");
      assertThat(v.get("mask")).containsExactly("1", "0", "1");
      assertThat(v.get("e")).isEmpty();
      assertThatThrownBy(() -> OnnxImporter.parseInputValues("16000"))
          .hasMessage("input value '16000' should be name=v0,v1,... (e.g. sr=16000)");
      assertThatThrownBy(() -> OnnxImporter.parseInputValues("sr=1 sr=2"))
          .hasMessage("input value of 'sr' is given twice");
    }
  }

  @Nested
  class ControlFlow {
    private GraphProto branch(String op, String node, String out) {
      return GraphProto.newBuilder()
          .setName(node)
          .addNode(node(op, node, "", List.of("x"), List.of(out)))
          .addOutput(OnnxModels.valueInfo(out, DType.F32))
          .build();
    }

    private OnnxModels ifModel(String cond, String ifOutput) {
      return new OnnxModels(16)
          .input("x", DType.F32, 2L, 3L)
          .node(
              "If",
              "if",
              List.of(cond),
              List.of(ifOutput),
              graphAttr("then_branch", branch("Relu", "then_relu", "t")),
              // an op memplan does not know, in the branch not taken
              graphAttr("else_branch", branch("FancyOp", "else_fancy", "e")));
    }

    @Test
    void anIfWithAConstantConditionIsReplacedByItsTakenBranch() {
      // Silero's pattern: the condition compares a constant sample rate with 16000
      ModelProto m =
          ifModel("cond", "y")
              .node(constant("sr", new long[0], 16000))
              .node(constant("k", new long[0], 16000))
              .node("Equal", "eq", List.of("sr", "k"), List.of("cond"))
              .node("Sigmoid", "sig", List.of("y"), List.of("z"))
              .output("z")
              .build();
      Graph g = load(m);
      assertThat(opNames(g)).containsExactly("then_relu", "sig");
      assertThat(g.op("sig").inputs()).containsExactly("t");
    }

    @Test
    void anIfOutputThatIsAGraphOutputKeepsItsName() {
      ModelProto m =
          ifModel("cond", "y")
              .node(
                  node(
                      "Constant",
                      "c",
                      "",
                      List.of(),
                      List.of("cond"),
                      OnnxModels.tensorAttr("value", boolScalar(true))))
              .output("y")
              .build();
      Graph g = load(m);
      assertThat(g.outputs()).containsExactly("y");
      assertThat(g.producer("y").orElseThrow().kind()).isEqualTo(OpKind.IDENTITY);
      assertThat(g.producer("t").orElseThrow().name()).isEqualTo("then_relu");
    }

    @Test
    void anIfWithARunTimeConditionIsUnsupported() {
      ModelProto m = ifModel("c", "y").input("c", DType.BOOL).output("y").build();
      assertThatThrownBy(() -> load(m))
          .isInstanceOf(UnsupportedOnnxException.class)
          .hasMessage(
              "model.onnx: node 'if' (If): condition 'c' is computed at run time; memplan inlines"
                  + " only an If whose condition is constant (it depends on input 'c')");
    }

    /** Silero VAD's pattern on an input: If (sr == 16000) then Relu(x) else Sigmoid(x). */
    private ModelProto ifOnInput() {
      return new OnnxModels(16)
          .input("x", DType.F32, 2L, 3L)
          .input("sr", DType.I64)
          .node(constant("k", new long[0], 16000))
          .node("Equal", "eq", List.of("sr", "k"), List.of("cond"))
          .node(
              "If",
              "if",
              List.of("cond"),
              List.of("y"),
              graphAttr("then_branch", branch("Relu", "then_relu", "t")),
              graphAttr("else_branch", branch("Sigmoid", "else_sigmoid", "e")))
          .node("Neg", "neg", List.of("y"), List.of("z"))
          .output("z")
          .build();
    }

    private Graph withValues(Path dir, ModelProto m, Map<String, List<String>> values)
        throws IOException {
      Path file = dir.resolve("vad.onnx");
      Files.write(file, m.toByteArray());
      return OnnxImporter.load(file, Map.of(), values);
    }

    @Test
    void anInputValueFoldsAnIfThatDependsOnTheInput(@TempDir Path dir) throws IOException {
      ModelProto m = ifOnInput();
      assertThatThrownBy(() -> withValues(dir, m, Map.of()))
          .isInstanceOfSatisfying(
              RunTimeConditionException.class, e -> assertThat(e.inputs()).containsExactly("sr"))
          .hasMessageEndingWith(
              "node 'if' (If): condition 'cond' is computed at run time; memplan inlines only an"
                  + " If whose condition is constant (it depends on input 'sr')");
      // 16000 == 16000: the then branch; 8000: the else branch
      Graph g16 = withValues(dir, m, Map.of("sr", List.of("16000")));
      assertThat(opNames(g16)).containsExactly("then_relu", "neg");
      Graph g8 = withValues(dir, m, Map.of("sr", List.of("8000")));
      assertThat(opNames(g8)).containsExactly("else_sigmoid", "neg");
      // the input stays an input of the graph
      assertThat(g8.inputs()).containsExactly("x", "sr");
    }

    @Test
    void aConditionTheFolderCannotComputeNamesNoInput() {
      // openWakeWord's verifier pattern: If (Sigmoid(p) > 0) on the model's own score; the folder
      // does not evaluate Sigmoid, so a value for p would not fold it: no input is named
      ModelProto m =
          ifModel("cond", "y")
              .input("p", DType.F32)
              .node(floatConstant("zero"))
              .node("Sigmoid", "sig", List.of("p"), List.of("s"))
              .node("Greater", "gt", List.of("s", "zero"), List.of("cond"))
              .output("y")
              .build();
      assertThatThrownBy(() -> load(m))
          .isInstanceOfSatisfying(
              RunTimeConditionException.class, e -> assertThat(e.inputs()).isEmpty())
          .hasMessageEndingWith("memplan inlines only an If whose condition is constant");
    }

    @Test
    void inputValuesMustFitTheirInput(@TempDir Path dir) {
      ModelProto m = ifOnInput();
      String file = dir.resolve("vad.onnx").toString();
      assertThatThrownBy(() -> withValues(dir, m, Map.of("rate", List.of("1"))))
          .hasMessage(
              file
                  + ": a value is given for 'rate', which is not a tensor graph input (inputs: x,"
                  + " sr)");
      assertThatThrownBy(() -> withValues(dir, m, Map.of("sr", List.of("8000", "16000"))))
          .hasMessage(file + ": input 'sr' has shape [], which takes 1 values; 2 given");
      assertThatThrownBy(() -> withValues(dir, m, Map.of("sr", List.of("16k"))))
          .hasMessage(file + ": input 'sr': value '16k' is not an integer (the input is I64)");
      // x is F32 [2, 3]: six values in row-major order
      assertThatThrownBy(() -> withValues(dir, m, Map.of("x", List.of("1", "2", "3"))))
          .hasMessage(file + ": input 'x' has shape [2, 3], which takes 6 values; 3 given");
      assertThatThrownBy(
              () -> withValues(dir, m, Map.of("x", List.of("1", "2", "3", "4", "5", "pi"))))
          .hasMessage(file + ": input 'x': value 'pi' is not a F32 number");
    }

    @Test
    void aValueOutOfItsTypesRangeIsRefused() {
      ModelProto m =
          new OnnxModels(13)
              .input("b", DType.U8, 2L)
              .node("Cast", "c", List.of("b"), List.of("y"), intAttr("to", 1))
              .output("y")
              .build();
      Map<String, long[]> shapes = new java.util.HashMap<>();
      assertThatThrownBy(
              () ->
                  OnnxImporter.bindValues(
                      m, "model.onnx", shapes, Map.of("b", List.of("255", "256"))))
          .hasMessage("model.onnx: input 'b': value 256 is out of the range of U8");
      OnnxValue v =
          OnnxImporter.bindValues(m, "model.onnx", shapes, Map.of("b", List.of("0", "255")))
              .get("b");
      assertThat(v.longs()).containsExactly(0, 255);
    }

    @Test
    void aDynamicVectorInputTakesTheLengthOfItsValue() {
      // a rank-1 input with a dynamic dim: three values make it [3], and its shape is recorded
      ModelProto m =
          new OnnxModels(13)
              .input("v", DType.I64, "n")
              .node("Neg", "neg", List.of("v"), List.of("y"))
              .output("y")
              .build();
      Map<String, long[]> shapes = new java.util.HashMap<>();
      OnnxValue v =
          OnnxImporter.bindValues(m, "model.onnx", shapes, Map.of("v", List.of("1", "2", "3")))
              .get("v");
      assertThat(v.dims()).containsExactly(3);
      assertThat(shapes.get("v")).containsExactly(3);
    }

    private static ai.onnx.proto.OnnxMl.TensorProto boolScalar(boolean v) {
      return ai.onnx.proto.OnnxMl.TensorProto.newBuilder()
          .setDataType(DType.BOOL.onnxCode())
          .addInt32Data(v ? 1 : 0)
          .build();
    }
  }

  /**
   * DepthToSpace (opset 11+: blocksize and mode; opset 1: blocksize, DCR implied): x [1, 18, 2, 4]
   * with blocksize 3 gives [1, 18/9, 2·3, 4·3] = [1, 2, 6, 12] in either mode; 18 channels with
   * blocksize 4 (16 per output channel) are refused naming the node.
   */
  @Test
  void depthToSpaceInBothModes() {
    for (String mode : List.of("DCR", "CRD")) {
      Graph g = load(depthToSpace(13, 3, OnnxModels.stringAttr("mode", mode)));
      assertThat(g.op("d2s").kind()).isEqualTo(OpKind.DEPTH_TO_SPACE);
      assertThat(g.op("d2s").attributes().getString("mode", "")).isEqualTo(mode);
      assertThat(g.tensor("y").shape()).as(mode).isEqualTo(Shape.of(1, 2, 6, 12));
    }
    assertThat(load(depthToSpace(1, 3)).tensor("y").shape()).isEqualTo(Shape.of(1, 2, 6, 12));
    assertThatThrownBy(() -> load(depthToSpace(13, 4)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("model.onnx: node 'd2s' (DepthToSpace)")
        .hasMessageContaining("18 channels, not a multiple of blocksize² = 16");
  }

  /** One DepthToSpace node 'd2s' of x [1, 18, 2, 4] into y. */
  private static ModelProto depthToSpace(int opset, long blocksize, AttributeProto... more) {
    AttributeProto[] attrs = new AttributeProto[more.length + 1];
    attrs[0] = intAttr("blocksize", blocksize);
    System.arraycopy(more, 0, attrs, 1, more.length);
    return new OnnxModels(opset)
        .input("x", DType.F32, 1L, 18L, 2L, 4L)
        .node("DepthToSpace", "d2s", List.of("x"), List.of("y"), attrs)
        .output("y")
        .build();
  }

  @Nested
  class Recurrent {
    /** seq 5, batch 2, input 3, hidden 4 (gates 16) in {@code dirs} directions. */
    private OnnxModels lstmWeights(int opset, long dirs) {
      return new OnnxModels(opset)
          .weight("W", dirs, 16, 3)
          .weight("R", dirs, 16, 4)
          .weight("B", dirs, 32);
    }

    /** {@code base} with an LSTM node 'lstm' of hidden size 4 and its named outputs as outputs. */
    private ModelProto lstm(
        OnnxModels base, List<String> in, List<String> out, AttributeProto... extra) {
      List<AttributeProto> attrs = new java.util.ArrayList<>(List.of(intAttr("hidden_size", 4)));
      attrs.addAll(List.of(extra));
      base.node("LSTM", "lstm", in, out, attrs.toArray(AttributeProto[]::new));
      out.stream().filter(o -> !o.isEmpty()).forEach(base::output);
      return base.build();
    }

    @Test
    void aPlainLstmDefinesYAsTheSpecSays() {
      // Y [seq_length 5, num_directions 1, batch_size 2, hidden_size 4]
      ModelProto m =
          lstm(
              lstmWeights(13, 1).input("X", DType.F32, 5L, 2L, 3L),
              List.of("X", "W", "R", "B"),
              List.of("Y"));
      Graph g = load(m);
      Op lstm = g.op("lstm");
      assertThat(lstm.kind()).isEqualTo(OpKind.LSTM);
      assertThat(lstm.inputs()).containsExactly("X", "W", "R", "B");
      assertThat(lstm.attributes().has("optional_inputs")).isFalse();
      assertThat(g.tensor("Y").shape()).isEqualTo(Shape.of(5, 1, 2, 4));
      // W 1x16x3 + R 1x16x4 + B 1x32
      assertThat(g.parameterCount()).isEqualTo(48 + 64 + 32);
    }

    @Test
    void aBidirectionalBatchFirstLstm() {
      // layout 1 (opset 14): X [batch 2, seq 5, input 3]; Y [batch 2, seq 5, dirs 2, hidden 4]
      ModelProto m =
          lstm(
              lstmWeights(14, 2).input("X", DType.F32, 2L, 5L, 3L),
              List.of("X", "W", "R", "B"),
              List.of("Y"),
              intAttr("layout", 1),
              OnnxModels.stringAttr("direction", "bidirectional"));
      assertThat(load(m).tensor("Y").shape()).isEqualTo(Shape.of(2, 5, 2, 4));
    }

    @Test
    void pytorchsStatefulLstmImportsWithItsStates() {
      // Silero VAD's pattern: X, W, R, B, "", initial_h, initial_c -> Y, Y_h, Y_c. The states
      // are [dirs 1, batch 2, hidden 4]; the operands after R are ONNX inputs 3, 5 and 6.
      ModelProto m =
          lstm(
              lstmWeights(13, 1)
                  .input("X", DType.F32, 5L, 2L, 3L)
                  .input("h0", DType.F32, 1L, 2L, 4L)
                  .input("c0", DType.F32, 1L, 2L, 4L),
              List.of("X", "W", "R", "B", "", "h0", "c0"),
              List.of("Y", "Y_h", "Y_c"));
      Graph g = load(m);
      Op lstm = g.op("lstm");
      assertThat(lstm.inputs()).containsExactly("X", "W", "R", "B", "h0", "c0");
      assertThat(lstm.attributes().getInts("optional_inputs", null)).containsExactly(3, 5, 6);
      assertThat(lstm.outputs()).containsExactly("Y", "Y_h", "Y_c");
      assertThat(g.tensor("Y").shape()).isEqualTo(Shape.of(5, 1, 2, 4));
      assertThat(g.tensor("Y_h").shape()).isEqualTo(Shape.of(1, 2, 4));
      assertThat(g.tensor("Y_c").shape()).isEqualTo(Shape.of(1, 2, 4));
    }

    @Test
    void sequenceLengthsAndPeepholesAreOperands() {
      // no B: sequence_lens (I32 [batch 2]) and P ([dirs 1, 3*4]) are ONNX inputs 4 and 7
      ModelProto m =
          lstm(
              new OnnxModels(13)
                  .weight("W", 1, 16, 3)
                  .weight("R", 1, 16, 4)
                  .weight("P", 1, 12)
                  .input("X", DType.F32, 5L, 2L, 3L)
                  .input("lens", DType.I32, 2L),
              List.of("X", "W", "R", "", "lens", "", "", "P"),
              List.of("Y", "", "Y_c"));
      Graph g = load(m);
      Op lstm = g.op("lstm");
      assertThat(lstm.inputs()).containsExactly("X", "W", "R", "lens", "P");
      assertThat(lstm.attributes().getInts("optional_inputs", null)).containsExactly(4, 7);
      // Y_h is not named: the op defines Y and Y_c, ONNX outputs 0 and 2
      assertThat(lstm.outputs()).containsExactly("Y", "Y_c");
      assertThat(lstm.attributes().getInts("optional_outputs", null)).containsExactly(0, 2);
      assertThat(g.tensor("Y_c").shape()).isEqualTo(Shape.of(1, 2, 4));
    }

    @Test
    void anLstmThatNamesOnlyYhDefinesOnlyYh() {
      // ONNX's own backend tests (test_lstm_defaults): outputs "", Y_h. Y_h [dirs 1, batch 2, 4]
      ModelProto m =
          lstm(
              lstmWeights(13, 1).input("X", DType.F32, 5L, 2L, 3L),
              List.of("X", "W", "R", "B"),
              List.of("", "Y_h"));
      Graph g = load(m);
      assertThat(g.op("lstm").outputs()).containsExactly("Y_h");
      assertThat(g.op("lstm").attributes().getInts("optional_outputs", null)).containsExactly(1);
      assertThat(g.tensor("Y_h").shape()).isEqualTo(Shape.of(1, 2, 4));
    }

    @Test
    void misshapenStatesAndTooManyOperandsNameTheNode() {
      ModelProto badState =
          lstm(
              lstmWeights(13, 1)
                  .input("X", DType.F32, 5L, 2L, 3L)
                  .input("h0", DType.F32, 2L, 1L, 4L),
              List.of("X", "W", "R", "B", "", "h0"),
              List.of("Y"));
      assertThatThrownBy(() -> load(badState))
          .isNotInstanceOf(UnsupportedOnnxException.class)
          .hasMessage(
              "model.onnx: node 'lstm' (LSTM): initial_h 2x1x4 must be 1x2x4 (dirs, batch,"
                  + " hidden_size)");
      ModelProto nine =
          lstm(
              lstmWeights(13, 1).input("X", DType.F32, 5L, 2L, 3L),
              List.of("X", "W", "R", "B", "", "", "", "", "X"),
              List.of("Y"));
      assertThatThrownBy(() -> load(nine))
          .hasMessage("model.onnx: node 'lstm' (LSTM): has 9 inputs; LSTM takes at most 8");
    }
  }

  @Nested
  class Failures {
    @Test
    void unknownOpsNameTheNodeOnOneLine() {
      ModelProto m =
          new OnnxModels(13)
              .input("x", DType.F32, 2L)
              .node("Foo", "Foo_3", List.of("x"), List.of("y"))
              .output("y")
              .build();
      assertThatThrownBy(() -> load(m))
          .isInstanceOf(UnsupportedOnnxException.class)
          .hasMessage("model.onnx: node 'Foo_3' (Foo): memplan neither models nor folds Foo");
    }

    @Test
    void shapeErrorsNameTheNode() {
      ModelProto m =
          new OnnxModels(13)
              .input("x", DType.F32, 1L, 3L, 8L, 8L)
              .weight("w", 4, 2, 3, 3)
              .node("Conv", "Conv_12", List.of("x", "w"), List.of("y"))
              .output("y")
              .build();
      assertThatThrownBy(() -> load(m))
          .isNotInstanceOf(UnsupportedOnnxException.class)
          .hasMessageStartingWith(
              "model.onnx: node 'Conv_12' (Conv): input channels 3 != weight channels*group 2")
          .hasMessageNotContaining("\n");
    }

    @Test
    void otherDomainsAreToleratedUntilALiveNodeUsesOne() {
      OnnxModels base =
          new OnnxModels(13)
              .opset("com.microsoft", 1)
              .opset("ai.onnx.ml", 3)
              .input("x", DType.F32, 2L)
              .node("Relu", "relu", List.of("x"), List.of("y"))
              .output("y");
      assertThat(opNames(load(base.build()))).containsExactly("relu");
      // a dead node of another domain is dropped with the rest of the dead code
      ModelProto dead =
          base.node(node("FusedGemm", "fg", "com.microsoft", List.of("x"), List.of("unused")))
              .build();
      assertThat(opNames(load(dead))).containsExactly("relu");
      ModelProto live =
          new OnnxModels(13)
              .opset("com.microsoft", 1)
              .input("x", DType.F32, 2L)
              .node(node("FusedGemm", "fg", "com.microsoft", List.of("x"), List.of("y")))
              .output("y")
              .build();
      assertThatThrownBy(() -> load(live))
          .isInstanceOf(UnsupportedOnnxException.class)
          .hasMessage(
              "model.onnx: node 'fg' (FusedGemm): domain 'com.microsoft' is not supported (memplan"
                  + " models ai.onnx ops only)");
    }

    @Test
    void anOptionalOutputMemplanDoesNotModelMayNotBeUsed() {
      // Dropout's mask: inference memplan models Dropout as Identity
      OnnxModels m =
          new OnnxModels(13)
              .input("x", DType.F32, 2L, 3L)
              .node("Dropout", "drop", List.of("x"), List.of("y", "mask"));
      Graph g = load(m.output("y").build());
      assertThat(g.op("drop").kind()).isEqualTo(OpKind.IDENTITY);
      assertThat(g.tensors()).doesNotContainKey("mask");
      assertThatThrownBy(() -> load(m.output("mask").build()))
          .isInstanceOf(UnsupportedOnnxException.class)
          .hasMessage("model.onnx: node 'drop' (Dropout): output 1 ('mask') is not modelled");
    }

    @Test
    void optionalOutputsThatAreNamedAreDefined() {
      ModelProto m =
          new OnnxModels(13)
              .input("x", DType.F32, 1L, 1L, 4L, 4L)
              .node(
                  "MaxPool",
                  "pool",
                  List.of("x"),
                  List.of("y", "idx"),
                  ints("kernel_shape", 2, 2),
                  ints("strides", 2, 2))
              .output("y")
              .build();
      Graph g = load(m);
      assertThat(g.op("pool").outputs()).containsExactly("y", "idx");
      assertThat(g.tensor("idx").type().toString()).isEqualTo("i64[1x1x2x2]");
    }
  }

  @Nested
  class Reading {
    @Test
    void loadsFromAFileAndFromAStream(@TempDir Path dir) throws IOException {
      ModelProto m =
          new OnnxModels(13)
              .input("x", DType.F32, "n", 4L)
              .weight("w", 4, 2)
              .node("MatMul", "mm", List.of("x", "w"), List.of("y"))
              .output("y")
              .build();
      Path file = dir.resolve("tiny.onnx");
      Files.write(file, m.toByteArray());
      Map<String, long[]> shapes = Map.of("x", new long[] {3, 4});
      Graph fromFile = OnnxImporter.load(file, shapes);
      assertThat(fromFile.name()).isEqualTo("tiny");
      assertThat(fromFile.tensor("y").shape()).isEqualTo(Shape.of(3, 2));
      Graph fromStream =
          OnnxImporter.load(new ByteArrayInputStream(m.toByteArray()), "dir/tiny.onnx", shapes);
      assertThat(fromStream.name()).isEqualTo("tiny");
      assertThat(fromStream.tensor("y").shape()).isEqualTo(Shape.of(3, 2));
      ImportedOnnxModel r = OnnxImporter.read(file, shapes, "named");
      assertThat(r.graph().name()).isEqualTo("named");
      assertThat(r.fileNodes()).isEqualTo(1);
    }

    /** A file past protobuf's int-indexed 2 GiB (sparse: nothing written) is refused unread. */
    @Test
    void aFileBeyondTwoGibIsRefused(@TempDir Path dir) throws IOException {
      Path big = SparseFiles.pastTwoGib(dir, "big.onnx");
      assertThatThrownBy(() -> OnnxImporter.load(big, Map.of()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(big + ": 2147483648 bytes is beyond protobuf's 2 GiB limit");
    }

    @Test
    void garbageIsNotAModel() {
      byte[] junk = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
      assertThatThrownBy(
              () -> OnnxImporter.load(new ByteArrayInputStream(junk), "junk.onnx", Map.of()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("junk.onnx: not a readable ONNX model");
    }
  }
}
