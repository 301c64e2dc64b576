package io.github.memplan.core.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jgrapht.Graphs;
import org.jgrapht.graph.AsUnmodifiableGraph;
import org.jgrapht.graph.DirectedAcyclicGraph;

/**
 * An immutable DAG of {@link Op} nodes joined by {@link Tensor} edges. Built with {@link
 * #builder(String)}, which infers every op's output shapes as it is added (so an inconsistent model
 * fails at the op at fault) and rejects cycles.
 *
 * <p>Iteration orders are insertion orders: tensors and ops come back in the order they were added,
 * never in hash order.
 */
public final class Graph {
  /**
   * An edge of the op graph: {@code tensor} flows from its producer into operand {@code
   * operandIndex} of op {@code consumer}. The consumer is part of the identity: JGraphT keys edges
   * by equality, so two consumers reading one tensor at the same operand need distinct edges.
   */
  public record Edge(String tensor, String consumer, int operandIndex) {}

  private final String name;
  private final Map<String, Tensor> tensors;
  private final List<Op> ops;
  private final Map<String, Op> opsByName;
  private final Map<String, Integer> opIndex;
  private final List<String> inputs;
  private final List<String> outputs;
  private final Map<String, Op> producers;
  private final Map<String, List<Op>> consumers;
  private final org.jgrapht.Graph<Op, Edge> dag;

  private Graph(Builder b) {
    this.name = b.name;
    this.tensors = Collections.unmodifiableMap(new LinkedHashMap<>(b.tensors));
    this.ops = List.copyOf(b.ops);
    this.inputs = List.copyOf(b.inputs);
    this.outputs = List.copyOf(b.outputs);
    Map<String, Op> byName = new HashMap<>();
    Map<String, Integer> index = new HashMap<>();
    Map<String, Op> prod = new HashMap<>();
    Map<String, List<Op>> cons = new HashMap<>();
    DirectedAcyclicGraph<Op, Edge> g = new DirectedAcyclicGraph<>(null, null, false, true);
    for (int i = 0; i < ops.size(); i++) {
      Op op = ops.get(i);
      byName.put(op.name(), op);
      index.put(op.name(), i);
      g.addVertex(op);
      for (String out : op.outputs()) {
        prod.put(out, op);
      }
    }
    for (Op op : ops) {
      for (int k = 0; k < op.inputs().size(); k++) {
        String in = op.inputs().get(k);
        List<Op> list = cons.computeIfAbsent(in, x -> new ArrayList<>());
        if (list.isEmpty() || list.get(list.size() - 1) != op) {
          list.add(op);
        }
        Op p = prod.get(in);
        if (p != null) {
          try {
            g.addEdge(p, op, new Edge(in, op.name(), k));
          } catch (IllegalArgumentException cycle) {
            throw new IllegalArgumentException(
                "graph '"
                    + name
                    + "': tensor '"
                    + in
                    + "' into op "
                    + op.label()
                    + " closes a cycle");
          }
        }
      }
    }
    cons.replaceAll((k, v) -> List.copyOf(v));
    this.opsByName = Collections.unmodifiableMap(byName);
    this.opIndex = Collections.unmodifiableMap(index);
    this.producers = Collections.unmodifiableMap(prod);
    this.consumers = Collections.unmodifiableMap(cons);
    this.dag = new AsUnmodifiableGraph<>(g);
  }

  /**
   * This graph with the element type of every tensor named in {@code dtypes} replaced, ops, shapes,
   * roles and order unchanged. Shape inference is not run again: a lowered graph mixes precisions
   * (an INT8 producer feeding an op kept in F16) where TPU-MLIR inserts casts.
   */
  public Graph withDTypes(Map<String, DType> dtypes) {
    Builder b = new Builder(name);
    for (Tensor t : tensors.values()) {
      DType d = dtypes.getOrDefault(t.name(), t.dtype());
      b.tensors.put(t.name(), new Tensor(t.name(), t.shape(), d, t.role()));
    }
    b.ops.addAll(ops);
    for (Op op : ops) {
      b.opNames.put(op.name(), Boolean.TRUE);
    }
    b.inputs.addAll(inputs);
    b.outputs.addAll(outputs);
    return new Graph(b);
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  public String name() {
    return name;
  }

  /** All tensors in insertion order. */
  public Map<String, Tensor> tensors() {
    return tensors;
  }

  public Tensor tensor(String tensorName) {
    Tensor t = tensors.get(tensorName);
    if (t == null) {
      throw new IllegalArgumentException("graph '" + name + "' has no tensor '" + tensorName + "'");
    }
    return t;
  }

  /** All ops in insertion order. */
  public List<Op> ops() {
    return ops;
  }

  public Op op(String opName) {
    Op op = opsByName.get(opName);
    if (op == null) {
      throw new IllegalArgumentException("graph '" + name + "' has no op '" + opName + "'");
    }
    return op;
  }

  /** The position of {@code op} in insertion order (the tie-breaker of schedules). */
  public int indexOf(Op op) {
    Integer i = opIndex.get(op.name());
    if (i == null || ops.get(i) != op) {
      throw new IllegalArgumentException("op " + op.label() + " is not in graph '" + name + "'");
    }
    return i;
  }

  public List<String> inputs() {
    return inputs;
  }

  public List<String> outputs() {
    return outputs;
  }

  /** The op that defines {@code tensorName}; empty for inputs, weights and constants. */
  public Optional<Op> producer(String tensorName) {
    return Optional.ofNullable(producers.get(tensorName));
  }

  /** The ops that read {@code tensorName}, each once, in insertion order. */
  public List<Op> consumers(String tensorName) {
    return consumers.getOrDefault(tensorName, List.of());
  }

  /** The op DAG (read-only): one edge per (producer, consumer, operand). */
  public org.jgrapht.Graph<Op, Edge> dag() {
    return dag;
  }

  /** The ops whose outputs {@code op} reads, each once, in operand order. */
  public List<Op> predecessors(Op op) {
    return Graphs.predecessorListOf(dag, op).stream().distinct().toList();
  }

  /** Number of learned parameters: elements of all {@link Role#WEIGHT} tensors. */
  public long parameterCount() {
    long n = 0;
    for (Tensor t : tensors.values()) {
      if (t.role() == Role.WEIGHT) {
        n += t.shape().elements();
      }
    }
    return n;
  }

  /** Bytes of all stored tensors (weights and constants), unpadded. */
  public long storedBytes() {
    long n = 0;
    for (Tensor t : tensors.values()) {
      if (t.role().isStored()) {
        n += t.bytes();
      }
    }
    return n;
  }

  @Override
  public String toString() {
    return "Graph[" + name + ": " + ops.size() + " ops, " + tensors.size() + " tensors]";
  }

  /** Adds tensors and ops in order; shapes are inferred as each op is added. */
  public static final class Builder {
    private final String name;
    private final LinkedHashMap<String, Tensor> tensors = new LinkedHashMap<>();
    private final List<Op> ops = new ArrayList<>();
    private final Map<String, Boolean> opNames = new HashMap<>();
    private final List<String> inputs = new ArrayList<>();
    private final List<String> outputs = new ArrayList<>();

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    public String name() {
      return name;
    }

    private Tensor addTensor(Tensor t) {
      if (tensors.containsKey(t.name())) {
        throw new IllegalArgumentException(
            "graph '" + name + "': tensor '" + t.name() + "' is defined twice");
      }
      TensorType.checkBytes(
          "graph '" + name + "': tensor '" + t.name() + "'", t.shape(), t.dtype());
      tensors.put(t.name(), t);
      return t;
    }

    public Tensor input(String tensorName, DType dtype, long... dims) {
      Tensor t = addTensor(new Tensor(tensorName, Shape.of(dims), dtype, Role.INPUT));
      inputs.add(tensorName);
      return t;
    }

    public Tensor weight(String tensorName, DType dtype, long... dims) {
      return addTensor(new Tensor(tensorName, Shape.of(dims), dtype, Role.WEIGHT));
    }

    public Tensor constant(String tensorName, DType dtype, long... dims) {
      return addTensor(new Tensor(tensorName, Shape.of(dims), dtype, Role.CONSTANT));
    }

    /** Whether a tensor of this name exists already. */
    public boolean has(String tensorName) {
      return tensors.containsKey(tensorName);
    }

    public Tensor tensor(String tensorName) {
      Tensor t = tensors.get(tensorName);
      if (t == null) {
        throw new IllegalArgumentException(
            "graph '" + name + "' has no tensor '" + tensorName + "'");
      }
      return t;
    }

    /**
     * Adds an op reading {@code inputs} and defining {@code outputs}; infers and records the
     * outputs' shapes. Fails, naming the op, when an input is missing or shapes are inconsistent.
     *
     * @return the output tensors
     */
    public List<Tensor> op(
        String opName,
        OpKind kind,
        Attributes attrs,
        List<String> opInputs,
        List<String> opOutputs) {
      Op op = new Op(opName, kind, attrs, opInputs, opOutputs);
      // validate everything before changing the builder, so a failed op leaves no trace
      if (opNames.containsKey(opName)) {
        throw new IllegalArgumentException(
            "graph '" + name + "': op name '" + opName + "' is used twice");
      }
      Set<String> seen = new HashSet<>();
      for (String o : opOutputs) {
        if (tensors.containsKey(o) || !seen.add(o)) {
          throw new IllegalArgumentException(
              "graph '"
                  + name
                  + "': tensor '"
                  + o
                  + "' is defined twice (by op "
                  + op.label()
                  + ")");
        }
      }
      List<TensorType> in = new ArrayList<>();
      for (String i : opInputs) {
        Tensor t = tensors.get(i);
        if (t == null) {
          throw new IllegalArgumentException(
              "op " + op.label() + " reads tensor '" + i + "', which is not defined before it");
        }
        in.add(t.type());
      }
      List<TensorType> out = ShapeInference.infer(op, in);
      if (out.size() != opOutputs.size()) {
        throw new IllegalArgumentException(
            "op "
                + op.label()
                + " defines "
                + opOutputs.size()
                + " outputs but computes "
                + out.size());
      }
      opNames.put(opName, Boolean.TRUE);
      List<Tensor> result = new ArrayList<>();
      for (int k = 0; k < out.size(); k++) {
        TensorType tt = out.get(k);
        result.add(
            addTensor(new Tensor(opOutputs.get(k), tt.shape(), tt.dtype(), Role.ACTIVATION)));
      }
      ops.add(op);
      return result;
    }

    /** Adds a single-output op whose output is named after the op. */
    public Tensor op(String opName, OpKind kind, Attributes attrs, String... opInputs) {
      return op(opName, kind, attrs, List.of(opInputs), List.of(opName)).get(0);
    }

    /** Marks an op-defined tensor as a graph output. */
    public Builder output(String tensorName) {
      Tensor t = tensor(tensorName);
      if (t.role() != Role.ACTIVATION && t.role() != Role.OUTPUT) {
        throw new IllegalArgumentException(
            "graph '"
                + name
                + "': output '"
                + tensorName
                + "' is a "
                + t.role()
                + ", not an op result");
      }
      if (t.role() == Role.ACTIVATION) {
        tensors.put(tensorName, t.withRole(Role.OUTPUT));
        outputs.add(tensorName);
      }
      return this;
    }

    public Graph build() {
      if (outputs.isEmpty()) {
        throw new IllegalArgumentException("graph '" + name + "' has no output");
      }
      return new Graph(this);
    }
  }
}
