package io.github.memplan.core.ir;

import java.util.List;

/** Placeholder signature; the full implementation follows. */
final class ShapeInference {
  private ShapeInference() {}

  static List<TensorType> infer(Op op, List<TensorType> inputs) {
    throw new IllegalArgumentException("op " + op.label() + ": shape inference pending");
  }
}
