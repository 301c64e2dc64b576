package io.github.memplan.core.frontend;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Shape;
import io.github.memplan.core.ir.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites of one graph, collected and then applied at once: ops replaced in place (the new op
 * takes the old one's position in graph order), ops removed, stored tensors that may have become
 * unused. {@link #build()} makes the new graph through {@link Graph#builder}, so every op's shapes
 * are inferred again and an inconsistent rewrite fails at the op at fault.
 */
final class GraphRewrite {
  private final Graph graph;
  private final Map<String, List<Op>> replaced = new HashMap<>();
  private final List<Tensor> added = new ArrayList<>();
  private final Set<String> removed = new HashSet<>();
  private final Set<String> maybeUnused = new HashSet<>();

  GraphRewrite(Graph graph) {
    this.graph = graph;
  }

  /** Whether {@code op} is already part of a rewrite (a pass touches each op at most once). */
  boolean touched(Op op) {
    return replaced.containsKey(op.name()) || removed.contains(op.name());
  }

  void replace(Op old, Op by) {
    replaced.put(old.name(), List.of(by));
  }

  /** {@code old} replaced by the ops {@code by}, in that order, at its position. */
  void replace(Op old, List<Op> by) {
    replaced.put(old.name(), List.copyOf(by));
  }

  /** A new stored tensor (a weight split from another), declared before every op. */
  void addWeight(String name, DType dtype, long... dims) {
    added.add(new Tensor(name, Shape.of(dims), dtype, Role.WEIGHT));
  }

  void remove(Op op) {
    removed.add(op.name());
  }

  /** {@code tensor} is dropped from the new graph if no op reads it any more. */
  void dropIfUnused(String tensor) {
    maybeUnused.add(tensor);
  }

  boolean isEmpty() {
    return replaced.isEmpty() && removed.isEmpty() && added.isEmpty();
  }

  /** The graph with the rewrites applied; {@link #graph} itself when there are none. */
  Graph build() {
    if (isEmpty()) {
      return graph;
    }
    Set<String> read = new HashSet<>();
    for (Op op : graph.ops()) {
      if (removed.contains(op.name())) {
        continue;
      }
      for (Op o : replaced.getOrDefault(op.name(), List.of(op))) {
        read.addAll(o.inputs());
      }
    }
    Graph.Builder b = Graph.builder(graph.name());
    List<Tensor> declared = new ArrayList<>(graph.tensors().values());
    declared.addAll(added);
    for (Tensor t : declared) {
      if (maybeUnused.contains(t.name()) && !read.contains(t.name())) {
        continue;
      }
      long[] dims = t.shape().dims();
      if (t.role() == Role.INPUT) {
        b.input(t.name(), t.dtype(), dims);
      } else if (t.role() == Role.WEIGHT) {
        b.weight(t.name(), t.dtype(), dims);
      } else if (t.role() == Role.CONSTANT) {
        b.constant(t.name(), t.dtype(), dims);
      }
    }
    for (Op op : graph.ops()) {
      if (removed.contains(op.name())) {
        continue;
      }
      for (Op o : replaced.getOrDefault(op.name(), List.of(op))) {
        b.op(o.name(), o.kind(), o.attributes(), o.inputs(), o.outputs());
      }
    }
    for (String out : graph.outputs()) {
      b.output(out);
    }
    return b.build();
  }
}
