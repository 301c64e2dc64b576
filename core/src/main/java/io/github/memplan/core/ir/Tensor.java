package io.github.memplan.core.ir;

import java.util.Objects;

/**
 * A named value of the graph.
 *
 * @param name unique within its graph
 * @param shape static shape
 * @param dtype element type
 * @param role input, output, weight, constant or activation
 */
public record Tensor(String name, Shape shape, DType dtype, Role role) {
  public Tensor {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(dtype, "dtype");
    Objects.requireNonNull(role, "role");
  }

  public TensorType type() {
    return new TensorType(shape, dtype);
  }

  /** Storage bytes (elements × element bits, rounded up to bytes). */
  public long bytes() {
    return dtype.bytes(shape.elements());
  }

  public Tensor withRole(Role newRole) {
    return new Tensor(name, shape, dtype, newRole);
  }
}
