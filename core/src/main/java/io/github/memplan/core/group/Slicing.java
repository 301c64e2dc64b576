package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Backward slicing of one group ({@code stripe_mine_idx_slice} of {@code LayerGroupUtil.cpp}; v0's
 * {@code BySecs} in {@code GroupOps.cpp}; {@code reference/tpu-mlir.md} §2.6, §2.7, §2.13).
 *
 * <p>The group outputs are cut by {@link #outputSlices}; then the ops are visited from the last to
 * the first, which is {@code strip_back_judge}'s order for a contiguous range of a topological
 * order (a tensor is processed only after all its in-group users). Each activation operand gets,
 * per axis, the full range when that axis has one sec, else the op's backward function per slice
 * ({@link OpSemantics#backward}). A tensor needed by two users with different slices is refused
 * (v0) or takes the hull (today, BM168x only, users supporting margins, overlapping ranges).
 * Weights are not sliced: they are loaded whole.
 *
 * <p>The h/2 rule ({@code check_hsecs}, §2.7): with H split and the rule on, a tensor whose input
 * h-slices sum to more than 1.5·H fails with v0's {@code no_more} flag set.
 *
 * <p>Group types ({@link SliceRules#groupTypes()}, today's rules): the group's {@link GroupType}
 * decides the layout every tensor is sliced in ({@link GroupType#view}), which axes each op splits
 * and its backward rules; {@code group_type_check} ({@link GroupType#check}) refuses a group first,
 * also when {@code set_group_type} is switched off and every group is GROUP_NORMAL. C is cut as
 * {@code get_out_slice_info} cuts it ({@link #channelSlices}), in units of NPU_NUM channels.
 *
 * <p>W has one sec off the BM1684X family: {@code get_group_max_secs} gives {@code max_wsecs = 1}
 * there ({@link ShapeSecsBounds#maxSecs}, §2.6), so no TPU-MLIR group of those chips is cut along
 * W; slicing refuses more W secs there.
 *
 * <p>Departures: every group output must give the same slice count per axis (TPU-MLIR takes them
 * from the last op's output); a slice that comes out empty fails.
 */
public final class Slicing {
  private Slicing() {}

  /** Slices the group {@code ops} (contiguous, in order) under {@code secs}. */
  public static SliceResult slice(
      Graph graph, List<Op> ops, Chip chip, ShapeSecs secs, SliceRules rules) {
    if (secs.wsecs() > 1 && !OpSemantics.bm1684xFamily(chip)) {
      return new SliceResult.Failed(
          secs.wsecs() + " W secs: W is not split on " + chip.name() + " (max_wsecs is 1)", false);
    }
    GroupBoundary io = GroupBoundary.of(graph, ops);
    GroupType type = rules.groupType(graph, ops, chip);
    if (rules.groupTypes() != SliceRules.GroupTypes.NONE) {
      Optional<String> why = GroupType.check(graph, ops, type);
      if (why.isPresent()) {
        return new SliceResult.Failed(why.get(), false);
      }
    }
    Map<String, SliceInfo> info = new LinkedHashMap<>();
    int[] counts = null;
    for (String out : io.outputs()) {
      Nchw s = type.view(graph, out, chip);
      SliceInfo si = SliceInfo.whole(s);
      for (Axis a : Axis.values()) {
        List<Range> r =
            a == Axis.C
                ? channelSlices(s.c(), secs.csecs(), chip.lanes())
                : outputSlices(
                    s.dim(a),
                    secs.secs(a),
                    a == Axis.N ? nAlign(graph, out, chip) : 1,
                    rules.split());
        if (r.isEmpty()) {
          return new SliceResult.Failed(
              "group output '"
                  + out
                  + "' has "
                  + s.dim(a)
                  + " "
                  + a
                  + " rows for "
                  + secs.secs(a)
                  + " secs",
              false);
        }
        si = si.with(a, r);
      }
      int[] c = {si.n().size(), si.c().size(), si.h().size(), si.w().size()};
      if (counts == null) {
        counts = c;
      } else if (!java.util.Arrays.equals(counts, c)) {
        return new SliceResult.Failed(
            "group outputs slice into different counts at '" + out + "'", false);
      }
      info.put(out, si);
    }
    Set<String> graphInputs = new HashSet<>(graph.inputs());
    for (int i = ops.size() - 1; i >= 0; i--) {
      Op op = ops.get(i);
      SliceInfo outInfo = info.get(op.outputs().get(0));
      if (outInfo == null) {
        return new SliceResult.Failed(
            "op " + op.label() + ": output has no slice (not used)", false);
      }
      for (int k = 0; k < op.inputs().size(); k++) {
        String t = op.inputs().get(k);
        if (!GroupBoundary.isActivation(graph, t)) {
          continue;
        }
        Nchw inShape = type.view(graph, t, chip);
        SliceInfo si = SliceInfo.whole(inShape);
        for (Axis a : Axis.values()) {
          if (secs.secs(a) == 1) {
            continue;
          }
          if (!OpSemantics.allowSplit(graph, op, a, type) && outInfo.get(a).size() > 1) {
            return new SliceResult.Failed("op " + op.label() + " cannot be split on " + a, false);
          }
          List<Range> in = new ArrayList<>();
          Range prev = null;
          for (Range r : outInfo.get(a)) {
            Optional<Range> b = OpSemantics.backward(graph, op, k, a, r, chip, type);
            if (b.isEmpty()) {
              return new SliceResult.Failed(
                  "op "
                      + op.label()
                      + ": no "
                      + a
                      + " input slice of '"
                      + t
                      + "' for output slice "
                      + r,
                  false);
            }
            Range x = b.get();
            if (!OpSemantics.bm1684xFamily(chip)
                && prev != null
                && (x.idx() == 0 && inShape.dim(a) > 1 || x.end() == prev.end())) {
              return new SliceResult.Failed(
                  "op "
                      + op.label()
                      + ": "
                      + a
                      + " slice "
                      + x
                      + " of '"
                      + t
                      + "' restarts or repeats",
                  false);
            }
            in.add(x);
            prev = x;
          }
          si = si.with(a, in);
        }
        if (rules.h2Rule() && secs.hsecs() > 1 && 2 * si.total(Axis.H) > 3 * inShape.h()) {
          return new SliceResult.Failed(
              "h/2 rule: input h-slices of '"
                  + t
                  + "' sum to "
                  + si.total(Axis.H)
                  + " > 1.5 x "
                  + inShape.h(),
              true);
        }
        SliceInfo old = info.get(t);
        if (old == null || old.equals(si)) {
          info.put(t, si);
          continue;
        }
        if (rules.margins() == SliceRules.Margins.IDENTICAL) {
          return new SliceResult.Failed(
              "tensor '" + t + "': in-group users need different slices", false);
        }
        Optional<String> why = hullRefusal(graph, ops, t, chip, graphInputs);
        if (why.isPresent()) {
          return new SliceResult.Failed("tensor '" + t + "': " + why.get(), false);
        }
        Optional<SliceInfo> hull = hull(old, si);
        if (hull.isEmpty()) {
          return new SliceResult.Failed("tensor '" + t + "': user slices do not overlap", false);
        }
        info.put(t, hull.get());
      }
    }
    return new SliceResult.Sliced(info);
  }

  /**
   * Slices of an output axis of length {@code len} into {@code secs} parts ({@code
   * get_out_slice_info}); empty when some slice would be empty.
   */
  public static List<Range> outputSlices(long len, int secs, long nAlign, SliceRules.Split split) {
    List<Range> out = new ArrayList<>();
    if (secs == 1) {
      out.add(new Range(0, len));
      return out;
    }
    if (secs > len) {
      return out;
    }
    if (split == SliceRules.Split.CEIL || nAlign > 1) {
      long chunk = OpSemantics.alignUp(OpSemantics.ceilDiv(len, secs), nAlign);
      for (long i = 0; i < len; i += chunk) {
        out.add(new Range(i, Math.min(chunk, len - i)));
      }
      return out;
    }
    long base = len / secs;
    long extra = len % secs;
    long idx = 0;
    for (int i = 0; i < secs; i++) {
      long l = base + (i < extra ? 1 : 0);
      out.add(new Range(idx, l));
      idx += l;
    }
    return out;
  }

  /**
   * C slices of {@code get_out_slice_info}: in units of NPU_NUM channels, {@code ceil(c / NPU_NUM)}
   * units shared out as evenly as possible, the first slices one unit larger, the last slice
   * clipped to {@code c}; empty when a slice would start at or beyond {@code c} (the source asserts
   * it does not).
   */
  public static List<Range> channelSlices(long c, int secs, long lanes) {
    List<Range> out = new ArrayList<>();
    long perNpu = OpSemantics.ceilDiv(c, lanes);
    long div = perNpu / secs;
    long mod = perNpu % secs;
    for (int i = 0; i < secs; i++) {
      boolean extra = mod > i;
      long step = (div + (extra ? 1 : 0)) * lanes;
      long idx = (div * i + (extra ? i : mod)) * lanes;
      if (idx >= c) {
        return List.of();
      }
      out.add(new Range(idx, Math.min(step, c - idx)));
    }
    return out;
  }

  /** {@code n_align}: 32/bits with BM1684's 4N storage, otherwise 1 (§2.6). */
  public static long nAlign(Graph graph, String tensor, Chip chip) {
    int bits = graph.tensor(tensor).dtype().bits();
    return chip.name().equals("bm1684") && bits < 32 ? Math.max(1, 32 / bits) : 1;
  }

  private static Optional<String> hullRefusal(
      Graph graph, List<Op> ops, String t, Chip chip, Set<String> graphInputs) {
    if (chip.isCv18xx()) {
      return Optional.of("CV18xx cannot hold H/W margins");
    }
    if (graphInputs.contains(t)) {
      return Optional.of("graph input cannot hold H/W margins");
    }
    for (Op u : graph.consumers(t)) {
      if (!supportsMargins(u) && containsSame(ops, u)) {
        return Optional.of("user " + u.label() + " does not support H/W margins");
      }
    }
    return Optional.empty();
  }

  /** Whether {@code ops} holds {@code u} itself (ops of one graph are compared by identity). */
  private static boolean containsSame(List<Op> ops, Op u) {
    for (Op op : ops) {
      if (op == u) {
        return true;
      }
    }
    return false;
  }

  /** Users that accept an input with H/W margins (§2.7). */
  static boolean supportsMargins(Op op) {
    return OpSemantics.kind(op) == OpKind.CONV
        || op.kind().category() == OpKind.Category.BINARY
        || op.kind() == OpKind.CONCAT
        || op.kind() == OpKind.SLICE
        || op.kind() == OpKind.CAST;
  }

  private static Optional<SliceInfo> hull(SliceInfo a, SliceInfo b) {
    SliceInfo out = a;
    for (Axis ax : Axis.values()) {
      List<Range> x = a.get(ax);
      List<Range> y = b.get(ax);
      if (x.size() != y.size()) {
        return Optional.empty();
      }
      List<Range> h = new ArrayList<>();
      for (int i = 0; i < x.size(); i++) {
        if (!x.get(i).overlaps(y.get(i))) {
          return Optional.empty();
        }
        h.add(x.get(i).hull(y.get(i)));
      }
      out = out.with(ax, h);
    }
    return Optional.of(out);
  }
}
