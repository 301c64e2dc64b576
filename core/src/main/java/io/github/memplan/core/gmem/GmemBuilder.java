package io.github.memplan.core.gmem;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.Program;
import io.github.memplan.core.dsa.Step;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Schedule;
import io.github.memplan.core.ir.Shape;
import io.github.memplan.core.ir.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Turns a graph and an op order into TPU-MLIR's GMEM problem (BM168x flow, {@code
 * reference/tpu-mlir.md} §1.1-1.5; the CV18xx alignments of §1.9 when the chip says so).
 *
 * <p><b>Weights</b> ({@code BMAddressAssign}, §1.1): every weight and constant in graph order,
 * sequentially, each starting on the chip's weight alignment (4 KiB on BM168x, 16 B on CV18xx):
 * {@code addr = align_up(addr + bytes, ALIGNMENT)}.
 *
 * <p><b>Positions.</b> As TPU-MLIR numbers every op of the function in walk order, each graph input
 * gets an {@code Input} step (like {@code top.InputOp}), then come the ops in schedule order, then
 * a {@code Return} step that reads the graph outputs.
 *
 * <p><b>Lifetimes</b> ({@code updateLiveRangeofBMOps}, §1.3): a value lives {@code [def, next
 * position after its last user)}, half-open; graph inputs live for the whole run unless {@link
 * GmemOptions#inputsLiveForever()} is off; graph outputs are read by the Return step and so live to
 * the end; a value nobody reads lives {@code [def, def + 1)}.
 *
 * <p><b>Sizes</b> ({@code getTensorGmemSize}, §1.4): bytes rounded up to the chip's GMEM alignment,
 * which is also each buffer's alignment.
 *
 * <p><b>In-place ops</b> (§1.5, {@code BMAddressAssign::isInPlaceOp} and {@code assignAfter}). An
 * in-place op's outputs are aliases ({@link Program}) and its step is {@link Step#inPlace()}; a
 * buffer's lifetime is the union of the lifetimes of all values that live in it, which is {@code
 * findInPlaceOpMaxUsePosition}'s extension of an operand over its chain of in-place users and
 * {@code getConcatOpLive}'s union for a Concat.
 *
 * <ul>
 *   <li>The output of an alias op ({@link GmemOptions#aliasKinds()}: Reshape and the like) is an
 *       alias of its input at the same offset. An alias of a weight is a weight (TPU-MLIR folds
 *       it).
 *   <li>A <b>fusible Slice</b> ({@link GmemOptions#inPlaceSlice()}; {@code SliceOp::parseParam}):
 *       all steps 1, exactly one axis whose size changes, and every input dimension before that
 *       axis 1, so the result is one contiguous run of its input. Its output is an alias of its
 *       input at {@code start × (elements of one index of that axis) × element size} bytes further
 *       in (a start that does not fall on a byte boundary, possible only with 4-bit elements, keeps
 *       the Slice a copy). A fused Slice of a weight is a weight, as for Reshape.
 *   <li>A <b>merge-only Concat</b> ({@link GmemOptions#inPlaceConcat()}; {@code ConcatFusePattern}
 *       sets {@code only_merge}): every output dimension before the concat axis is 1, and every
 *       operand is an activation read by this Concat only and only once, neither a graph input nor
 *       a graph output, not already an alias (a Reshape or fused Slice output, or the output of
 *       another merged Concat), and a whole number of bytes. Then operand 0's buffer becomes the
 *       Concat's buffer, sized by the Concat's output; operand {@code k} is an alias in it at the
 *       sum of the bytes of operands {@code 0..k-1}, and the Concat's output an alias at 0. As in
 *       the source, operand 0 carries the whole size and the buffer lives from the first operand's
 *       definition to the Concat output's last use.
 * </ul>
 *
 * <p>Departures: BM1684's 4N storage of 8/16-bit activations (and the in-place exceptions it
 * brings), NNVLC compression, MD5 weight de-duplication on CV18xx, and the address modes other than
 * BASIC are not modelled. The Concat rule is the stricter {@code ConcatFusePattern} of 2022-2023;
 * today's also merges operands with a second user and graph inputs, and looks through a Reshape
 * between an operand and the Concat; nested Concats are not flattened ({@code ConcatMergePattern}):
 * the inner one is merged and the outer one, whose operand is then an alias, stays a copy.
 */
public final class GmemBuilder {
  private GmemBuilder() {}

  /** The problem for {@code graph} in its deterministic topological order. */
  public static GmemProblem build(Graph graph, Chip chip, GmemOptions options) {
    return build(graph, Schedule.topological(graph), chip, options);
  }

  /** The problem for {@code graph} run in {@code order}. */
  public static GmemProblem build(Graph graph, List<Op> order, Chip chip, GmemOptions options) {
    Schedule.check(graph, order);
    WeightLayout weights = layoutWeights(graph, chip.weightAlignment());
    Places places = place(graph, order, options);

    List<Step> steps = new ArrayList<>();
    List<String> activationOrder = new ArrayList<>();
    for (String in : graph.inputs()) {
      activationOrder.add(in);
      steps.add(new Step("input:" + in, "Input", List.of(), List.of(in), false));
    }
    for (Op op : order) {
      if (places.storedAliases.contains(op.name())) {
        continue; // a reshaped or sliced weight is a weight
      }
      List<String> reads = new ArrayList<>();
      for (String in : op.inputs()) {
        if (places.rootOf.containsKey(in)) {
          reads.add(in);
        }
      }
      for (String out : op.outputs()) {
        if (places.rootOf.get(out).equals(out)) {
          activationOrder.add(out);
        }
      }
      steps.add(
          new Step(
              op.name(),
              op.kind().onnxName(),
              reads,
              op.outputs(),
              places.inPlaceOps.contains(op.name())));
    }
    List<String> returned = new ArrayList<>(graph.outputs());
    if (options.inputsLiveForever()) {
      returned.addAll(graph.inputs());
    }
    steps.add(new Step("return", "Return", returned, List.of(), false));

    // lifetimes of roots: union over every value in the buffer of [def, last use + 1)
    Map<String, int[]> life = new HashMap<>();
    for (int t = 0; t < steps.size(); t++) {
      Step s = steps.get(t);
      for (String out : s.outputs()) {
        int[] l =
            life.computeIfAbsent(places.rootOf.get(out), k -> new int[] {Integer.MAX_VALUE, 0});
        l[0] = Math.min(l[0], t);
        l[1] = Math.max(l[1], t + 1);
      }
      for (String in : s.inputs()) {
        int[] l = life.get(places.rootOf.get(in));
        l[1] = Math.max(l[1], t + 1);
      }
    }
    long align = chip.gmemAlignment();
    List<Buffer> buffers = new ArrayList<>();
    Map<String, String> aliasOf = new LinkedHashMap<>();
    Map<String, Long> aliasOffset = new LinkedHashMap<>();
    for (String id : activationOrder) {
      int[] l = life.get(id);
      long bytes = places.bytesOf.getOrDefault(id, graph.tensor(id).bytes());
      buffers.add(
          new Buffer(
              id, l[0], l[1], Alignment.up(bytes, align), align, List.of(), OptionalLong.empty()));
    }
    for (Step s : steps) {
      for (String out : s.outputs()) {
        String root = places.rootOf.get(out);
        if (!root.equals(out)) {
          aliasOf.put(out, root);
          long off = places.offsetOf.getOrDefault(out, 0L);
          if (off != 0) {
            aliasOffset.put(out, off);
          }
        }
      }
    }
    DsaInstance instance =
        new DsaInstance(
            graph.name() + "@" + chip.name(),
            buffers,
            DsaInstance.UNBOUNDED,
            new Program(steps, aliasOf, aliasOffset));
    return new GmemProblem(graph.name(), chip, weights, instance);
  }

  /** Where every activation lives: its buffer (root) and offset in it. */
  private static final class Places {
    /** activation value -> buffer id; stored tensors and their aliases are absent */
    final Map<String, String> rootOf = new HashMap<>();

    final Map<String, Long> offsetOf = new HashMap<>();

    /** bytes of a buffer that is not its own tensor's size (a merged Concat's) */
    final Map<String, Long> bytesOf = new HashMap<>();

    final Set<String> inPlaceOps = new HashSet<>();

    /** alias ops of a stored tensor: folded into the weights, no step */
    final Set<String> storedAliases = new HashSet<>();

    void alias(String value, String ofValue, long extra) {
      rootOf.put(value, rootOf.get(ofValue));
      offsetOf.put(value, offsetOf.getOrDefault(ofValue, 0L) + extra);
    }

    boolean isAlias(String value) {
      return !rootOf.get(value).equals(value);
    }
  }

  private static Places place(Graph graph, List<Op> order, GmemOptions options) {
    Places p = new Places();
    for (String in : graph.inputs()) {
      p.rootOf.put(in, in);
    }
    for (Op op : order) {
      OpKind kind = op.kind();
      boolean aliasKind = options.aliasKinds().contains(kind);
      OptionalLong sliceOffset =
          kind == OpKind.SLICE && options.inPlaceSlice()
              ? fusibleSliceOffset(graph, op)
              : OptionalLong.empty();
      if (aliasKind || sliceOffset.isPresent()) {
        String in = op.inputs().isEmpty() ? null : op.inputs().get(0);
        if (in == null || !p.rootOf.containsKey(in)) {
          p.storedAliases.add(op.name());
          continue;
        }
        for (String out : op.outputs()) {
          p.alias(out, in, sliceOffset.orElse(0));
        }
        p.inPlaceOps.add(op.name());
      } else if (kind == OpKind.CONCAT && options.inPlaceConcat() && mergeable(graph, op, p)) {
        String region = op.inputs().get(0);
        long at = 0;
        for (String in : op.inputs()) {
          if (!in.equals(region)) {
            p.alias(in, region, at);
          }
          at += graph.tensor(in).bytes();
        }
        String out = op.outputs().get(0);
        p.alias(out, region, 0);
        p.bytesOf.put(region, graph.tensor(out).bytes());
        p.inPlaceOps.add(op.name());
      } else {
        for (String out : op.outputs()) {
          p.rootOf.put(out, out);
        }
      }
    }
    return p;
  }

  /** Whether {@code concat} is merge-only: see the class comment. */
  private static boolean mergeable(Graph graph, Op concat, Places p) {
    Shape outShape = graph.tensor(concat.outputs().get(0)).shape();
    int axis = outShape.normalizeAxis((int) concat.attributes().getInt("axis", 0));
    for (int d = 0; d < axis; d++) {
      if (outShape.dim(d) != 1) {
        return false;
      }
    }
    Set<String> seen = new HashSet<>();
    for (String in : concat.inputs()) {
      Tensor t = graph.tensor(in);
      boolean wholeBytes = (t.shape().elements() * (long) t.dtype().bits()) % 8 == 0;
      if (!seen.add(in)
          || !p.rootOf.containsKey(in)
          || p.isAlias(in)
          || graph.inputs().contains(in)
          || graph.outputs().contains(in)
          || !graph.consumers(in).equals(List.of(concat))
          || !wholeBytes) {
        return false;
      }
    }
    return !concat.inputs().isEmpty();
  }

  /**
   * The byte offset of a fusible Slice's result in its input ({@code SliceOp::parseParam}: no step
   * other than 1, exactly one axis that changes, all input dimensions before it 1), or empty when
   * the Slice must copy.
   */
  static OptionalLong fusibleSliceOffset(Graph graph, Op slice) {
    Tensor in = graph.tensor(slice.inputs().get(0));
    Tensor out = graph.tensor(slice.outputs().get(0));
    long[] is = in.shape().dims();
    long[] os = out.shape().dims();
    if (is.length != os.length) {
      return OptionalLong.empty();
    }
    long[] steps = slice.attributes().getInts("steps", null);
    if (steps != null) {
      for (long s : steps) {
        if (s != 1) {
          return OptionalLong.empty();
        }
      }
    }
    int axis = -1;
    for (int d = 0; d < is.length; d++) {
      if (is[d] != os[d]) {
        if (axis >= 0) {
          return OptionalLong.empty();
        }
        axis = d;
      }
    }
    if (axis < 0) {
      return OptionalLong.empty();
    }
    for (int d = 0; d < axis; d++) {
      if (is[d] != 1) {
        return OptionalLong.empty();
      }
    }
    long[] starts = slice.attributes().getInts("starts", new long[0]);
    long[] axes = slice.attributes().getInts("axes", null);
    long start = 0;
    for (int i = 0; i < starts.length; i++) {
      int a = axes == null ? i : in.shape().normalizeAxis((int) axes[i]);
      if (a == axis) {
        long s = starts[i] < 0 ? starts[i] + is[axis] : starts[i];
        start = Math.max(0, Math.min(s, is[axis]));
      }
    }
    long inner = 1;
    for (int d = axis + 1; d < is.length; d++) {
      inner = Math.multiplyExact(inner, is[d]);
    }
    long bits = Math.multiplyExact(Math.multiplyExact(start, inner), (long) in.dtype().bits());
    return bits % 8 == 0 ? OptionalLong.of(bits / 8) : OptionalLong.empty();
  }

  /** TPU-MLIR's coefficient layout: stored tensors in graph order, bump pointer, aligned. */
  public static WeightLayout layoutWeights(Graph graph, long alignment) {
    List<WeightSlot> slots = new ArrayList<>();
    long addr = 0;
    long raw = 0;
    for (Tensor t : graph.tensors().values()) {
      if (t.role() == Role.WEIGHT || t.role() == Role.CONSTANT) {
        slots.add(new WeightSlot(t.name(), addr, t.bytes()));
        raw += t.bytes();
        addr = Alignment.up(addr + t.bytes(), alignment);
      }
    }
    return new WeightLayout(slots, addr, raw);
  }
}
