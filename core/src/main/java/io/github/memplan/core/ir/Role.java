package io.github.memplan.core.ir;

/** What a tensor is to the graph. */
public enum Role {
  /** A graph input, fed before the run. */
  INPUT,
  /** A graph output, produced by an op and read after the run. */
  OUTPUT,
  /** A learned parameter (counted by {@link Graph#parameterCount()}). */
  WEIGHT,
  /** A constant that is not a learned parameter (BatchNorm running statistics, position ids). */
  CONSTANT,
  /** An intermediate value produced and consumed by ops. */
  ACTIVATION;

  /** Whether the tensor lives in the weight (coefficient) region. */
  public boolean isStored() {
    return this == WEIGHT || this == CONSTANT;
  }
}
