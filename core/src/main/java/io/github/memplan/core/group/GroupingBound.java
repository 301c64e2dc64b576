package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Tensor;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Lower bounds, under {@link RooflineCostModel}, on the total cycles and DDR bytes of
 * <em>every</em> valid grouping of a {@link GroupProblem} (one accepted by {@link
 * GroupingValidator}), and on the cycles and bytes of every valid group of a range of ops. Not an
 * algorithm of TPU-MLIR: a bound derived here from the cost model's class comment, the slicing of
 * {@link Slicing} and {@link OpSemantics#backward}, and the transfers of {@link V0Timesteps} and
 * {@link Timesteps2026}. The proof follows; {@link GroupingMetrics} reports it as {@code
 * lower-bound-cycles} and {@code lower-bound-ddr-bytes}.
 *
 * <h2>1. Decomposition</h2>
 *
 * A valid grouping's groups are disjoint contiguous ranges of at least two ops, each of groupable
 * ops only, so each lies inside one base group ({@link GroupProblem#baseGroups}); every other op is
 * global and costs exactly {@link RooflineCostModel#globalOp}. Ops in no base group are global in
 * every grouping. Inside a base group {@code [a..b]} a grouping induces a partition into contiguous
 * parts: its groups, and one part per global op. The total cost is the sum over parts, so
 *
 * <pre>
 *   total >= Σ_{ops outside base groups} globalOp
 *          + Σ_{base groups} min over partitions P of [a..b] of Σ_{part in P} lb(part)
 * </pre>
 *
 * where {@code lb} of a single op is its exact {@code globalOp} and {@code lb} of a range of at
 * least two ops is at most the cost of every valid group on that range (section 2). The minimum is
 * taken over <em>all</em> partitions, whether or not slicing, the h/2 rule or LMEM would accept the
 * ranges as groups: a superset of the valid groupings, so the minimum can only be lower. It is
 * computed exactly by a DP over prefix ends: {@code best[j] = min_i best[i - 1] + lb(i..j)}. The
 * cycles bound returned is the maximum of that and Σ whole-op TIU cycles ({@link #tiuSum}) when the
 * latter is a bound, which {@link Totals#tiuSumHolds} checks: every group computes every output
 * whole when, for every op of a base group and every operand produced in that base group, the
 * contribution (section 3) of the op's whole output is the operand's whole extent on every axis (by
 * induction from the range's last op, whose outputs are group outputs, every tensor of every range
 * is then covered whole). Otherwise the DP alone is returned.
 *
 * <h2>2. A group's cost</h2>
 *
 * By the cost model, a group's cycles are {@code Σ_(step, row) max(TIU, GDMA)} over the {@code L +
 * 2} pipeline steps and the table rows, so they are at least the sum of all its TIU terms and at
 * least the sum of all its GDMA terms; its DDR bytes are the sum of all its transfers.
 *
 * <ul>
 *   <li><b>TIU</b>: every op runs once per iteration on its output slice, costing {@code
 *       ceil(w·f_it)} with {@code w} its whole-op work in cycles and {@code f_it = Π_axis len /
 *       dim}; as the loop visits every combination of axis slices, {@code Σ_it f_it >= Π_axis
 *       |U_axis| / dim} with {@code U_axis} the union of the output's slice ranges, and {@code
 *       U_axis ⊇ Cov} (section 3). So the op contributes {@code (tiu(op) - 1) · Π_axis |Cov| / dim
 *       - 1} (one cycle for the ceiling of {@code tiu(op)}, one for the sum of ceilings and
 *       floating point, the allowances {@code RooflineBounds} of the solvers has always made).
 *       Usually the coverage is whole; it is not when the op's only in-group reader skips rows (a
 *       Slice with a step or an offset, a pool whose kernel is below its stride): then the group
 *       computes only part of the output and Σ whole-op TIU is <em>not</em> a bound.
 *   <li><b>GDMA</b>: {@code Σ_r ceil(b_r / bw) >= (Σ_r b_r) / bw >= gdma(Σ_r b_r) - 1}, with {@code
 *       Σ_r b_r} at least the bytes {@code B} below, so {@code gdma(B) - 1}.
 *   <li><b>Bytes</b> {@code B} that every valid group on the range moves. Both timestep methods put
 *       one transfer of every weight operand, of every group input and of every group output in the
 *       table (V0: a weight entry per use, each group input at its first user, each group output
 *       after its op; today: one buffer per value, each loaded at its first user, each group output
 *       stored); the cost model moves every non-held buffer in every iteration of the loop and a
 *       held one (only weights are ever held) once, weights whole. Recorded transfer moves ({@link
 *       TimestepMoves}) only change the row of a transfer, never which buffers are moved or in
 *       which iterations, so they leave these bytes unchanged. Hence:
 *       <ol>
 *         <li>every distinct weight (stored tensor) read by the range, whole, once;
 *         <li>every group output ({@link GroupBoundary}) whole: in every iteration its slice is
 *             stored, the loop visits every combination of axis slices, and the axis slices cover
 *             the axis (a partition, or its hull with in-group users' ranges), so the stored
 *             elements are at least the tensor's and {@code Σ ceil >= ceil Σ} for the byte
 *             rounding;
 *         <li>every group input {@code t}: {@code Π_axis |U_axis|} elements, {@code U_axis} the
 *             union of {@code t}'s slice ranges on that axis (the loop loads the slice of every
 *             combination of axis slices, and {@code Σ_combinations Π_axis len = Π_axis Σ len >=
 *             Π_axis |U_axis|}). How {@code |U_axis|} is bounded is section 3; it is at least 1 on
 *             every axis, as slice ranges are never empty.
 *       </ol>
 * </ul>
 *
 * So {@code lb(range) = max(Σ_ops (tiu - 2) + excess, gdma(B) - 1)} cycles and {@code B} bytes,
 * with {@code excess} the weight loads no TIU work can hide (section 4). All byte counts are exact
 * integers ({@code DType#bytes} of element counts), so no allowance is needed on bytes.
 *
 * <h2>3. Coverage: which rows of a group input must be loaded</h2>
 *
 * For a tensor {@code x} of the range and an axis, let {@code Cov(x)} be a set of indices that
 * every valid group on the range puts in the union of {@code x}'s slice ranges. Then:
 *
 * <ul>
 *   <li>A group output: {@code Cov = [0, D)} (its axis slices cover the axis, see 2.2).
 *   <li>A tensor read by in-group consumers {@code c} (operand {@code k}): {@code Cov(x) ⊇ ⋃_c
 *       contribution(c, k, Cov(out(c)))} where {@code out(c)} is {@code c}'s first output (the one
 *       {@link Slicing} slices {@code c} by). Three cases, as {@link Slicing#slice} does:
 *       <ul>
 *         <li><b>The axis has one sec</b>: every activation's slice is its whole axis {@code [0,
 *             D_x)}, which contains every subset of {@code [0, D_x)}; every contribution below is
 *             clipped to {@code [0, D_x)} (the tensor's own 4-D view), so this case is always
 *             covered.
 *         <li><b>More secs, an axis {@code c} can split</b> ({@link OpSemantics#allowSplit}): each
 *             output slice {@code r} of {@code c} gets the input range {@code backward(c, k, r)},
 *             and a tensor read by several users gets either identical ranges or their hull, a
 *             superset. Every {@code o} in {@code Cov(out(c))} lies in some slice {@code r}; if
 *             {@code backward} is monotone ({@code [o, o+1) ⊆ r ⇒ backward([o, o+1)) ⊆
 *             backward(r)}), the contribution {@code ⋃_{o in Cov(out(c))} backward([o, o+1))} is in
 *             the union. Single rows whose backward is empty contribute nothing.
 *         <li><b>More secs, an axis {@code c} cannot split</b>: slicing fails unless {@code c}'s
 *             output has a single slice {@code r} on that axis, and {@code r ⊇ hull(Cov(out(c)))};
 *             with {@code backward} monotone, the contribution is {@code backward(c, k,
 *             hull(Cov(out(c))))} (nothing when empty).
 *       </ul>
 * </ul>
 *
 * Monotonicity of every case of {@link OpSemantics#backward}: a broadcast operand gives {@code (0,
 * 1)} always; N and C of splittable ops, Slice (start + idx·step .. start + (end - 1)·step + 1),
 * Pad, MatMul/Softmax/LayerNorm on split axes and the default (element-wise, Concat off its axis)
 * are {@code [max(f(idx), 0), min(g(end), size))} with {@code f, g} non-decreasing; Conv/Pool the
 * same with the last slice extended to the end, and a single row is last only when every range
 * holding it is; ConvTranspose has a non-decreasing first index and last index, both clamped;
 * Upsample/Resize on BM1684X-family chips {@code [floor(idx/s), floor((end-1)/s)]}; the "whole or
 * nothing" cases (C of non-splittable ops, global pools, MatMul/Softmax/LayerNorm on unsplittable
 * axes) return the whole input only for the whole output, which is monotone. One case is not
 * monotone in the sense above: Upsample/Resize off the BM1684X family answer only ranges aligned to
 * the scale {@code s} ({@code [idx/s, end/s)}), so a single row has no backward; there the row
 * {@code o} contributes {@code floor(o/s)}, which lies in {@code [idx/s, end/s)} for every aligned
 * range holding {@code o}, the only ones slicing accepts.
 *
 * <p>For a range {@code [i..j]} of the order, whether a tensor defined at position {@code p >= i}
 * is a group output depends on {@code j} only (its users come after {@code p}), so {@code sweep}
 * walks {@code i} from {@code j} down, keeping each open tensor's coverage: when op {@code i} is
 * reached, its output's coverage is final (group output: whole; else the union its in-range
 * consumers contributed), it stops being a group input, and its operands receive their
 * contributions. Each step costs one op's operands; the DP needs one sweep per {@code j}.
 *
 * <h2>4. Weight loads that no TIU work hides</h2>
 *
 * Write the group's cycles as a sum over cells {@code c = (step, row)} of {@code max(T_c, G_c)}
 * ({@code T_c} the row's TIU cycles in that step, {@code G_c} its GDMA cycles). Then {@code Σ_c
 * max(T_c, G_c) = Σ_c T_c + Σ_c (G_c - T_c)^+ >= Σ_c T_c + Σ_{c in S} (G_c - T_c)} for every set
 * {@code S} of cells, and {@code Σ_c T_c} is at least section 2's TIU term. Take {@code S} the
 * cells holding the iteration-0 load of the weights of a set {@code W}, plus those of the first
 * op's weights:
 *
 * <ul>
 *   <li><b>Each weight is loaded whole in iteration 0</b> (held or not), in one cell. {@code G_c =
 *       gdma(Σ bytes of c) >= Σ_{x in c} (gdma(b_x) - 1)} (a ceiling of a sum against a sum of
 *       ceilings), so weights sharing a cell count each, less one cycle.
 *   <li><b>Iteration 0's loads run in step 0 or step 1</b>: loads have stage 0 or 1 (stage 2 holds
 *       only stores, in both methods and after any recorded move), and a transfer of stage {@code
 *       s} works on iteration {@code t - s} in step {@code t}. Step 0 has no TIU work (TIU ops work
 *       on iteration {@code t - 1}), so there {@code T_c = 0}; in step 1, {@code T_c} is the TIU
 *       cycles of iteration 0 of the row's ops, at most their whole-op cycles {@code tiu(op)} (a
 *       slice's fraction is at most 1).
 *   <li><b>The first op's weights are loaded where no TIU runs</b>: they are loaded before the
 *       first op runs in iteration 0, which is the first TIU work of the group (today: loaded in
 *       row 0, so of stage 0, hence in step 0 for iteration 0 whichever row the pipeline or the
 *       rebalancing moves them to; without the pipeline, in row 0, which runs no TIU op; v0: in the
 *       row before the first op's, which runs none either; recorded moves never take a transfer
 *       before the first TIU row). So they add {@code gdma(b) - 1} each, in full.
 *   <li><b>Segments.</b> Cut the range before every op that reads a weight (and at its first op). A
 *       row of either method never holds ops of two segments: today's rows run one op each, and in
 *       v0 an op that reads a weight has a load entry right before it, which makes the op start a
 *       new timestep ({@code walk}). Distinct cells of step 1 are distinct rows, holding distinct
 *       ops, so the {@code T_c} of {@code k} distinct cells of step 1 sum to at most the whole-op
 *       TIU of the (at most {@code k}) segments their rows lie in, at most the {@code k} largest
 *       segment sums.
 * </ul>
 *
 * <p><b>Head term.</b> A weight is loaded before its first reader runs, so in iteration 0 the
 * weights first read by ops {@code i+1..q} (op {@code i} the range's first, whose own weights are
 * counted in full above) are loaded in step 0 or beside the TIU work of ops {@code i..q-1} only
 * (rows before their reader's hold earlier ops; today's loads never move later, v0 loads one row
 * before the reader). Their {@code Σ g} less {@code Σ_{i <= o < q} tiu(o)} is then a lower bound on
 * their excess too, for each {@code q} among the first 16 ops after {@code i}. It and the matching
 * below count the same cells, so the bound takes the larger of the two, not the sum.
 *
 * <p>Hence, with the other weights' {@code g_x = gdma(b_x) - 1} sorted from the largest and the
 * segment sums {@code σ_1 >= σ_2 >= ...} (0 past the last segment: more weights than segments share
 * segments, whose TIU is then already counted), choosing {@code W} the {@code k} largest gives
 * {@code excess >= Σ_{first op's weights} g + max(head, max_k Σ_{j <= k} (g_j - σ_j))}, for every
 * valid group of the range at every secs, held or not, under both methods. Only the 32 largest
 * weights and segments are looked at; when segments were left out, a position past the kept ones
 * counts as the smallest kept. {@code GroupingBoundTest} works an example by hand and shows that a
 * bound charging every weight in full (no overlap with TIU) is caught by its check against every
 * secs. On resnet18 (INT8, bm1684x) the three 2.25 MiB weights of layer 4 take 36864 GDMA cycles
 * each against at most 28812 TIU cycles in any row: about 24000 cycles no grouping can hide.
 *
 * <p><b>Group types.</b> The coverage above is computed in the normal layout with the split rules
 * of GROUP_NORMAL for N, H and W (GROUP_MM splits those axes alike) and, for C, of GROUP_MM for the
 * ops that may be in a GROUP_MM group ({@link GroupType#mayJoinMm}), of GROUP_NORMAL for the
 * others, which are only ever in groups whose C has one sec (NORMAL) or in SMALL_C groups. It is
 * valid for every group type: (a) a group whose C has one sec holds every tensor whole on C (the
 * first case), whatever C rule gave the contribution; (b) a GROUP_MM group with more C secs splits
 * C by the rules used here: {@code BackwardC} is the identity where an op splits C and a MatMul's
 * right operand is read whole, both monotone, and an op that does not split C leaves the max csecs
 * at 1 ({@code get_group_max_secs} asks every op), so case (a); (c) a GROUP_SMALL_C group lays its
 * tensors out differently ({@link GroupType#view}), but its ops are all element-wise or work on the
 * last axis, with the identity or the whole axis as backward on the view: as its output slices
 * partition every axis of the view, every tensor of the group, inputs included, is computed or
 * loaded whole, and every op computes its whole output, which is at least what the bound counts
 * (the bytes of {@code Π |Cov|} elements never exceed the whole tensor's, and the TIU share is at
 * most 1). GROUP_NORMAL's C rule would not do for (b): a non-splitting op's contribution of a
 * partial coverage is its whole input, which a GROUP_MM group need not load.
 *
 * <p><b>Pieces switched off</b> ({@link Pieces}). A grouping of {@code tpumlir-greedy} or {@code
 * tpumlir-dp} with pieces off is validated under the rules and the table variant it names, and the
 * bound computed here (with every piece) holds for it too: without the Reshape local rule fewer ops
 * are groupable, so its groups lie inside the base groups used here; without group types every
 * group is GROUP_NORMAL with one C sec, case (a); without the hull two users must need identical
 * slices, a special case of the hull; without the pipeline every transfer is in stage 1, and the
 * group still costs {@code Σ_(step, row) max(TIU, GDMA)}; without rebalancing transfers keep their
 * rows, which section 2 never uses; without holds weights are moved in every iteration, at least
 * once; in-place pairs and the search pieces change no cost term.
 *
 * <p>Note that a Conv's backward takes {@code (len - 1)·s + max(kernel, s)} rows, so even a 1x1
 * stride-2 conv needs every input row; Slice with a step and pools with a kernel below their stride
 * are where coverage is partial.
 *
 * <p>What the bound ignores (so where it is loose): every iteration's halo overlap beyond the
 * union, H/W margins, the fill and drain of activations (the first op's activation slices loaded
 * and the last op's stored where no TIU runs; section 4 counts the first op's weights only), the
 * barrier between rows beyond section 4's weights, and LMEM capacity (a range may be counted as one
 * group although no secs fits).
 */
public final class GroupingBound {
  private final RooflineCostModel model;
  private final GroupProblem problem;
  private final Graph graph;
  private final Chip chip;
  private final List<Op> order;
  private final long[] tiu;
  private final Map<String, Integer> lastUser = new HashMap<>();
  private final Map<String, Integer> producerPos = new HashMap<>();
  private final Map<Long, BitSet> fullContribution = new HashMap<>();
  private final Map<Long, Range[]> rows = new HashMap<>();
  private Totals totals;

  /** Per last op of a base group, the bounds of the ranges ending there ({@link #part}). */
  private final Map<Integer, Part[]> parts = new HashMap<>();

  /** Longest range whose bounds {@link #computeTotals} keeps for {@link #part}. */
  private static final int KEPT_RANGE = 1024;

  /** The bound of one part (a range of ops as one group): cycles and bytes. */
  public record Part(long cycles, long bytes) {}

  /** The whole-problem bounds. */
  /**
   * The whole-problem bounds.
   *
   * @param cycles the cycles bound
   * @param ddrBytes the DDR bytes bound
   * @param tiuSum Σ whole-op TIU cycles
   * @param tiuSumHolds whether {@code tiuSum} is itself a bound (then {@code cycles >= tiuSum})
   */
  public record Totals(long cycles, long ddrBytes, long tiuSum, boolean tiuSumHolds) {}

  public GroupingBound(RooflineCostModel model, GroupProblem problem) {
    this.model = model;
    this.problem = problem;
    this.graph = problem.graph();
    this.chip = problem.chip();
    this.order = problem.order();
    this.tiu = new long[order.size()];
    Set<String> graphOutputs = new HashSet<>(graph.outputs());
    for (int i = 0; i < order.size(); i++) {
      Op op = order.get(i);
      tiu[i] = model.tiuCycles(graph, op, chip);
      for (String t : op.outputs()) {
        producerPos.put(t, i);
      }
      for (String t : op.inputs()) {
        if (!t.isEmpty()) {
          lastUser.merge(t, i, Math::max);
        }
      }
    }
    for (Op op : order) {
      for (String t : op.outputs()) {
        if (graphOutputs.contains(t) || !lastUser.containsKey(t)) {
          lastUser.put(t, Integer.MAX_VALUE);
        }
      }
    }
  }

  /** The problem's bounds under a default {@link RooflineCostModel}. */
  public static GroupingBound of(GroupProblem problem) {
    return new GroupingBound(new RooflineCostModel(), problem);
  }

  /** The problem. */
  public GroupProblem problem() {
    return problem;
  }

  /** Σ whole-op TIU cycles over the order (the bound {@link GroupingMetrics} had before). */
  public long tiuSum() {
    return totals().tiuSum();
  }

  /** A lower bound on the total cycles of every valid grouping (section 1). */
  public long cycles() {
    return totals().cycles();
  }

  /** A lower bound on the DDR bytes of every valid grouping (section 1, on bytes). */
  public long ddrBytes() {
    return totals().ddrBytes();
  }

  /** Both whole-problem bounds, computed once. */
  public Totals totals() {
    if (totals == null) {
      totals = computeTotals();
    }
    return totals;
  }

  /**
   * The bound on every valid group of the ops {@code first..last} (positions in the order, {@code
   * first < last}, all groupable): section 2.
   */
  public Part part(int first, int last) {
    if (first >= last) {
      throw new IllegalArgumentException("a group needs two ops or more: " + first + ".." + last);
    }
    totals(); // the whole-problem DP sweeps every range of every base group, and keeps them
    Part[] kept = parts.get(last);
    if (kept != null && first >= last + 1 - kept.length) {
      return kept[first - (last + 1 - kept.length)];
    }
    Part[] out = new Part[1];
    sweep(last, first, (i, part) -> out[0] = part);
    return out[0];
  }

  private Totals computeTotals() {
    long tiuSum = 0;
    for (long t : tiu) {
      tiuSum += t;
    }
    boolean[] inBase = new boolean[order.size()];
    long cycles = 0;
    long bytes = 0;
    for (int[] bg : problem.baseGroups()) {
      int a = bg[0];
      int n = bg[1] - a + 1;
      long[] bestCycles = new long[n + 1];
      long[] bestBytes = new long[n + 1];
      for (int j = 1; j <= n; j++) {
        int last = a + j - 1;
        inBase[last] = true;
        var single = model.globalOp(graph, order.get(last), chip);
        long[] c = {bestCycles[j - 1] + single.cycles()};
        long[] b = {bestBytes[j - 1] + single.ddrBytes()};
        Part[] kept = j <= KEPT_RANGE ? new Part[j] : null;
        if (kept != null) {
          parts.put(last, kept);
        }
        sweep(
            last,
            a,
            (i, part) -> {
              if (kept != null) {
                kept[i - a] = part;
              }
              if (i < last) {
                c[0] = Math.min(c[0], bestCycles[i - a] + part.cycles());
                b[0] = Math.min(b[0], bestBytes[i - a] + part.bytes());
              }
            });
        bestCycles[j] = c[0];
        bestBytes[j] = b[0];
      }
      cycles += bestCycles[n];
      bytes += bestBytes[n];
    }
    for (int i = 0; i < order.size(); i++) {
      if (!inBase[i]) {
        var global = model.globalOp(graph, order.get(i), chip);
        cycles += global.cycles();
        bytes += global.ddrBytes();
      }
    }
    boolean holds = tiuSumHolds();
    return new Totals(holds ? Math.max(cycles, tiuSum) : cycles, bytes, tiuSum, holds);
  }

  /** Whether every group computes every op's output whole (section 1). */
  private boolean tiuSumHolds() {
    for (int[] bg : problem.baseGroups()) {
      for (int pos = bg[0]; pos <= bg[1]; pos++) {
        Op op = order.get(pos);
        BitSet[] out = whole(graph.tensor(op.outputs().get(0)));
        for (int k = 0; k < op.inputs().size(); k++) {
          String t = op.inputs().get(k);
          Integer producer = producerPos.get(t);
          if (!GroupBoundary.isActivation(graph, t) || producer == null || producer < bg[0]) {
            continue;
          }
          BitSet[] need = whole(graph.tensor(t));
          for (Axis a : Axis.values()) {
            BitSet missing = (BitSet) need[a.ordinal()].clone();
            missing.andNot(contribution(pos, k, a, out[a.ordinal()]));
            if (!missing.isEmpty()) {
              return false;
            }
          }
        }
      }
    }
    return true;
  }

  /** Receives the bound of the range {@code i..last} of a sweep. */
  @FunctionalInterface
  private interface PartSink {
    void accept(int first, Part part);
  }

  /** The coverage of one open tensor: per axis, the indices every valid group loads. */
  private static final class Cover {
    final Tensor tensor;
    final long[] dims;
    final BitSet[] axes = new BitSet[4];
    long bytes;

    Cover(Tensor tensor) {
      this.tensor = tensor;
      Nchw s = Nchw.of(tensor.shape());
      this.dims = new long[] {s.n(), s.c(), s.h(), s.w()};
      for (int a = 0; a < 4; a++) {
        axes[a] = new BitSet();
      }
    }

    void add(int axis, BitSet rows) {
      axes[axis].or(rows);
      int d = (int) dims[axis];
      if (axes[axis].length() > d) {
        axes[axis].clear(d, axes[axis].length());
      }
    }

    long measure() {
      long e = 1;
      for (int a = 0; a < 4; a++) {
        e = Math.multiplyExact(e, atLeastOne(axes[a].cardinality(), dims[a]));
      }
      bytes = tensor.dtype().bytes(e);
      return bytes;
    }
  }

  /**
   * Walks {@code i} from {@code last} down to {@code stop} and gives the bound of every range
   * {@code i..last} (a single op too: the sink decides what to do with it).
   */
  private void sweep(int last, int stop, PartSink sink) {
    Set<String> weights = new HashSet<>();
    long weightBytes = 0;
    long outBytes = 0;
    long inBytes = 0;
    double tiuSum = 0;
    Map<String, Cover> open = new HashMap<>();
    TopList weightLoads = new TopList(EXCESS_TERMS + 8);
    TopList closedSegments = new TopList(EXCESS_TERMS);
    long firstSegment = 0;
    for (int i = last; i >= stop; i--) {
      Op op = order.get(i);
      // section 4: the segment of op i (a new one when op i + 1 reads a weight)
      if (i < last && hasWeight(order.get(i + 1))) {
        closedSegments.add(firstSegment, null);
        firstSegment = 0;
      }
      firstSegment += tiu[i];
      BitSet[] outCov = null;
      for (String t : op.outputs()) {
        Cover c = open.remove(t);
        if (c != null) {
          inBytes -= c.bytes;
        }
        boolean groupOut = lastUser.getOrDefault(t, Integer.MAX_VALUE) > last;
        if (groupOut) {
          outBytes += graph.tensor(t).bytes();
        }
        if (outCov == null) {
          outCov =
              groupOut
                  ? whole(graph.tensor(t))
                  : c == null ? new Cover(graph.tensor(t)).axes : c.axes;
        }
      }
      for (int k = 0; k < op.inputs().size(); k++) {
        String t = op.inputs().get(k);
        if (t.isEmpty()) {
          continue;
        }
        if (isWeight(t)) {
          if (weights.add(t)) {
            weightBytes += graph.tensor(t).bytes();
            weightLoads.add(weightCycles(t), t);
          }
          continue;
        }
        Cover c = open.computeIfAbsent(t, x -> new Cover(graph.tensor(x)));
        inBytes -= c.bytes;
        for (Axis a : Axis.values()) {
          c.add(a.ordinal(), contribution(i, k, a, outCov[a.ordinal()]));
        }
        inBytes += c.measure();
      }
      tiuSum +=
          Math.max(
              0, Math.max(0, tiu[i] - 1) * fraction(graph.tensor(op.outputs().get(0)), outCov) - 1);
      long bytes = weightBytes + outBytes + inBytes;
      long gdma = Math.max(0, model.gdmaCycles(bytes, chip) - 1);
      long excess = weightExcess(op, weightLoads, closedSegments, firstSegment, i, last);
      sink.accept(i, new Part(Math.max((long) Math.floor(tiuSum) + excess, gdma), bytes));
    }
  }

  /** How many weights and segments section 4's matching looks at, at most. */
  private static final int EXCESS_TERMS = 32;

  /** Whether {@code op} reads a weight. */
  private boolean hasWeight(Op op) {
    return op.inputs().stream().anyMatch(this::isWeight);
  }

  /** Whether the operand {@code t} is a weight (a stored tensor; {@code ""} is no operand). */
  private boolean isWeight(String t) {
    return !t.isEmpty() && !GroupBoundary.isActivation(graph, t);
  }

  /**
   * Section 4's excess of a range whose first op is {@code first}: the GDMA cycles (less 1) of the
   * first op's weights in full, plus the best prefix of the other weights, largest first, each less
   * the TIU of the segment it is matched with, largest first.
   */
  private long weightExcess(
      Op first, TopList weightLoads, TopList closed, long firstSegment, int i, int last) {
    Set<String> fill = new HashSet<>();
    long fillCycles = 0;
    for (String t : first.inputs()) {
      if (isWeight(t) && fill.add(t)) {
        fillCycles += weightCycles(t);
      }
    }
    long[] others = weightLoads.valuesExcept(fill);
    long[] segments = closed.valuesWith(firstSegment);
    long matched = bestPrefix(others, segments, closed.boundOfDropped());
    return fillCycles + Math.max(matched, headExcess(fill, i, last));
  }

  /** How many ops after the first section 4's head term looks at. */
  private static final int HEAD_OPS = 16;

  /**
   * Section 4's head term for the range {@code i..last}: the most, over the ops {@code q} of its
   * first {@link #HEAD_OPS} after {@code i}, of the weights first read by ops {@code i+1..q} (not
   * by op {@code i}) less the whole-op TIU of ops {@code i..q-1}, the only TIU work they can be
   * loaded beside.
   */
  private long headExcess(Set<String> fill, int i, int last) {
    Set<String> seen = new HashSet<>(fill);
    long weights = 0;
    long before = 0;
    long best = 0;
    for (int q = i + 1; q <= Math.min(last, i + HEAD_OPS); q++) {
      before += tiu[q - 1];
      for (String t : order.get(q).inputs()) {
        if (isWeight(t) && seen.add(t)) {
          weights += weightCycles(t);
        }
      }
      best = Math.max(best, weights - before);
    }
    return best;
  }

  /** {@code gdma(bytes) - 1} of the weight {@code t}, at least 0. */
  private long weightCycles(String t) {
    return Math.max(0, model.gdmaCycles(graph.tensor(t).bytes(), chip) - 1);
  }

  /**
   * {@code max_k Σ_{j < k} (weights[j] - segments[j])} over {@code k >= 0}, both sorted from the
   * largest (a segment past the end counts {@code missing}: 0 when there is none, else at least
   * every segment left out): the least excess of the {@code k} largest weights over the {@code k}
   * largest segments, maximised over {@code k} (section 4).
   */
  static long bestPrefix(long[] weights, long[] segments, long missing) {
    long best = 0;
    long sum = 0;
    for (int j = 0; j < weights.length; j++) {
      sum += weights[j] - (j < segments.length ? segments[j] : missing);
      best = Math.max(best, sum);
    }
    return best;
  }

  /** The largest values seen (with an optional name each), largest first, at most {@code cap}. */
  private static final class TopList {
    private final int cap;
    private final long[] values;
    private final String[] names;
    private int size;
    private boolean dropped;

    TopList(int cap) {
      this.cap = cap;
      this.values = new long[cap];
      this.names = new String[cap];
    }

    void add(long value, String name) {
      if (value <= 0) {
        return;
      }
      if (size == cap) {
        dropped = true;
        if (value <= values[size - 1]) {
          return;
        }
      }
      int at = size < cap ? size++ : size - 1;
      while (at > 0 && values[at - 1] < value) {
        values[at] = values[at - 1];
        names[at] = names[at - 1];
        at--;
      }
      values[at] = value;
      names[at] = name;
    }

    long[] valuesExcept(Set<String> skip) {
      long[] out = new long[size];
      int n = 0;
      for (int k = 0; k < size; k++) {
        if (names[k] == null || !skip.contains(names[k])) {
          out[n++] = values[k];
        }
      }
      return java.util.Arrays.copyOf(out, n);
    }

    /** The values kept and {@code extra}, largest first. */
    long[] valuesWith(long extra) {
      long[] out = new long[size + 1];
      int at = 0;
      while (at < size && values[at] >= extra) {
        out[at] = values[at];
        at++;
      }
      out[at] = extra;
      System.arraycopy(values, at, out, at + 1, size - at);
      return out;
    }

    /** At least every value left out: the smallest kept when some were, else 0. */
    long boundOfDropped() {
      return dropped ? values[size - 1] : 0;
    }
  }

  /** {@code Π_axis |cov_axis| / dim_axis}: the share of the output every valid group computes. */
  private static double fraction(Tensor t, BitSet[] cov) {
    Nchw s = Nchw.of(t.shape());
    double f = 1;
    for (Axis a : Axis.values()) {
      long d = s.dim(a);
      long c = atLeastOne(cov[a.ordinal()].get(0, (int) d).cardinality(), d);
      if (c < d) {
        f *= (double) c / d;
      }
    }
    return f;
  }

  /**
   * A slice range is never empty ({@link Range}), and every tensor of a group has a slice in every
   * iteration, so every axis of a union holds at least one index (of a non-empty axis).
   */
  private static long atLeastOne(long covered, long dim) {
    return Math.min(dim, Math.max(1, covered));
  }

  private static BitSet[] whole(Tensor t) {
    Nchw s = Nchw.of(t.shape());
    BitSet[] out = new BitSet[4];
    for (Axis a : Axis.values()) {
      out[a.ordinal()] = new BitSet();
      out[a.ordinal()].set(0, (int) s.dim(a));
    }
    return out;
  }

  /**
   * The indices of operand {@code k} of the op at {@code pos} along {@code axis} that every valid
   * group loads, given its output's coverage {@code out} (section 3).
   */
  private BitSet contribution(int pos, int k, Axis axis, BitSet out) {
    BitSet in = new BitSet();
    if (out.isEmpty()) {
      return in;
    }
    Op op = order.get(pos);
    Nchw res = Nchw.of(graph.tensor(op.outputs().get(0)).shape());
    int outSize = (int) res.dim(axis);
    GroupType type = semantics(op, axis);
    if (!OpSemantics.allowSplit(graph, op, axis, type)) {
      int from = out.nextSetBit(0);
      int to = Math.min(out.length(), outSize);
      if (from < to) {
        OpSemantics.backward(graph, op, k, axis, new Range(from, to - from), chip, type)
            .ifPresent(r -> in.set((int) r.idx(), (int) r.end()));
      }
      return in;
    }
    boolean full = out.nextClearBit(0) >= outSize;
    long key = ((long) pos * 1024 + k) * 4 + axis.ordinal();
    if (full) {
      BitSet cached = fullContribution.get(key);
      if (cached == null) {
        cached = new BitSet();
        for (Range r : rows(key, pos, k, axis, outSize)) {
          if (r != null) {
            cached.set((int) r.idx(), (int) r.end());
          }
        }
        fullContribution.put(key, cached);
      }
      return cached;
    }
    Range[] table = rows(key, pos, k, axis, outSize);
    for (int o = out.nextSetBit(0); o >= 0 && o < outSize; o = out.nextSetBit(o + 1)) {
      Range r = table[o];
      if (r != null) {
        in.set((int) r.idx(), (int) r.end());
      }
    }
    return in;
  }

  /**
   * The split rules a contribution of {@code op} along {@code axis} follows (section 3): GROUP_MM's
   * for C when the op may be in a GROUP_MM group ({@link GroupType#mayJoinMm}; MM is the only type
   * in the normal layout that splits C), GROUP_NORMAL's (which MM shares) otherwise.
   */
  private GroupType semantics(Op op, Axis axis) {
    return axis == Axis.C && GroupType.mayJoinMm(graph, op, chip) ? GroupType.MM : GroupType.NORMAL;
  }

  /** Per output row {@code o}, the input range it needs for certain, or null (section 3). */
  private Range[] rows(long key, int pos, int k, Axis axis, int outSize) {
    Range[] table = rows.get(key);
    if (table != null) {
      return table;
    }
    Op op = order.get(pos);
    table = new Range[outSize];
    for (int o = 0; o < outSize; o++) {
      Optional<Range> r =
          OpSemantics.backward(graph, op, k, axis, new Range(o, 1), chip, semantics(op, axis));
      if (r.isEmpty() && (op.kind() == OpKind.UPSAMPLE || op.kind() == OpKind.RESIZE)) {
        r = alignedUpsampleRow(op, k, axis, o, outSize);
      }
      table[o] = r.orElse(null);
    }
    rows.put(key, table);
    return table;
  }

  /**
   * Upsample/Resize off the BM1684X family accept only ranges aligned to the scale {@code s}; the
   * row {@code o} then needs input row {@code floor(o / s)}: the backward of its aligned block.
   */
  private Optional<Range> alignedUpsampleRow(Op op, int k, Axis axis, int o, int outSize) {
    if (axis != Axis.H && axis != Axis.W) {
      return Optional.empty();
    }
    long inSize = Nchw.of(graph.tensor(op.inputs().get(k)).shape()).dim(axis);
    if (inSize <= 0 || outSize % inSize != 0) {
      return Optional.empty();
    }
    long s = outSize / inSize;
    return OpSemantics.backward(graph, op, k, axis, new Range(o / s * s, s), chip)
        .filter(r -> r.len() == 1);
  }
}
