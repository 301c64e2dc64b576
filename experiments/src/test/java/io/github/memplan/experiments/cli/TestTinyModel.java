package io.github.memplan.experiments.cli;

import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.OpKind;

/** A test-only model, {@code test-tiny}: conv, relu, reshape, matmul. */
public final class TestTinyModel implements ModelProvider {
  @Override
  public String name() {
    return "test-tiny";
  }

  @Override
  public String description() {
    return "Test only: conv-relu-reshape-matmul, 1x4x8x8, fp32";
  }

  @Override
  public String citation() {
    return "none (test fixture)";
  }

  @Override
  public Graph build() {
    Graph.Builder g = Graph.builder("test-tiny");
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
}
