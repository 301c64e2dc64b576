package io.github.memplan.core.group;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The boundary of a group ({@code LgInfo.group_ins / group_outs}, {@code reference/tpu-mlir.md}
 * §2.1): its inputs are the activations its ops read that no op of the group defines (weights and
 * constants excluded); its outputs are the tensors its ops define that a graph output, an op
 * outside the group, or nobody reads. Both in first-use order.
 */
public record GroupBoundary(List<String> inputs, List<String> outputs) {
  public GroupBoundary {
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
  }

  /** The boundary of {@code ops} (a group) in {@code graph}. */
  public static GroupBoundary of(Graph graph, List<Op> ops) {
    Set<String> inGroup = new HashSet<>();
    Set<String> defined = new HashSet<>();
    for (Op op : ops) {
      inGroup.add(op.name());
      defined.addAll(op.outputs());
    }
    Set<String> ins = new LinkedHashSet<>();
    List<String> outs = new ArrayList<>();
    Set<String> graphOuts = new HashSet<>(graph.outputs());
    for (Op op : ops) {
      for (String t : op.inputs()) {
        if (!t.isEmpty() && !defined.contains(t) && !graph.tensor(t).role().isStored()) {
          ins.add(t);
        }
      }
      for (String t : op.outputs()) {
        List<Op> users = graph.consumers(t);
        boolean out = users.isEmpty() || graphOuts.contains(t);
        for (Op u : users) {
          out |= !inGroup.contains(u.name());
        }
        if (out) {
          outs.add(t);
        }
      }
    }
    return new GroupBoundary(new ArrayList<>(ins), outs);
  }

  /** Whether {@code op}'s operand {@code tensor} is sliced like an activation (not a weight). */
  public static boolean isActivation(Graph graph, String tensor) {
    return !tensor.isEmpty() && !graph.tensor(tensor).role().isStored();
  }
}
