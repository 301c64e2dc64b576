package io.github.memplan.baseline.tflite;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A buffer as TFLite's planners see it: a size and the closed interval {@code [first, last]} of the
 * nodes (tasks) that use it ({@code TensorUsageRecord} in {@code
 * tensorflow/lite/delegates/gpu/common/memory_management/types.h}; {@code first_node}/{@code
 * last_node} in the CPU arena). A DSA buffer alive in {@code [lower, upper)} is used from node
 * {@code lower} to node {@code upper - 1}.
 *
 * @param index the buffer's index in its instance
 * @param size bytes
 * @param first first node using it
 * @param last last node using it (inclusive)
 * @param alignment the buffer's alignment
 */
record UsageRecord(int index, long size, int first, int last, long alignment) {

  static UsageRecord of(int index, Buffer b) {
    return new UsageRecord(index, b.size(), b.lower(), b.upper() - 1, b.alignment());
  }

  /**
   * The records of every buffer of {@code instance} in order of first use, ties by instance order:
   * the order the GPU delegate's strategies assume ("iterating through all the tensors in order of
   * their first_task", {@code memory_management.h}). Refuses fixed offsets, which shared objects
   * cannot honour.
   */
  static List<UsageRecord> inFirstUseOrder(DsaInstance instance, String plannerId) {
    List<UsageRecord> out = new ArrayList<>();
    for (int i = 0; i < instance.size(); i++) {
      Buffer b = instance.buffer(i);
      if (b.fixedOffset().isPresent()) {
        throw new IllegalArgumentException(
            plannerId + " does not support fixed offsets (buffer '" + b.id() + "')");
      }
      out.add(of(i, b));
    }
    out.sort(Comparator.comparingInt(UsageRecord::first).thenComparingInt(UsageRecord::index));
    return out;
  }
}
