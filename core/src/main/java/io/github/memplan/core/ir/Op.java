package io.github.memplan.core.ir;

import java.util.List;
import java.util.Objects;

/**
 * A node of the graph: a kind, typed attributes, the tensors it reads (data first, then weights, as
 * in ONNX) and the tensors it defines.
 *
 * @param name unique within its graph
 * @param kind what it computes
 * @param attributes ONNX-style attributes
 * @param inputs names of the tensors it reads, in operand order
 * @param outputs names of the tensors it defines
 */
public record Op(
    String name, OpKind kind, Attributes attributes, List<String> inputs, List<String> outputs) {
  public Op {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(attributes, "attributes");
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
    if (outputs.isEmpty()) {
      throw new IllegalArgumentException("op '" + name + "' (" + kind + ") defines no output");
    }
  }

  /** {@code 'conv1' (Conv)}: how messages name an op. */
  public String label() {
    return "'" + name + "' (" + kind + ")";
  }

  @Override
  public String toString() {
    return label();
  }
}
