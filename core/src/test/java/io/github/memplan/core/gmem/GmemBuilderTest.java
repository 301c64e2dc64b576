package io.github.memplan.core.gmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.Program;
import io.github.memplan.core.dsa.Step;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** TPU-MLIR's GMEM rules on a five-op graph, worked by hand. */
class GmemBuilderTest {
  static final Chip BM = chip("bm-test", "bm168x", 4096);
  static final Chip CV = chip("cv-test", "cv18xx", 16);

  static Chip chip(String name, String family, long align) {
    return new Chip(
        name,
        family,
        64,
        1 << 18,
        16,
        1 << 14,
        64,
        align,
        align,
        512,
        1,
        OptionalDouble.empty(),
        OptionalDouble.empty(),
        OptionalDouble.empty(),
        "test");
  }

  /**
   * x[1,4,8,8] -> conv(w[4,4,3,3], b[4]) -> relu -> reshape[1,256] -> matmul(m[256,10]) -> y.
   * Steps: 0 Input x, 1 conv, 2 relu, 3 reshape (alias), 4 matmul, 5 Return.
   */
  static Graph graph() {
    Graph.Builder g = Graph.builder("tiny");
    g.input("x", DType.F32, 1, 4, 8, 8);
    g.weight("w", DType.F32, 4, 4, 3, 3);
    g.weight("b", DType.F32, 4);
    g.weight("m", DType.F32, 256, 10);
    g.op(
        "conv",
        OpKind.CONV,
        Attributes.builder()
            .put("kernel_shape", 3, 3)
            .put("pads", 1, 1, 1, 1)
            .put("strides", 1, 1)
            .build(),
        "x",
        "w",
        "b");
    g.op("relu", OpKind.RELU, Attributes.empty(), "conv");
    g.op("reshape", OpKind.RESHAPE, Attributes.builder().put("shape", 1, 256).build(), "relu");
    g.op("matmul", OpKind.MAT_MUL, Attributes.empty(), "reshape", "m");
    g.output("matmul");
    return g.build();
  }

  @Test
  void weightsAreStackedEachOnTheAlignment() {
    GmemProblem p = GmemBuilder.build(graph(), BM, GmemOptions.defaults());
    // w 576 B at 0, b 16 B at 4096, m 10240 B at 8192; region ends at align_up(18432) = 20480
    assertThat(p.weights().slots())
        .extracting(WeightSlot::tensor, WeightSlot::offset, WeightSlot::bytes)
        .containsExactly(tuple("w", 0L, 576L), tuple("b", 4096L, 16L), tuple("m", 8192L, 10240L));
    assertThat(p.weights().totalBytes()).isEqualTo(20480);
    assertThat(p.weights().rawBytes()).isEqualTo(576 + 16 + 10240);
  }

  @Test
  void lifetimesFollowUpdateLiveRangeOfBmOps() {
    DsaInstance a = GmemBuilder.build(graph(), BM, GmemOptions.defaults()).activations();
    // x lives forever; conv is read by relu (step 2); relu's range covers its reshape alias,
    // read by matmul at step 4; matmul is a graph output, read by Return at step 5.
    assertThat(a.buffers())
        .extracting(Buffer::id, Buffer::lower, Buffer::upper, Buffer::size, Buffer::alignment)
        .containsExactly(
            tuple("x", 0, 6, 4096L, 4096L),
            tuple("conv", 1, 3, 4096L, 4096L),
            tuple("relu", 2, 5, 4096L, 4096L),
            tuple("matmul", 4, 6, 4096L, 4096L));
    assertThat(a.program().bufferOf("reshape")).isEqualTo("relu");
    assertThat(a.program().steps().get(3).inPlace()).isTrue();
  }

  @Test
  void inputsCanDieAfterTheirLastUse() {
    DsaInstance a =
        GmemBuilder.build(graph(), BM, GmemOptions.defaults().withInputsLiveForever(false))
            .activations();
    assertThat(a.buffers().get(0)).extracting(Buffer::lower, Buffer::upper).containsExactly(0, 2);
  }

  @Test
  void cv18xxPadsToSixteenBytes() {
    GmemProblem p = GmemBuilder.build(graph(), CV, GmemOptions.defaults());
    assertThat(p.activations().buffers())
        .extracting(Buffer::size)
        .containsExactly(1024L, 1024L, 1024L, 48L);
    assertThat(p.weights().totalBytes()).isEqualTo(576 + 16 + 10240);
  }

  @Test
  void withoutAliasesReshapeGetsItsOwnBuffer() {
    DsaInstance a =
        GmemBuilder.build(graph(), BM, GmemOptions.defaults().withAliasKinds(java.util.Set.of()))
            .activations();
    assertThat(a.buffers())
        .extracting(Buffer::id)
        .containsExactly("x", "conv", "relu", "reshape", "matmul");
    assertThat(a.program().aliasOf()).isEmpty();
    assertThat(List.of(a.buffers().get(2).upper())).containsExactly(4);
  }

  // ---------------------------------------------------------------------------------------------
  // in-place Concat and Slice

  private static Attributes sliceAttrs(long start, long end, long axis) {
    return Attributes.builder().put("starts", start).put("ends", end).put("axes", axis).build();
  }

  private static Attributes axis(long a) {
    return Attributes.builder().put("axis", a).build();
  }

  /**
   * x[1,4,8,8] f32 (1024 B). Steps: 0 Input x, 1 c = Tanh(x) [1,4,8,8] 1024 B, 2 a = Relu(x), 3 s =
   * Slice(a, channels 1..3) [1,2,8,8] 512 B, 4 b = Sigmoid(s) 512 B, 5 cat = Concat(b, c, axis 1)
   * [1,6,8,8] 1536 B, 6 y = Relu(cat), 7 Return.
   */
  static Graph concatSliceGraph() {
    Graph.Builder g = Graph.builder("cat");
    g.input("x", DType.F32, 1, 4, 8, 8);
    g.op("c", OpKind.TANH, Attributes.empty(), "x");
    g.op("a", OpKind.RELU, Attributes.empty(), "x");
    g.op("s", OpKind.SLICE, sliceAttrs(1, 3, 1), "a");
    g.op("b", OpKind.SIGMOID, Attributes.empty(), "s");
    g.op("cat", OpKind.CONCAT, axis(1), "b", "c");
    g.op("y", OpKind.RELU, Attributes.empty(), "cat");
    g.output("y");
    return g.build();
  }

  /**
   * The Slice starts at channel 1 of a: 1 × 8 × 8 × 4 B = 256 B into a's buffer. The Concat's
   * buffer is b's (operand 0), sized by the Concat (1536 B); c sits after b's 512 B and cat at 0.
   * Lifetimes: a is defined at 2 and read through s by b at 4: [2, 5). The Concat's buffer starts
   * at c's definition (1), although b comes later (4), and ends after y reads cat at 6: [1, 7).
   */
  @Test
  void aMergedConcatIsOneBufferAndAFusedSliceAnOffsetAlias() {
    DsaInstance a = GmemBuilder.build(concatSliceGraph(), CV, GmemOptions.defaults()).activations();
    assertThat(a.buffers())
        .extracting(Buffer::id, Buffer::lower, Buffer::upper, Buffer::size)
        .containsExactly(
            tuple("x", 0, 8, 1024L),
            tuple("a", 2, 5, 1024L),
            tuple("b", 1, 7, 1536L),
            tuple("y", 6, 8, 1536L));
    Program p = a.program();
    assertThat(p.aliasOf())
        .containsExactlyInAnyOrderEntriesOf(Map.of("c", "b", "s", "a", "cat", "b"));
    assertThat(List.of(p.offsetOf("c"), p.offsetOf("s"), p.offsetOf("cat"), p.offsetOf("b")))
        .containsExactly(512L, 256L, 0L, 0L);
    assertThat(p.steps())
        .extracting(Step::name, Step::inPlace)
        .containsExactly(
            tuple("input:x", false),
            tuple("c", false),
            tuple("a", false),
            tuple("s", true),
            tuple("b", false),
            tuple("cat", true),
            tuple("y", false),
            tuple("return", false));
    assertThat(p.steps().get(5).inputs()).containsExactly("b", "c");
  }

  /** On BM168x the Concat's buffer is the Concat's 1536 B padded to 4 KiB, not b's 512 B. */
  @Test
  void theConcatBufferIsPaddedAsTheConcat() {
    DsaInstance a = GmemBuilder.build(concatSliceGraph(), BM, GmemOptions.defaults()).activations();
    assertThat(a.buffers()).extracting(Buffer::size).containsOnly(4096L);
    assertThat(a.program().offsetOf("c")).isEqualTo(512);
  }

  /** With both flags off every op gets its own buffer again, as before 2022. */
  @Test
  void theFlagsTurnConcatAndSliceBackIntoCopies() {
    GmemOptions off = GmemOptions.defaults().withInPlaceConcat(false).withInPlaceSlice(false);
    DsaInstance a = GmemBuilder.build(concatSliceGraph(), CV, off).activations();
    assertThat(a.buffers())
        .extracting(Buffer::id, Buffer::lower, Buffer::upper, Buffer::size)
        .containsExactly(
            tuple("x", 0, 8, 1024L),
            tuple("c", 1, 6, 1024L),
            tuple("a", 2, 4, 1024L),
            tuple("s", 3, 5, 512L),
            tuple("b", 4, 6, 512L),
            tuple("cat", 5, 7, 1536L),
            tuple("y", 6, 8, 1536L));
    assertThat(a.program().aliasOf()).isEmpty();
    assertThat(a.program().steps()).noneMatch(Step::inPlace);
  }

  /** Each flag alone: the Slice is fused while the Concat copies, and the other way round. */
  @Test
  void theFlagsAreIndependent() {
    DsaInstance sliceOnly =
        GmemBuilder.build(concatSliceGraph(), CV, GmemOptions.defaults().withInPlaceConcat(false))
            .activations();
    assertThat(sliceOnly.program().aliasOf()).containsOnlyKeys("s");
    DsaInstance concatOnly =
        GmemBuilder.build(concatSliceGraph(), CV, GmemOptions.defaults().withInPlaceSlice(false))
            .activations();
    assertThat(concatOnly.program().aliasOf()).containsOnlyKeys("c", "cat");
  }

  private static Graph oneConcat(long axis, long[] dims, boolean extraUse) {
    Graph.Builder g = Graph.builder("concat-rule");
    g.input("x", DType.F32, dims);
    g.op("p", OpKind.RELU, Attributes.empty(), "x");
    g.op("q", OpKind.TANH, Attributes.empty(), "x");
    g.op("cat", OpKind.CONCAT, axis(axis), "p", "q");
    if (extraUse) {
      g.op("z", OpKind.RELU, Attributes.empty(), "q");
      g.output("cat");
      g.output("z");
    } else {
      g.output("cat");
    }
    return g.build();
  }

  private static Map<String, String> aliases(Graph g) {
    return GmemBuilder.build(g, CV, GmemOptions.defaults()).activations().program().aliasOf();
  }

  @Test
  void aConcatMergesOnlyWhenItsOperandsAreContiguousAndPrivate() {
    // axis 1 of [1,4,8,8]: outer dims 1 -> merged (the output may be a graph output)
    assertThat(aliases(oneConcat(1, new long[] {1, 4, 8, 8}, false))).containsOnlyKeys("q", "cat");
    // axis 2 with 4 channels before it: each operand is 4 strided runs -> a copy
    assertThat(aliases(oneConcat(2, new long[] {1, 4, 8, 8}, false))).isEmpty();
    // axis 2 with channels 1: contiguous again
    assertThat(aliases(oneConcat(2, new long[] {1, 1, 8, 8}, false))).containsOnlyKeys("q", "cat");
    // q is also read by z -> a copy
    assertThat(aliases(oneConcat(1, new long[] {1, 4, 8, 8}, true))).isEmpty();
  }

  @Test
  void aConcatOfAGraphInputOrOfItselfTwiceCopies() {
    Graph.Builder g = Graph.builder("input-operand");
    g.input("x", DType.F32, 1, 2, 4, 4);
    g.op("p", OpKind.RELU, Attributes.empty(), "x");
    g.op("cat", OpKind.CONCAT, axis(1), "p", "x");
    g.op("cat2", OpKind.CONCAT, axis(1), "cat", "cat");
    g.output("cat2");
    assertThat(aliases(g.build())).isEmpty();
  }

  /** The inner Concat is merged; its output is then an alias, so the outer one copies. */
  @Test
  void nestedConcatsMergeOnlyTheInnerOne() {
    Graph.Builder g = Graph.builder("nested");
    g.input("x", DType.F32, 1, 2, 4, 4);
    g.op("p", OpKind.RELU, Attributes.empty(), "x");
    g.op("q", OpKind.TANH, Attributes.empty(), "x");
    g.op("r", OpKind.SIGMOID, Attributes.empty(), "x");
    g.op("inner", OpKind.CONCAT, axis(1), "p", "q");
    g.op("outer", OpKind.CONCAT, axis(1), "inner", "r");
    g.output("outer");
    assertThat(aliases(g.build())).containsOnlyKeys("q", "inner");
  }

  private static long sliceOffset(long[] dims, Attributes attrs) {
    Graph.Builder g = Graph.builder("slice-rule");
    g.input("x", DType.F32, dims);
    g.op("a", OpKind.RELU, Attributes.empty(), "x");
    g.op("s", OpKind.SLICE, attrs, "a");
    g.op("y", OpKind.RELU, Attributes.empty(), "s");
    g.output("y");
    Program p = GmemBuilder.build(g.build(), CV, GmemOptions.defaults()).activations().program();
    return p.aliasOf().containsKey("s") ? p.offsetOf("s") : -1;
  }

  @Test
  void aSliceIsFusedOnlyWhenItsResultIsOneContiguousRun() {
    long[] nchw = {1, 4, 8, 8};
    // channels 2..4: 2 × 64 × 4 B
    assertThat(sliceOffset(nchw, sliceAttrs(2, 4, 1))).isEqualTo(512);
    // a negative start counts from the end: -1 -> channel 3
    assertThat(sliceOffset(nchw, sliceAttrs(-1, 4, 1))).isEqualTo(768);
    // rows 2..5 of [1,1,8,8]: the dims before H are 1 -> 2 × 8 × 4 B
    assertThat(sliceOffset(new long[] {1, 1, 8, 8}, sliceAttrs(2, 5, 2))).isEqualTo(64);
    // rows of [1,4,8,8]: 4 strided runs -> a copy
    assertThat(sliceOffset(nchw, sliceAttrs(2, 5, 2))).isEqualTo(-1);
    // step 2 -> a copy
    assertThat(
            sliceOffset(
                nchw,
                Attributes.builder()
                    .put("starts", 0)
                    .put("ends", 4)
                    .put("axes", 1)
                    .put("steps", 2)
                    .build()))
        .isEqualTo(-1);
    // two axes change -> a copy
    assertThat(
            sliceOffset(
                nchw,
                Attributes.builder()
                    .put("starts", 1, 1)
                    .put("ends", 3, 3)
                    .put("axes", 1, 2)
                    .build()))
        .isEqualTo(-1);
    // nothing changes: TPU-MLIR calls that not fusible -> a copy
    assertThat(sliceOffset(nchw, sliceAttrs(0, 4, 1))).isEqualTo(-1);
  }

  /** A Slice of a Reshape of a merged Concat's operand: offsets add up along the chain. */
  @Test
  void aliasOffsetsComposeAlongAChain() {
    Graph.Builder g = Graph.builder("chain");
    g.input("x", DType.F32, 1, 4, 4, 4);
    g.op("p", OpKind.RELU, Attributes.empty(), "x");
    g.op("q", OpKind.TANH, Attributes.empty(), "x");
    g.op("cat", OpKind.CONCAT, axis(1), "p", "q");
    g.op("flat", OpKind.RESHAPE, Attributes.builder().put("shape", 1, 8, 16).build(), "cat");
    g.op("s", OpKind.SLICE, sliceAttrs(5, 7, 1), "flat");
    g.op("y", OpKind.RELU, Attributes.empty(), "s");
    g.output("y");
    DsaInstance a = GmemBuilder.build(g.build(), CV, GmemOptions.defaults()).activations();
    Program p = a.program();
    // p is the buffer (512 B for the concat); s starts at row 5 of 16 floats: 320 B
    assertThat(List.of(p.bufferOf("s"), p.bufferOf("flat"), p.bufferOf("q")))
        .containsExactly("p", "p", "p");
    assertThat(List.of(p.offsetOf("q"), p.offsetOf("flat"), p.offsetOf("s")))
        .containsExactly(256L, 0L, 320L);
    // the buffer lives from p's definition (1) to y's read of s (step 6)
    assertThat(a.buffers().get(1))
        .extracting(Buffer::id, Buffer::lower, Buffer::upper, Buffer::size)
        .containsExactly("p", 1, 7, 512L);
  }
}
