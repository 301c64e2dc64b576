package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * LayerGroup rules of one BERT-base attention head ({@link OpKind#ATTENTION}): x [1,128,768], d =
 * 64, no biases, a mask [1,1,1,128], on bm1684x (64 lanes, EU 64 bytes, 16 banks of 16 KiB, 256 KiB
 * per lane).
 */
class AttentionSemanticsTest {
  private final Chip bm1684x = Chips.get("bm1684x");

  private static Graph head(DType t) {
    Graph.Builder b = Graph.builder("head");
    b.input("x", t, 1, 128, 768);
    b.input("mask", t, 1, 1, 1, 128);
    for (String w : new String[] {"wq", "wk", "wv"}) {
      b.weight(w, t, 768, 64);
    }
    b.weight("wo", t, 64, 768);
    b.op(
        "attn",
        OpKind.ATTENTION,
        Attributes.builder().put("head", 1).put("dim", 64).put("has_mask", 1).build(),
        "x",
        "wq",
        "wk",
        "wv",
        "wo",
        "mask");
    b.output("attn");
    return b.build();
  }

  private long scratch(Graph g) {
    Op op = g.ops().get(0);
    return OpSemantics.scratchBytes(
        g, op, bm1684x, new Nchw(1, 128, 768, 1), new Nchw(1, 128, 768, 1));
  }

  /**
   * getBufferSize_bm1684x, float: M_q = M_k = 128 (the C of x), c = ceil(128/64) = 2, eu32 = 16.
   * softmax = 2·16·4 + align(32,16)·4 + align(192,16)·4 + 2·align(128,16)·4·4 = 128 + 128 + 768 +
   * 4096 = 5120. F16: d_size = align(64, 32)·2 = 128, buffer_in = 128·(2 + 2) = 512: 5632. F32:
   * d_size = align(64, 16)·4 = 256, buffer_in 1024: 6144. Both below LMEM_BYTES / 3 = 87381.
   *
   * <p>INT32 result (INT8): eu8 = 64, d_size = 64, k = v = 64·2 = 128, mat0 = 2·align(128,64) =
   * 256, mat1 = 2·64 = 128, softmax = 2·4·(16 + 128) = 1152, mat = max(2·align(64,16),
   * 2·align(128,16)) = 256; imm = align(1152, 16384) = 16384, const = align(256+128+128+128, 16384)
   * = 16384: 32768, below 16384·(16/3) = 81920.
   */
  @Test
  void bufferFollowsGetBufferSizeBm1684x() {
    assertThat(scratch(head(DType.F16))).isEqualTo(5632);
    assertThat(scratch(head(DType.F32))).isEqualTo(6144);
    Graph i8 = head(DType.I8).withDTypes(Map.of("attn", DType.I32));
    assertThat(scratch(i8)).isEqualTo(32768);
  }

  /**
   * LocalGenSupport fails only on CV18xx; AllowDataSplit allows N only (no keys operand), so an H
   * slice of the output needs nothing local: the whole input or no slice.
   */
  @Test
  void localOnBm1684xSplitOnlyOnN() {
    Graph g = head(DType.F16);
    Op op = g.ops().get(0);
    assertThat(OpSemantics.whyGlobal(g, op, bm1684x)).isEmpty();
    assertThat(OpSemantics.whyGlobal(g, op, Chips.get("cv183x")))
        .hasValue("CV18xx: Attention is global");
    assertThat(OpSemantics.allowSplit(g, op, Axis.N)).isTrue();
    assertThat(OpSemantics.allowSplit(g, op, Axis.H)).isFalse();
    assertThat(OpSemantics.backward(g, op, 0, Axis.H, new Range(0, 768), bm1684x))
        .hasValue(new Range(0, 768));
    assertThat(OpSemantics.backward(g, op, 0, Axis.H, new Range(0, 384), bm1684x)).isEmpty();
  }

  /**
   * Weights as MatMul right matrices: [768, 64] F16 is ceil(768/64) = 12 rows per lane of align(64,
   * 32) = 64 elements · 2 bytes = 1536; [64, 768] is 1 · 768 · 2 = 1536. MACs of the head: 128 rows
   * · (3·768·64 + 2·128·64 + 64·768) = 128 · 212992 = 27262976.
   */
  @Test
  void weightsAndMacs() {
    Graph g = head(DType.F16);
    Op op = g.ops().get(0);
    assertThat(OpSemantics.weightLmemBytes(g, op, "wq", bm1684x)).isEqualTo(1536);
    assertThat(OpSemantics.weightLmemBytes(g, op, "wo", bm1684x)).isEqualTo(1536);
    assertThat(Macs.of(g, op)).isEqualTo(27262976L);
  }
}
