package io.github.memplan.datasets.zoo;

/** Checks and describes the image inputs of the zoo's builders. */
final class Inputs {
  private Inputs() {}

  /**
   * Fails, naming the model, unless {@code batch} and {@code size} are positive.
   *
   * @throws IllegalArgumentException naming the model and the bad value
   */
  static void check(String model, long batch, long size) {
    if (batch < 1) {
      throw new IllegalArgumentException(model + ": batch " + batch + " must be >= 1");
    }
    if (size < 1) {
      throw new IllegalArgumentException(model + ": input size " + size + " must be >= 1");
    }
  }

  /** Fails, naming the model, unless {@code size} is a multiple of {@code stride}. */
  static void checkMultiple(String model, long size, long stride) {
    if (size % stride != 0) {
      throw new IllegalArgumentException(
          model + ": input size " + size + " must be a multiple of " + stride);
    }
  }

  /** {@code "ResNet-50, 1x3x224x224, fp32"}. */
  static String describe(String architecture, long batch, long channels, long size) {
    return architecture + ", " + batch + "x" + channels + "x" + size + "x" + size + ", fp32";
  }
}
