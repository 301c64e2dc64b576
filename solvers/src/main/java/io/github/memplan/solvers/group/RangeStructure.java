package io.github.memplan.solvers.group;

import io.github.memplan.core.group.GroupBoundary;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The structure of an op range with every name replaced by a position: two ranges with equal keys
 * (the ops of two identical blocks) slice, time, cost and place identically under every secs. The
 * role of TPU-MLIR's LgCache structural hash ({@code reference/tpu-mlir.md} §2.4).
 *
 * <p>Per op, in order: its kind and attributes; per input, either nothing (an absent operand), the
 * relative position and output index of its producer in the range, a weight (role, shape, dtype),
 * or the first-use index of an outside activation with its shape, dtype and whether it is a graph
 * input; per output, its shape and dtype and whether it leaves the range (a group output). That is
 * everything slicing ({@code Slicing}: shapes, attributes, in-range users, graph inputs), the
 * timestep table ({@code Timesteps2026}: buffers per distinct tensor, first use, group outputs),
 * the cost model (shapes, dtypes, MACs from attributes and weight shapes) and the LMEM instance
 * read from the graph.
 */
final class RangeStructure {
  private RangeStructure() {}

  /** The key of the ops {@code ops} (a contiguous range of a topological order). */
  static List<Object> key(Graph graph, List<Op> ops) {
    Map<String, Integer> producedAt = new HashMap<>();
    Map<String, Integer> outsideIndex = new HashMap<>();
    Set<String> leaving = new HashSet<>(GroupBoundary.of(graph, ops).outputs());
    Set<String> graphInputs = new HashSet<>(graph.inputs());
    List<Object> key = new ArrayList<>();
    for (int r = 0; r < ops.size(); r++) {
      Op op = ops.get(r);
      key.add(op.kind());
      key.add(op.attributes());
      key.add(op.inputs().size());
      for (String t : op.inputs()) {
        if (t.isEmpty()) {
          key.add("-");
          continue;
        }
        Integer at = producedAt.get(t);
        Tensor x = graph.tensor(t);
        if (at != null) {
          key.add(List.of("in", at, ops.get(at).outputs().indexOf(t)));
        } else if (!GroupBoundary.isActivation(graph, t)) {
          key.add(List.of("w", x.role(), x.shape(), x.dtype()));
        } else {
          int idx = outsideIndex.computeIfAbsent(t, k -> outsideIndex.size());
          key.add(List.of("x", idx, x.shape(), x.dtype(), graphInputs.contains(t)));
        }
      }
      key.add(op.outputs().size());
      for (String t : op.outputs()) {
        Tensor x = graph.tensor(t);
        key.add(List.of(x.shape(), x.dtype(), x.role(), leaving.contains(t)));
        producedAt.put(t, r);
      }
    }
    return key;
  }
}
