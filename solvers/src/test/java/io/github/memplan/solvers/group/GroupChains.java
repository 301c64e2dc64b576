package io.github.memplan.solvers.group;

import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;

/** Small hand-built chains for the group-search tests. */
public final class GroupChains {
  private GroupChains() {}

  /**
   * {@code convs} conv 3x3 (pad 1) → relu pairs on 1x{@code ch}x{@code h}x{@code w} f32, then a 2x2
   * max pool (stride 2).
   */
  public static Graph convReluPool(int convs, long ch, long h, long w) {
    Graph.Builder b = Graph.builder("crp" + convs + "x" + ch + "x" + h + "x" + w);
    b.input("x", DType.F32, 1, ch, h, w);
    String prev = "x";
    for (int i = 0; i < convs; i++) {
      b.weight("w" + i, DType.F32, ch, ch, 3, 3);
      b.op(
          "conv" + i,
          OpKind.CONV,
          Attributes.builder().put("kernel_shape", 3, 3).put("pads", 1, 1, 1, 1).build(),
          prev,
          "w" + i);
      b.op("relu" + i, OpKind.RELU, Attributes.empty(), "conv" + i);
      prev = "relu" + i;
    }
    b.op(
        "pool",
        OpKind.MAX_POOL,
        Attributes.builder().put("kernel_shape", 2, 2).put("strides", 2, 2).build(),
        prev);
    b.output("pool");
    return b.build();
  }

  /** {@code n} relus in a row on 1x{@code ch}x{@code h}x{@code w} f32. */
  public static Graph relus(int n, long ch, long h, long w) {
    Graph.Builder b = Graph.builder("relus" + n + "x" + ch + "x" + h + "x" + w);
    b.input("x", DType.F32, 1, ch, h, w);
    String prev = "x";
    for (int i = 0; i < n; i++) {
      b.op("relu" + i, OpKind.RELU, Attributes.empty(), prev);
      prev = "relu" + i;
    }
    b.output(prev);
    return b.build();
  }
}
