package io.github.memplan.baseline.tflite;

/**
 * The {@code MemoryStrategy} values of TFLite's GPU delegate ({@code
 * tensorflow/lite/delegates/gpu/common/memory_management.h}) that assign tensors to shared objects,
 * with the planner id of each in memplan (the {@code -shared} suffix marks the shared-object form:
 * objects laid side by side, peak = sum of object sizes).
 */
public enum GpuStrategy {
  /** One object per tensor ({@code naive_assignment.h}). */
  NAIVE("tflite-naive-shared"),
  /** Reuse only a free object of exactly the same size ({@code equality_assignment.h}). */
  EQUALITY("tflite-equality-shared"),
  /**
   * Tensors in order of first use, best-sized free object ({@code greedy_in_order_assignment.h}).
   */
  GREEDY_IN_ORDER("tflite-greedy-in-order-shared"),
  /** Tasks by decreasing breadth ({@code greedy_by_breadth_assignment.cc}). */
  GREEDY_BY_BREADTH("tflite-greedy-by-breadth-shared"),
  /** Size-and-distance priority ({@code GreedyBySizeDistPriorityAssignment}). */
  GREEDY_BY_SIZE("tflite-greedy-by-size-shared"),
  /** The better of greedy-by-size and greedy-by-breadth ({@code BestGreedy}). */
  GREEDY_BEST("tflite-greedy-best-shared"),
  /** Minimum-cost flow on an auxiliary graph ({@code min_cost_flow_assignment.cc}). */
  MINCOSTFLOW("tflite-mincostflow-shared");

  private final String plannerId;

  GpuStrategy(String plannerId) {
    this.plannerId = plannerId;
  }

  /** The id of the planner that runs this strategy. */
  public String plannerId() {
    return plannerId;
  }
}
