package io.github.memplan.core.gmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import java.util.List;
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
}
