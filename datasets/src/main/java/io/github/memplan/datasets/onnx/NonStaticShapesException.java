package io.github.memplan.datasets.onnx;

import java.util.List;

/**
 * Some tensors a model computes at run time have no static shape: a graph input has dynamic dims
 * that no input shape fixes, or a shape operand depends on data. memplan plans static shapes only
 * and never guesses; {@link #tensors()} lists every such tensor, in topological order, and the
 * message names the first ones and the cause.
 */
public class NonStaticShapesException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final List<String> tensors;

  public NonStaticShapesException(String message, List<String> tensors) {
    super(message);
    this.tensors = List.copyOf(tensors);
  }

  /** The tensors without a static shape, in topological order. */
  public List<String> tensors() {
    return tensors;
  }
}
