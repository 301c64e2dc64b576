package io.github.memplan.core.frontend;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import io.github.memplan.core.ir.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A transformer's self-attention block becomes one Attention op per head, as TPU-MLIR compiles it
 * for BM1684X: the processor-optimize pattern {@code ConvertMatMul2Attention} ({@code
 * lib/Dialect/Top/Transforms/ProcessorOptimize/OptimizeBM1684X.cpp} at 7564c1b747, registered in
 * {@code populateOptimizeBM1684XPatterns} with benefit 8; {@code model_deploy} runs it as {@code
 * --processor-top-optimize}, {@code python/utils/mlir_shell.py} {@code lowering_options} at
 * 0108404c8c) fuses the block into one {@code top.AttentionOp}, and its lowering ({@code
 * lib/Conversion/TopToTpu/BM1684X/Attention.cpp} at 0050c8e5e3, {@code
 * lowering_multi_attention_float} for F32, BF16 and F16, {@code lowering_multi_attention_int} for
 * INT8) splits it into one {@code tpu.AttentionOp} per head ({@code head = 1}, the q, k, v weights
 * and biases split along their last dim, the output weight along its first, the output bias on head
 * 0 only) whose results {@code tpu.AddOp}s sum in head order: {@code attn_0, attn_1, add_1, attn_2,
 * add_2, ...}, the last Add taking the block's name and result. LayerGroup sees those ops, so this
 * pass produces them directly ({@link OpKind#ATTENTION}; the Adds carry {@value #FUSE} = 1 so that
 * {@link Lowering} types them as the heads).
 *
 * <p>The match, from the block's output projection {@code op} as the pattern walks it:
 *
 * <ul>
 *   <li>the chip is BM1684X (the pattern returns early on BM1688, the BM1690 family, SG2380, MARS3
 *       and SGTPUV8; BM1684 and CV18xx run other pattern lists, {@code ProcessorOptimize.cpp});
 *       {@code --high_precision} is off, its default;
 *   <li>{@code op} is a MatMul with a coefficient right operand and one use; its left operand comes
 *       through Reshape ← Transpose (one use each) ← an optional Reshape (one use) from the context
 *       MatMul ({@code is_reshape_permute});
 *   <li>the context MatMul's left operand is a Softmax of one use, whose input is either an Add
 *       (the mask, its second operand, with {@code batch · shape[-1]} elements, {@code batch} the
 *       first dim of {@code op}'s input) of the scaled scores or the scaled scores themselves;
 *   <li>the scaling is a {@code top.MulConstOp} of one use: memplan's Mul or Div by a stored
 *       scalar, which TPU-MLIR's ONNX converter makes a MulConst ({@code convert_div_op}, {@code
 *       convert_mul_op}); its input is the scores MatMul;
 *   <li>the scores' left operand comes from the queries MatMul through (Reshape?) ← Transpose ←
 *       Reshape ({@code is_permute_reshape}); its right operand is a Transpose of one use whose
 *       input (or, failing that, the right operand itself) comes that way from the keys MatMul; the
 *       context's right operand that way from the values MatMul; all three with coefficient right
 *       operands;
 *   <li>{@code head} is the context's dim 1 (dim 0 / batch for rank 3); on BM1684X the block fails
 *       when the queries' input has more than {@code 2048·320·4} elements per batch row or {@code
 *       (2·|Wq| + |Wk| + |Wv|) / head > 1024·128·4}.
 * </ul>
 *
 * The scores, scaling, mask Add, Softmax, context and the reshapes and transposes around them, and
 * the q, k, v MatMuls, disappear when nothing else reads them (MLIR erases dead ops); the mask's
 * own producers stay. In every mode TPU-MLIR's {@code attention_reorder} then drops the keys and
 * values operands of a self-attention (they are the input), so a head reads one activation, its
 * weights and the mask.
 *
 * <p>In INT8, TPU-MLIR sums the heads in INT32 and requantises the sum with one {@code
 * tpu.RequantIntOp}; {@link AttentionRequant} adds it when the graph is lowered.
 *
 * <p>Departures:
 *
 * <ul>
 *   <li>Only self-attention is fused (queries, keys and values from one tensor); TPU-MLIR also
 *       fuses a block whose queries and keys differ. Every zoo transformer is self-attention.
 *   <li>The scale ({@code MulConst}'s value) and INT8's {@code scale_param} are not recorded:
 *       memplan carries no tensor data.
 *   <li>The weights stay separate per head and kind; TPU-MLIR's weight reorder merges a head's q,
 *       k, v weights into one coefficient ({@code AttentionOp::init} reads them at offsets {@code
 *       align_up(N, NPU_NUM)·d} apart) and its biases into another.
 *   <li>BM1684X2 is not fused: the pattern's chip test would admit it, but whether {@code
 *       isBM1684X()} covers it (the size limits) was not checked.
 * </ul>
 */
final class AttentionFusion implements FrontEndPass {
  /** Attribute set to 1 on the Adds that sum the heads' outputs. */
  static final String FUSE = "attention_fuse";

  private static final long MAX_INPUT_PER_BATCH = 2048L * 320 * 4;
  private static final long MAX_WEIGHT_PER_HEAD = 1024L * 128 * 4;

  /** Whether TPU-MLIR fuses attention on {@code chip} (see the class comment). */
  static boolean fusesOn(Chip chip) {
    return chip.name().equals("bm1684x");
  }

  @Override
  public Graph apply(Graph graph, Chip chip) {
    if (!fusesOn(chip)) {
      return graph;
    }
    GraphRewrite rw = new GraphRewrite(graph);
    for (Op op : graph.ops()) {
      Match m = match(graph, op);
      if (m == null || m.chain.stream().anyMatch(rw::touched)) {
        continue;
      }
      rewrite(graph, rw, m);
    }
    return rw.build();
  }

  /** A matched block: the output projection, the three projections, the mask and the dead ops. */
  private record Match(
      Op out, Op queries, Op keys, Op values, String mask, long head, Set<Op> chain) {}

  private static Match match(Graph g, Op op) {
    if (op.kind() != OpKind.MAT_MUL
        || !Uses.isWeight(g, op.inputs().get(1))
        || !Uses.hasOneUse(g, op)) {
      return null;
    }
    Set<Op> chain = new LinkedHashSet<>();
    String ctxOut = reshapePermute(g, op.inputs().get(0), chain);
    Op context = ctxOut == null ? null : producer(g, ctxOut, OpKind.MAT_MUL, false);
    if (context == null) {
      return null;
    }
    chain.add(context);
    Op softmax = producer(g, context.inputs().get(0), OpKind.SOFTMAX, true);
    if (softmax == null) {
      return null;
    }
    chain.add(softmax);
    String mulOut = softmax.inputs().get(0);
    String mask = null;
    Op add = producer(g, mulOut, OpKind.ADD, false);
    if (add != null) {
      if (add.inputs().size() != 2) {
        return null;
      }
      mask = add.inputs().get(1);
      Shape ms = g.tensor(mask).shape();
      long batch = g.tensor(op.inputs().get(0)).shape().dim(0);
      if (ms.rank() == 0 || batch * ms.dim(-1) != ms.elements()) {
        return null;
      }
      chain.add(add);
      mulOut = add.inputs().get(0);
    }
    Op scale = g.producer(mulOut).orElse(null);
    String scaled = scale == null ? null : mulConstInput(g, scale);
    if (scaled == null || !Uses.hasOneUse(g, scale)) {
      return null;
    }
    chain.add(scale);
    Op scores = producer(g, scaled, OpKind.MAT_MUL, false);
    if (scores == null) {
      return null;
    }
    chain.add(scores);
    Op queries = projection(g, permuteReshape(g, scores.inputs().get(0), chain));
    Op kt = producer(g, scores.inputs().get(1), OpKind.TRANSPOSE, true);
    if (queries == null || kt == null) {
      return null;
    }
    Set<Op> keyPath = new LinkedHashSet<>();
    String keysOut = permuteReshape(g, kt.inputs().get(0), keyPath);
    if (keysOut == null) {
      keyPath.clear();
      keysOut = permuteReshape(g, scores.inputs().get(1), keyPath);
    } else {
      keyPath.add(kt);
    }
    chain.addAll(keyPath);
    Op keys = projection(g, keysOut);
    Op values = projection(g, permuteReshape(g, context.inputs().get(1), chain));
    if (keys == null || values == null) {
      return null;
    }
    String in = queries.inputs().get(0);
    if (!in.equals(keys.inputs().get(0)) || !in.equals(values.inputs().get(0))) {
      return null; // self-attention only (see the departures)
    }
    Shape ctxShape = g.tensor(context.outputs().get(0)).shape();
    Shape inShape = g.tensor(in).shape();
    long n = inShape.dim(0);
    long head = ctxShape.rank() == 3 ? ctxShape.dim(0) / n : ctxShape.dim(1);
    long wq = g.tensor(queries.inputs().get(1)).shape().elements();
    long wk = g.tensor(keys.inputs().get(1)).shape().elements();
    long wv = g.tensor(values.inputs().get(1)).shape().elements();
    if (inShape.elements() / n > MAX_INPUT_PER_BATCH
        || (wq * 2 + wk + wv) / head > MAX_WEIGHT_PER_HEAD) {
      return null;
    }
    Shape wqs = g.tensor(queries.inputs().get(1)).shape();
    Shape wos = g.tensor(op.inputs().get(1)).shape();
    if (wqs.rank() != 2 || wos.rank() != 2 || wqs.dim(1) % head != 0 || wos.dim(0) != wqs.dim(1)) {
      return null; // batched or mismatched weights: not a per-head split memplan can express
    }
    chain.add(queries);
    chain.add(keys);
    chain.add(values);
    chain.add(op);
    return new Match(op, queries, keys, values, mask, head, chain);
  }

  /** The producer of {@code t} if it is of {@code kind} (and, with {@code oneUse}, has one use). */
  private static Op producer(Graph g, String t, OpKind kind, boolean oneUse) {
    Op p = g.producer(t).orElse(null);
    if (p == null || p.kind() != kind || (oneUse && !Uses.hasOneUse(g, p))) {
      return null;
    }
    return p;
  }

  /** {@code is_reshape_permute}: Reshape ← Transpose ← (Reshape)?, each of one use. */
  private static String reshapePermute(Graph g, String in, Set<Op> chain) {
    Op r0 = producer(g, in, OpKind.RESHAPE, true);
    Op p0 = r0 == null ? null : producer(g, r0.inputs().get(0), OpKind.TRANSPOSE, true);
    if (p0 == null) {
      return null;
    }
    chain.add(r0);
    chain.add(p0);
    Op r1 = g.producer(p0.inputs().get(0)).orElse(null);
    if (r1 == null || r1.kind() != OpKind.RESHAPE) {
      return p0.inputs().get(0);
    }
    if (!Uses.hasOneUse(g, r1)) {
      return null;
    }
    chain.add(r1);
    return r1.inputs().get(0);
  }

  /** {@code is_permute_reshape}: (Reshape)? ← Transpose ← Reshape, each of one use. */
  private static String permuteReshape(Graph g, String in, Set<Op> chain) {
    if (in == null) {
      return null;
    }
    String permuteOut = in;
    Op r0 = g.producer(in).orElse(null);
    if (r0 != null && r0.kind() == OpKind.RESHAPE) {
      if (!Uses.hasOneUse(g, r0)) {
        return null;
      }
      permuteOut = r0.inputs().get(0);
    } else {
      r0 = null;
    }
    Op p0 = producer(g, permuteOut, OpKind.TRANSPOSE, true);
    Op r1 = p0 == null ? null : producer(g, p0.inputs().get(0), OpKind.RESHAPE, true);
    if (r1 == null) {
      return null;
    }
    if (r0 != null) {
      chain.add(r0);
    }
    chain.add(p0);
    chain.add(r1);
    return r1.inputs().get(0);
  }

  /** The MatMul with a coefficient right operand defining {@code t}, or null. */
  private static Op projection(Graph g, String t) {
    Op p = t == null ? null : producer(g, t, OpKind.MAT_MUL, false);
    return p != null && Uses.isWeight(g, p.inputs().get(1)) ? p : null;
  }

  /**
   * The activation a {@code top.MulConstOp} would scale: Div by a stored scalar, or Mul with a
   * stored scalar on either side; null for anything else.
   */
  private static String mulConstInput(Graph g, Op op) {
    if (op.inputs().size() != 2) {
      return null;
    }
    String a = op.inputs().get(0);
    String b = op.inputs().get(1);
    if ((op.kind() == OpKind.DIV || op.kind() == OpKind.MUL) && scalar(g, b) && !scalar(g, a)) {
      return a;
    }
    if (op.kind() == OpKind.MUL && scalar(g, a) && !scalar(g, b)) {
      return b;
    }
    return null;
  }

  private static boolean scalar(Graph g, String t) {
    return Uses.isWeight(g, t) && g.tensor(t).shape().elements() == 1;
  }

  private static void rewrite(Graph g, GraphRewrite rw, Match m) {
    Op out = m.out;
    String outName = out.name();
    int head = (int) m.head;
    Op[] proj = {m.queries, m.keys, m.values};
    Tensor wo = g.tensor(out.inputs().get(1));
    long d = g.tensor(m.queries.inputs().get(1)).shape().dim(1) / head;
    long nIn = g.tensor(m.queries.inputs().get(1)).shape().dim(0);
    long nOut = wo.shape().dim(1);
    List<Op> ops = new ArrayList<>();
    String sum = null;
    for (int i = 0; i < head; i++) {
      List<String> inputs = new ArrayList<>();
      inputs.add(m.queries.inputs().get(0));
      long hasBias = 0;
      for (int w = 0; w < 3; w++) {
        Tensor wt = g.tensor(proj[w].inputs().get(1));
        String wn = wt.name() + "_weight_head_" + i;
        rw.addWeight(wn, wt.dtype(), nIn, d);
        inputs.add(wn);
        if (proj[w].inputs().size() > 2) {
          Tensor bt = g.tensor(proj[w].inputs().get(2));
          String bn = bt.name() + "_bias_head_" + i;
          rw.addWeight(bn, bt.dtype(), d);
          inputs.add(bn);
          hasBias |= 1L << w;
        }
      }
      String won = wo.name() + "_weight_head_" + i;
      rw.addWeight(won, wo.dtype(), d, nOut);
      inputs.add(won);
      if (i == 0 && out.inputs().size() > 2) {
        inputs.add(out.inputs().get(2));
        hasBias |= 1L << 3;
      }
      if (m.mask != null) {
        inputs.add(m.mask);
      }
      Attributes attrs =
          Attributes.builder()
              .put("head", 1)
              .put("dim", d)
              .put("has_bias", hasBias)
              .put("has_mask", m.mask != null ? 1 : 0)
              .build();
      boolean only = head == 1;
      String name = only ? outName : outName + "_head_" + i;
      ops.add(
          new Op(
              name,
              OpKind.ATTENTION,
              attrs,
              inputs,
              only ? out.outputs() : List.of(outName + "_head_" + i)));
      String headOut = only ? out.outputs().get(0) : name;
      if (i == 0) {
        sum = headOut;
        continue;
      }
      boolean last = i == head - 1;
      String addName = last ? outName : outName + "_attention_out_fuse_" + i;
      ops.add(
          new Op(
              addName,
              OpKind.ADD,
              Attributes.builder().put(FUSE, 1).build(),
              List.of(sum, headOut),
              last ? out.outputs() : List.of(addName)));
      sum = addName;
    }
    rw.replace(out, ops);
    // MLIR erases the ops nothing reads any more: walk the chain until no more die
    Set<Op> gone = new LinkedHashSet<>();
    gone.add(out);
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Op op : m.chain) {
        if (gone.contains(op)) {
          continue;
        }
        boolean dead = true;
        for (String t : op.outputs()) {
          dead &= !g.outputs().contains(t);
          for (Op user : g.consumers(t)) {
            dead &= gone.contains(user);
          }
        }
        if (dead) {
          gone.add(op);
          rw.remove(op);
          for (String t : op.inputs()) {
            if (Uses.isWeight(g, t)) {
              rw.dropIfUnused(t);
            }
          }
          changed = true;
        }
      }
    }
    rw.dropIfUnused(wo.name());
  }
}
