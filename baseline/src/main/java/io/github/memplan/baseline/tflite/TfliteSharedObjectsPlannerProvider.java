package io.github.memplan.baseline.tflite;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;

/**
 * Registers {@link TfliteSharedObjectsPlanner} once per {@link GpuStrategy}, under the strategy's
 * {@link GpuStrategy#plannerId() id}; one nested class per strategy, because {@link
 * java.util.ServiceLoader} instantiates providers without arguments.
 */
public abstract class TfliteSharedObjectsPlannerProvider
    extends BasePlannerProvider<DsaInstance, DsaSolution> {
  private static final String DIR =
      "tensorflow/tensorflow: tensorflow/lite/delegates/gpu/common/memory_management";

  TfliteSharedObjectsPlannerProvider(GpuStrategy strategy, String description, String source) {
    super(
        strategy.plannerId(),
        DsaInstance.class,
        description + " Shared objects side by side: peak = sum of object sizes.",
        source + "; memory_management.cc (ObjectsToOffsets)",
        config -> new TfliteSharedObjectsPlanner(strategy));
  }

  /** {@code tflite-naive-shared}. */
  public static final class Naive extends TfliteSharedObjectsPlannerProvider {
    public Naive() {
      super(
          GpuStrategy.NAIVE,
          "TFLite GPU NAIVE: one object per tensor.",
          DIR + "/naive_assignment.h (NaiveAssignment)");
    }
  }

  /** {@code tflite-equality-shared}. */
  public static final class Equality extends TfliteSharedObjectsPlannerProvider {
    public Equality() {
      super(
          GpuStrategy.EQUALITY,
          "TFLite GPU EQUALITY: reuse a freed object only of exactly the same size.",
          DIR + "/equality_assignment.h (EqualityAssignmentWithHash)");
    }
  }

  /** {@code tflite-greedy-in-order-shared}. */
  public static final class GreedyInOrder extends TfliteSharedObjectsPlannerProvider {
    public GreedyInOrder() {
      super(
          GpuStrategy.GREEDY_IN_ORDER,
          "TFLite GPU GREEDY_IN_ORDER: tensors by first use, each takes the freed object closest"
              + " in size.",
          DIR + "/greedy_in_order_assignment.h (GreedyInOrderAssignment)");
    }
  }

  /** {@code tflite-greedy-by-breadth-shared}. */
  public static final class GreedyByBreadth extends TfliteSharedObjectsPlannerProvider {
    public GreedyByBreadth() {
      super(
          GpuStrategy.GREEDY_BY_BREADTH,
          "TFLite GPU GREEDY_BY_BREADTH: tasks by decreasing total live size, their tensors by"
              + " decreasing size, each to the best-sized free object.",
          DIR + "/greedy_by_breadth_assignment.cc (GreedyByBreadthAssignment)");
    }
  }

  /** {@code tflite-greedy-by-size-shared}. */
  public static final class GreedyBySize extends TfliteSharedObjectsPlannerProvider {
    public GreedyBySize() {
      super(
          GpuStrategy.GREEDY_BY_SIZE,
          "TFLite GPU GREEDY_BY_SIZE, shared-object form: size-and-distance priority"
              + " (positional maximums).",
          DIR + "/greedy_by_size_assignment.cc (GreedyBySizeDistPriorityAssignment)");
    }
  }

  /** {@code tflite-greedy-best-shared}. */
  public static final class GreedyBest extends TfliteSharedObjectsPlannerProvider {
    public GreedyBest() {
      super(
          GpuStrategy.GREEDY_BEST,
          "TFLite GPU GREEDY_BEST: the smaller of greedy-by-size and greedy-by-breadth.",
          "tensorflow/tensorflow: tensorflow/lite/delegates/gpu/common/memory_management.cc"
              + " (BestGreedy)");
    }
  }

  /** {@code tflite-mincostflow-shared}. */
  public static final class MinCostFlow extends TfliteSharedObjectsPlannerProvider {
    public MinCostFlow() {
      super(
          GpuStrategy.MINCOSTFLOW,
          "TFLite GPU MINCOSTFLOW: min-cost flow on an auxiliary graph, saturated edges chain"
              + " tensors into objects.",
          DIR + "/min_cost_flow_assignment.cc (MinCostFlowAssignment)");
    }
  }
}
