package io.github.memplan.core.frontend;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Decomposed activations and norms of an exported ONNX model put back together, as TPU-MLIR's ONNX
 * front end does before it converts to its Top dialect: {@code onnx_opt} in {@code
 * python/transform/OnnxOpt.py} (at commit 03d3b3e601), with its patterns {@code
 * TorchLayerNormPattern} (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add to one
 * LayerNormalization; the first seven without affine parameters), {@code TorchGELUPattern} (Div,
 * Erf, Add, Mul, Mul to GELU), {@code TorchGELUPattern2} (the tanh form, eight ops), {@code
 * TorchHardSigmoidPattern} (Add, Clip(0, 6), Div), {@code TorchHardSwishPattern} (HardSigmoid(1/6,
 * 1/2), Mul) and {@code TorchHardSwishPattern2} (Add, Clip(0, 6), Mul, Div). {@code
 * TorchPixelNormPattern} (the LayerNorm chain over the channel axis) has no memplan kind and is not
 * applied.
 *
 * <p>As {@code ReForm.match_pattern} does, a pattern matches a run of consecutive ops in graph
 * order whose kinds follow the pattern, each op reading the outputs of the pattern's earlier ops
 * where the pattern says so (Add and Mul also with their operands swapped), the same outside tensor
 * where the pattern names one twice (the LayerNorm's input), and a coefficient where the pattern
 * wants a tensor; ReduceMean's {@code axes} must be consecutive and end at -1, HardSigmoid's {@code
 * alpha} and {@code beta} 1/6 and 1/2 (in float), Clip's bounds 0 and 6. The patterns run in that
 * order, again until none matches ({@code graph_opt}). The new op takes the last op's place, name
 * and output; the LayerNorm takes the first ReduceMean's {@code axes[0]} as its axis.
 *
 * <p>Departures: memplan has no tensor values, so the constants a pattern checks by value (the 2 of
 * Pow, the 1 and 0.5 of GELU, the 3 and 6 of HardSwish) are only checked to be one-element
 * coefficients, and the LayerNorm's epsilon (read from the Add's constant) is left at the default;
 * a match whose intermediate results are read outside the pattern is skipped (TPU-MLIR would remove
 * them anyway); the new HardSigmoid, HardSwish and GELU carry no attributes, as in TPU-MLIR.
 */
final class OnnxOpt implements FrontEndPass {
  /** An input of a pattern node. */
  private record In(Type type, int ref) {
    enum Type {
      /** A tensor from outside the pattern, bound on first use (its id {@code ref}). */
      OUTER,
      /** A coefficient from outside the pattern. */
      TENSOR,
      /** A coefficient expected to hold one value (TPU-MLIR checks the value itself). */
      SCALAR,
      /** The output of the pattern's node {@code ref}. */
      NODE
    }
  }

  private record PNode(OpKind kind, List<In> inputs, Predicate<Op> check) {}

  /** A pattern: its nodes, and the op that replaces a match (given the bound outer tensors). */
  private record Pattern(String name, List<PNode> nodes, Function<Match, Op> replacement) {}

  /** A match: the ops, in order, and the outer tensors bound by id. */
  private record Match(List<Op> ops, Map<Integer, String> outer) {
    Op last() {
      return ops.get(ops.size() - 1);
    }
  }

  private static In outer(int id) {
    return new In(In.Type.OUTER, id);
  }

  private static In tensor(int id) {
    return new In(In.Type.TENSOR, id);
  }

  private static In scalar() {
    return new In(In.Type.SCALAR, -1);
  }

  private static In node(int index) {
    return new In(In.Type.NODE, index);
  }

  private static PNode p(OpKind kind, In... inputs) {
    return new PNode(kind, List.of(inputs), op -> true);
  }

  private static boolean lastDims(Op op) {
    long[] axes = op.attributes().getInts("axes", null);
    if (axes == null || axes.length == 0 || axes[axes.length - 1] != -1) {
      return false;
    }
    for (int i = 1; i < axes.length; i++) {
      if (axes[i] - axes[i - 1] != 1) {
        return false;
      }
    }
    return true;
  }

  private static final List<Pattern> PATTERNS = patterns();

  private static List<Pattern> patterns() {
    List<Pattern> out = new ArrayList<>();
    // TorchLayerNormPattern: x=0, weight=1, bias=2
    PNode mean0 = new PNode(OpKind.REDUCE_MEAN, List.of(outer(0)), OnnxOpt::lastDims);
    PNode mean1 = new PNode(OpKind.REDUCE_MEAN, List.of(node(2)), OnnxOpt::lastDims);
    List<PNode> ln =
        List.of(
            mean0,
            p(OpKind.SUB, outer(0), node(0)),
            p(OpKind.POW, node(1), scalar()),
            mean1,
            p(OpKind.ADD, node(3), scalar()),
            p(OpKind.SQRT, node(4)),
            p(OpKind.DIV, node(1), node(5)),
            p(OpKind.MUL, node(6), tensor(1)),
            p(OpKind.ADD, node(7), tensor(2)));
    out.add(
        new Pattern(
            "layernorm_aff",
            ln,
            m -> layerNorm(m, List.of(m.outer().get(0), m.outer().get(1), m.outer().get(2)))));
    out.add(
        new Pattern("layernorm", ln.subList(0, 7), m -> layerNorm(m, List.of(m.outer().get(0)))));
    // TorchHardSigmoidPattern: Add(x, 3), Clip(0, 6), Div(6)
    PNode clip06 =
        new PNode(
            OpKind.CLIP,
            List.of(node(0)),
            op ->
                op.attributes().getFloat("min", Double.NaN) == 0.0
                    && op.attributes().getFloat("max", Double.NaN) == 6.0);
    out.add(
        new Pattern(
            "HardSigmoid",
            List.of(p(OpKind.ADD, outer(0), scalar()), clip06, p(OpKind.DIV, node(1), scalar())),
            m -> unary(m, OpKind.HARD_SIGMOID)));
    // TorchHardSwishPattern: HardSigmoid(x; 1/6, 1/2), Mul(x, .)
    PNode hsig =
        new PNode(
            OpKind.HARD_SIGMOID,
            List.of(outer(0)),
            op ->
                (float) op.attributes().getFloat("alpha", Double.NaN) == 0.16666667f
                    && (float) op.attributes().getFloat("beta", Double.NaN) == 0.5f);
    out.add(
        new Pattern(
            "hardswish",
            List.of(hsig, p(OpKind.MUL, outer(0), node(0))),
            m -> unary(m, OpKind.HARD_SWISH)));
    // TorchHardSwishPattern2: Add(x, 3), Clip(0, 6), Mul(x, .), Div(6)
    out.add(
        new Pattern(
            "hardswish",
            List.of(
                p(OpKind.ADD, outer(0), scalar()),
                clip06,
                p(OpKind.MUL, outer(0), node(1)),
                p(OpKind.DIV, node(2), scalar())),
            m -> unary(m, OpKind.HARD_SWISH)));
    // TorchGELUPattern: Div(x, c), Erf, Add(1), Mul(x, .), Mul(0.5)
    out.add(
        new Pattern(
            "GELU",
            List.of(
                p(OpKind.DIV, outer(0), tensor(1)),
                p(OpKind.ERF, node(0)),
                p(OpKind.ADD, node(1), scalar()),
                p(OpKind.MUL, outer(0), node(2)),
                p(OpKind.MUL, node(3), scalar())),
            m -> unary(m, OpKind.GELU)));
    // TorchGELUPattern2: the tanh approximation
    out.add(
        new Pattern(
            "GELU",
            List.of(
                p(OpKind.MUL, outer(0), scalar()),
                p(OpKind.POW, outer(0), scalar()),
                p(OpKind.MUL, node(1), tensor(1)),
                p(OpKind.ADD, outer(0), node(2)),
                p(OpKind.MUL, node(3), tensor(2)),
                p(OpKind.TANH, node(4)),
                p(OpKind.ADD, node(5), scalar()),
                p(OpKind.MUL, node(0), node(6))),
            m -> unary(m, OpKind.GELU)));
    return List.copyOf(out);
  }

  private static Op layerNorm(Match m, List<String> inputs) {
    long axis = m.ops().get(0).attributes().getInts("axes", null)[0];
    return new Op(
        m.last().name(),
        OpKind.LAYER_NORMALIZATION,
        Attributes.builder().put("axis", axis).build(),
        inputs,
        m.last().outputs());
  }

  private static Op unary(Match m, OpKind kind) {
    return new Op(
        m.last().name(), kind, Attributes.empty(), List.of(m.outer().get(0)), m.last().outputs());
  }

  @Override
  public Graph apply(Graph graph, Chip chip) {
    Graph g = graph;
    boolean replaced = true;
    while (replaced) {
      replaced = false;
      for (Pattern pattern : PATTERNS) {
        Graph next = replace(g, pattern);
        replaced |= next != g;
        g = next;
      }
    }
    return g;
  }

  /** Every match of {@code pattern}, found as {@code ReForm.match_pattern} scans, replaced. */
  private static Graph replace(Graph graph, Pattern pattern) {
    GraphRewrite rw = new GraphRewrite(graph);
    List<PNode> nodes = pattern.nodes();
    List<Op> run = new ArrayList<>();
    Map<Integer, String> outer = new HashMap<>();
    for (Op op : graph.ops()) {
      Map<Integer, String> bound = null;
      if (op.kind() == nodes.get(run.size()).kind()) {
        bound = matchNode(graph, op, nodes.get(run.size()), run, outer);
      }
      if (bound == null) {
        run.clear();
        outer.clear();
        if (op.kind() == nodes.get(0).kind()) {
          bound = matchNode(graph, op, nodes.get(0), run, outer);
        }
        if (bound == null) {
          continue;
        }
      }
      run.add(op);
      outer.clear();
      outer.putAll(bound);
      if (run.size() == nodes.size()) {
        Match m = new Match(List.copyOf(run), Map.copyOf(outer));
        if (selfContained(graph, m)) {
          for (Op o : m.ops().subList(0, m.ops().size() - 1)) {
            rw.remove(o);
            o.inputs().forEach(rw::dropIfUnused);
          }
          rw.replace(m.last(), pattern.replacement().apply(m));
          m.last().inputs().forEach(rw::dropIfUnused);
        }
        run.clear();
        outer.clear();
      }
    }
    return rw.build();
  }

  /**
   * The outer bindings after {@code op} matches {@code pn} given the ops matched so far, or null
   * ({@code ReForm.match_node}: the operands in order, then swapped for Add and Mul).
   */
  private static Map<Integer, String> matchNode(
      Graph graph, Op op, PNode pn, List<Op> run, Map<Integer, String> outer) {
    if (!pn.check().test(op) || op.inputs().size() != pn.inputs().size()) {
      return null;
    }
    Map<Integer, String> m = matchInputs(graph, op.inputs(), pn, run, outer);
    if (m == null && (op.kind() == OpKind.ADD || op.kind() == OpKind.MUL)) {
      List<String> swapped = new ArrayList<>(op.inputs());
      java.util.Collections.reverse(swapped);
      m = matchInputs(graph, swapped, pn, run, outer);
    }
    return m;
  }

  private static Map<Integer, String> matchInputs(
      Graph graph, List<String> inputs, PNode pn, List<Op> run, Map<Integer, String> outer) {
    Map<Integer, String> bound = new HashMap<>(outer);
    for (int i = 0; i < inputs.size(); i++) {
      String t = inputs.get(i);
      In in = pn.inputs().get(i);
      switch (in.type()) {
        case OUTER -> {
          String b = bound.putIfAbsent(in.ref(), t);
          if (b != null && !b.equals(t)) {
            return null;
          }
        }
        case TENSOR -> {
          if (!Uses.isWeight(graph, t)) {
            return null;
          }
          bound.put(in.ref(), t);
        }
        case SCALAR -> {
          if (!Uses.isWeight(graph, t) || graph.tensor(t).shape().elements() != 1) {
            return null;
          }
        }
        case NODE -> {
          if (in.ref() >= run.size() || !run.get(in.ref()).outputs().contains(t)) {
            return null;
          }
        }
      }
    }
    return bound;
  }

  /** Whether only the match's own ops read its intermediate results. */
  private static boolean selfContained(Graph graph, Match m) {
    Set<Op> inside = new HashSet<>(m.ops());
    for (Op o : m.ops().subList(0, m.ops().size() - 1)) {
      for (String out : o.outputs()) {
        if (graph.outputs().contains(out)) {
          return false;
        }
        for (Op user : graph.consumers(out)) {
          if (!inside.contains(user)) {
            return false;
          }
        }
      }
    }
    return true;
  }
}
