package io.github.memplan.core.group;

import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;

/** Small hand-worked graphs for the grouping tests. */
public final class GroupFixtures {
  private GroupFixtures() {}

  public static Attributes conv3x3(long stride) {
    return Attributes.builder()
        .put("kernel_shape", 3, 3)
        .put("strides", stride, stride)
        .put("pads", 1, 1, 1, 1)
        .build();
  }

  /** x[1,8,32,32] → conv1 3x3/s2/p1 → [1,8,16,16] → conv2 3x3/s2/p1 → [1,8,8,8]. */
  public static Graph convStackS2() {
    Graph.Builder b = Graph.builder("stack");
    b.input("x", DType.F32, 1, 8, 32, 32);
    b.weight("w1", DType.F32, 8, 8, 3, 3);
    b.weight("w2", DType.F32, 8, 8, 3, 3);
    b.op("conv1", io.github.memplan.core.ir.OpKind.CONV, conv3x3(2), "x", "w1");
    b.op("conv2", io.github.memplan.core.ir.OpKind.CONV, conv3x3(2), "conv1", "w2");
    b.output("conv2");
    return b.build();
  }

  /** relu0 → relu1 on x[4,64,128,128] f32: 4 · 128 · 128 · 4 = 256 KiB per lane per activation. */
  public static Graph batchReluChain() {
    return reluPair(4, 64, 128, 128);
  }

  /** x[n,c,h,w] f32 → relu0 → relu1 (the graph output). */
  public static Graph reluPair(long n, long c, long h, long w) {
    Graph.Builder b = Graph.builder("reluPair");
    b.input("x", DType.F32, n, c, h, w);
    b.op("relu0", io.github.memplan.core.ir.OpKind.RELU, Attributes.empty(), "x");
    b.op("relu1", io.github.memplan.core.ir.OpKind.RELU, Attributes.empty(), "relu0");
    b.output("relu1");
    return b.build();
  }

  /** x[1,8,8,8] → conv 3x3/s1/p1 → relu. */
  public static Graph convRelu() {
    Graph.Builder b = Graph.builder("convrelu");
    b.input("x", DType.F32, 1, 8, 8, 8);
    b.weight("w", DType.F32, 8, 8, 3, 3);
    b.op("conv", io.github.memplan.core.ir.OpKind.CONV, conv3x3(1), "x", "w");
    b.op("relu", io.github.memplan.core.ir.OpKind.RELU, Attributes.empty(), "conv");
    b.output("relu");
    return b.build();
  }

  /**
   * x[1,c,hw,hw] f32 → {@code convs} times (conv 3x3/p1 → relu), conv {@code stride2At} of stride 2
   * and the others of stride 1 → global average pool → relu: {@code 2 * convs + 2} ops, the pool
   * refusing an H split. Named {@code conv<i>}, {@code relu<i>}, {@code gap}, {@code out}.
   */
  public static Graph convReluChain(String name, long c, long hw, int convs, int stride2At) {
    Graph.Builder b = Graph.builder(name);
    b.input("x", DType.F32, 1, c, hw, hw);
    String prev = "x";
    for (int i = 0; i < convs; i++) {
      b.weight("w" + i, DType.F32, c, c, 3, 3);
      b.op(
          "conv" + i,
          io.github.memplan.core.ir.OpKind.CONV,
          conv3x3(i == stride2At ? 2 : 1),
          prev,
          "w" + i);
      b.op("relu" + i, io.github.memplan.core.ir.OpKind.RELU, Attributes.empty(), "conv" + i);
      prev = "relu" + i;
    }
    b.op("gap", io.github.memplan.core.ir.OpKind.GLOBAL_AVERAGE_POOL, Attributes.empty(), prev);
    b.op("out", io.github.memplan.core.ir.OpKind.RELU, Attributes.empty(), "gap");
    b.output("out");
    return b.build();
  }

  /**
   * x, y [1,64,16,16] f32, w [64,64,1,1] f32: conv 1x1 (x, w) → relu, then either add(relu, y)
   * (three ops, output add) or, with {@code storeConv}, add1(relu, conv) → add2(add1, y) (four ops,
   * conv also a graph output, so its store is a stage-1 transfer that add1 reads).
   */
  public static Graph prefetch(boolean storeConv) {
    Graph.Builder b = conv1x1(Graph.builder(storeConv ? "moves4" : "prefetch3"), 16);
    b.input("y", DType.F32, 1, 64, 16, 16);
    b.op("relu", io.github.memplan.core.ir.OpKind.RELU, Attributes.empty(), "conv");
    if (storeConv) {
      b.op("add1", io.github.memplan.core.ir.OpKind.ADD, Attributes.empty(), "relu", "conv");
      b.op("add2", io.github.memplan.core.ir.OpKind.ADD, Attributes.empty(), "add1", "y");
      b.output("conv");
      b.output("add2");
    } else {
      b.op("add", io.github.memplan.core.ir.OpKind.ADD, Attributes.empty(), "relu", "y");
      b.output("add");
    }
    return b.build();
  }

  /** Adds x[1,64,hw,hw] f32, w[64,64,1,1] f32 and {@code conv = Conv 1x1 (x, w)} to {@code b}. */
  private static Graph.Builder conv1x1(Graph.Builder b, long hw) {
    b.input("x", DType.F32, 1, 64, hw, hw);
    b.weight("w", DType.F32, 64, 64, 1, 1);
    b.op(
        "conv",
        io.github.memplan.core.ir.OpKind.CONV,
        Attributes.builder().put("kernel_shape", 1, 1).build(),
        "x",
        "w");
    return b;
  }

  /** x[1,64,16,16] f32 → conv 1x1 (w[64,64,1,1]) → relu → sigmoid (the graph output). */
  public static Graph convReluSigmoid() {
    Graph.Builder b = conv1x1(Graph.builder("chain3"), 16);
    b.op("relu", io.github.memplan.core.ir.OpKind.RELU, Attributes.empty(), "conv");
    b.op("sig", io.github.memplan.core.ir.OpKind.SIGMOID, Attributes.empty(), "relu");
    b.output("sig");
    return b.build();
  }

  /**
   * x[1,64,8,8] f32 → conv 1x1 (w[64,64,1,1]) → global average pool (1,64,1,1) → flatten (1,64),
   * then with {@code relu} a Relu: a classifier head whose Flatten keeps dims 0 and 1. Named {@code
   * conv}, {@code pool}, {@code flat}, {@code relu}.
   */
  public static Graph flattenHead(boolean relu) {
    Graph.Builder b = conv1x1(Graph.builder("head"), 8);
    b.op("pool", io.github.memplan.core.ir.OpKind.GLOBAL_AVERAGE_POOL, Attributes.empty(), "conv");
    b.op("flat", io.github.memplan.core.ir.OpKind.FLATTEN, Attributes.empty(), "pool");
    if (relu) {
      b.op("relu", io.github.memplan.core.ir.OpKind.RELU, Attributes.empty(), "flat");
    }
    b.output(relu ? "relu" : "flat");
    return b.build();
  }
}
