package io.github.memplan.core.group;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A layer grouping of a graph (docs/architecture.md, "Layer grouping"; {@code
 * reference/tpu-mlir.md} §2): the op order it refers to, the contiguous groups sorted by position,
 * and the conventions under which they were sliced and timed, so that {@link GroupingValidator} can
 * re-derive everything. Ops in no group stay global (a single op is never a group, as in TPU-MLIR).
 *
 * @param order op names in execution order
 * @param rules slicing conventions of every group
 * @param timestepMethod id of the {@link TimestepMethod} that built every group's table
 * @param groups sorted, disjoint op ranges of at least two ops
 */
public record Grouping(
    List<String> order, SliceRules rules, String timestepMethod, List<Group> groups) {
  public Grouping {
    order = List.copyOf(order);
    Objects.requireNonNull(rules, "rules");
    Objects.requireNonNull(timestepMethod, "timestepMethod");
    groups = List.copyOf(groups);
  }

  /** The op names of an order. */
  public static List<String> names(List<Op> order) {
    return order.stream().map(Op::name).toList();
  }

  /** The ops of {@code group}, resolved in {@code graph}. */
  public List<Op> ops(Graph graph, Group group) {
    List<Op> out = new ArrayList<>();
    for (int i = group.first(); i <= group.last(); i++) {
      out.add(graph.op(order.get(i)));
    }
    return out;
  }

  /** Positions (in {@link #order}) of the ops in no group, ascending. */
  public List<Integer> globalOps() {
    boolean[] grouped = new boolean[order.size()];
    for (Group g : groups) {
      for (int i = g.first(); i <= g.last() && i < order.size(); i++) {
        grouped[i] = true;
      }
    }
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < order.size(); i++) {
      if (!grouped[i]) {
        out.add(i);
      }
    }
    return out;
  }
}
