package io.github.memplan.datasets.onnx;

/**
 * A valid ONNX construct that memplan does not model: an op type it neither knows nor can fold, an
 * attribute combination its shape inference does not cover, an element type without a memplan
 * dtype, an {@code If} whose condition is computed at run time. The message names the file and the
 * node.
 */
public class UnsupportedOnnxException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public UnsupportedOnnxException(String message) {
    super(message);
  }
}
