package io.github.memplan.datasets.zoo;

/** Ids and checks shared by the builders that take an input size and a batch. */
final class Ids {
  private Ids() {}

  /**
   * {@code base} at the standard size and batch 1; otherwise {@code base-<size>}, then {@code
   * -b<batch>} when the batch is not 1 (e.g. {@code bert-base-384}, {@code gpt2-1024-b8}).
   */
  static String sized(String base, long size, long standardSize, long batch) {
    if (size == standardSize && batch == 1) {
      return base;
    }
    return base + "-" + size + (batch == 1 ? "" : "-b" + batch);
  }

  /** Fails naming the model and the parameter unless {@code min <= value <= max}. */
  static long check(String model, String parameter, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          model + ": " + parameter + " " + value + " must be in [" + min + ", " + max + "]");
    }
    return value;
  }
}
