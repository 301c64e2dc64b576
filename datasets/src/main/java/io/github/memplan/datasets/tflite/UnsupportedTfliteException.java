package io.github.memplan.datasets.tflite;

/**
 * A well-formed TFLite model using something memplan does not model: an operator without a memplan
 * op kind, or an option of a known one (a fused activation on an op that cannot fuse it, a mask of
 * StridedSlice, ...). The message is one line naming the file, the operator index and the operator.
 */
public final class UnsupportedTfliteException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public UnsupportedTfliteException(String message) {
    super(message);
  }
}
