package io.github.memplan.core.ir;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jgrapht.traverse.TopologicalOrderIterator;

/** Op orders. */
public final class Schedule {
  private Schedule() {}

  /**
   * A topological order of {@code graph}'s ops; among ops that are ready at the same time the one
   * added first goes first, so the order is deterministic and equals insertion order when that is
   * already topological.
   */
  public static List<Op> topological(Graph graph) {
    Comparator<Op> byInsertion = Comparator.comparingInt(graph::indexOf);
    TopologicalOrderIterator<Op, Graph.Edge> it =
        new TopologicalOrderIterator<>(graph.dag(), byInsertion);
    List<Op> order = new ArrayList<>(graph.ops().size());
    it.forEachRemaining(order::add);
    return order;
  }

  /** Checks that {@code order} holds every op of {@code graph} once, producers first. */
  public static void check(Graph graph, List<Op> order) {
    if (order.size() != graph.ops().size()) {
      throw new IllegalArgumentException(
          "schedule has "
              + order.size()
              + " ops, graph '"
              + graph.name()
              + "' has "
              + graph.ops().size());
    }
    java.util.Set<String> done = new java.util.HashSet<>();
    for (Op op : order) {
      for (Op p : graph.predecessors(op)) {
        if (!done.contains(p.name())) {
          throw new IllegalArgumentException(
              "schedule runs op " + op.label() + " before its producer " + p.label());
        }
      }
      if (!done.add(op.name())) {
        throw new IllegalArgumentException("schedule runs op " + op.label() + " twice");
      }
    }
  }
}
