package io.github.memplan.core.ir;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The size limit on tensors, {@link TensorType#MAX_BYTES}, and where it is enforced. */
class TensorTypeTest {
  private static void fits(Shape s, DType t) {
    assertThatCode(() -> TensorType.checkBytes("t", s, t)).doesNotThrowAnyException();
  }

  @Test
  void theLimitIsTwoToTheFortyBytesWhateverTheElementSize() {
    // f32: 2^38 elements x 4 bytes = 2^40 bytes fit, one more element does not
    fits(Shape.of(1L << 19, 1L << 19), DType.F32);
    assertThatThrownBy(() -> TensorType.checkBytes("t", Shape.of((1L << 38) + 1), DType.F32))
        .hasMessage(
            "t f32[274877906945] is 1099511627780 bytes; memplan plans tensors of at most 2^40"
                + " bytes (1 TiB)");
    // i4: two elements per byte, so 2^41 elements fit; i64 only 2^37
    fits(Shape.of(1L << 41), DType.I4);
    fits(Shape.of(1L << 37), DType.I64);
    assertThatThrownBy(() -> TensorType.checkBytes("t", Shape.of((1L << 37) + 1), DType.I64))
        .hasMessageContaining("is 1099511627784 bytes");
    // a zero dim holds nothing, whatever the others and wherever it stands
    fits(Shape.of(0, Long.MAX_VALUE, Long.MAX_VALUE), DType.F64);
    fits(Shape.of(1L << 62, 1L << 62, 0), DType.F64);
    org.assertj.core.api.Assertions.assertThat(Shape.of(1L << 62, 1L << 62, 0).elements()).isZero();
  }

  @Test
  void dimsWhoseProductOverflowsALongAreReportedExactly() {
    // 99999999999 x 3 x 640 x 640 x 4 bytes = 491519999995084800 bytes
    assertThatThrownBy(
            () ->
                TensorType.checkBytes("input 'x'", Shape.of(99999999999L, 3, 640, 640), DType.F32))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "input 'x' f32[99999999999x3x640x640] is 491519999995084800 bytes; memplan plans"
                + " tensors of at most 2^40 bytes (1 TiB)");
    // 2^62 x 2^62 elements x 1 byte: 2^124 bytes, far past a long
    assertThatThrownBy(() -> TensorType.checkBytes("t", Shape.of(1L << 62, 1L << 62), DType.U8))
        .hasMessageContaining("is 21267647932558653966460912964485513216 bytes");
  }

  @Test
  void theGraphBuilderAndShapeInferenceEnforceIt() {
    Graph.Builder b = Graph.builder("g");
    assertThatThrownBy(() -> b.input("x", DType.F32, 1L << 20, 1L << 20))
        .hasMessage(
            "graph 'g': tensor 'x' f32[1048576x1048576] is 4398046511104 bytes; memplan plans"
                + " tensors of at most 2^40 bytes (1 TiB)");
    // a fitting input, tiled 8 times along one axis: 2^37 x 8 f32 elements = 2^42 bytes
    b.input("y", DType.F32, 1L << 37);
    assertThatThrownBy(
            () ->
                b.op(
                    "tile",
                    OpKind.TILE,
                    Attributes.builder().put("repeats", 8).build(),
                    List.of("y"),
                    List.of("big")))
        .hasMessage(
            "'tile' (Tile): output 'big' f32[1099511627776] is 4398046511104 bytes; memplan plans"
                + " tensors of at most 2^40 bytes (1 TiB)");
  }
}
