package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Schedule;
import java.util.List;
import java.util.Objects;

/**
 * A layer-grouping problem (docs/architecture.md, "Layer grouping"): a graph, its op order, the
 * chip and the options. A planner answers with a {@link Grouping} of that order.
 */
public record GroupProblem(Graph graph, List<Op> order, Chip chip, GroupOptions options) {
  public GroupProblem {
    Objects.requireNonNull(graph, "graph");
    Objects.requireNonNull(chip, "chip");
    Objects.requireNonNull(options, "options");
    order = List.copyOf(order);
    Schedule.check(graph, order);
  }

  /** The problem over the graph's deterministic topological order. */
  public static GroupProblem of(Graph graph, Chip chip, GroupOptions options) {
    return new GroupProblem(graph, Schedule.topological(graph), chip, options);
  }

  /**
   * {@code get_base_groups} ({@code reference/tpu-mlir.md} §2.3, §2.4): the maximal runs of ops
   * that can join a group ({@link OpSemantics#groupable}), as {@code [first, last]} positions of
   * the order, ascending. Every group of a grouping lies inside one of them.
   */
  public List<int[]> baseGroups() {
    return baseGroups(SliceRules.TODAY);
  }

  /**
   * The base groups under {@code rules} ({@link OpSemantics#groupable(Graph, Op, Chip,
   * SliceRules)}): without the Reshape local rule, Reshapes and Flattens cut them too.
   */
  public List<int[]> baseGroups(SliceRules rules) {
    List<int[]> out = new java.util.ArrayList<>();
    int start = -1;
    for (int i = 0; i <= order.size(); i++) {
      boolean ok = i < order.size() && OpSemantics.groupable(graph, order.get(i), chip, rules);
      if (ok && start < 0) {
        start = i;
      } else if (!ok && start >= 0) {
        out.add(new int[] {start, i - 1});
        start = -1;
      }
    }
    return out;
  }

  /** {@code model/chip}, as instance names go. */
  public String name() {
    return graph.name() + "/" + chip.name();
  }
}
