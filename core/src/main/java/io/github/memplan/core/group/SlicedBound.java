package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lower bounds, under {@link RooflineCostModel}, on the cycles and DDR bytes of a group whose
 * timestep table has today's 3-stage software pipeline ({@link
 * TimestepMethod#foldsAcrossIterations}): at one slicing ({@link #at}), and over every secs that
 * {@link Slicing} accepts for a range ({@link #best}). Not an algorithm of TPU-MLIR: a bound
 * derived here from the cost model's class comment. The search prunes candidates with {@link #at};
 * {@link GroupingBound} takes {@link #best} as a tighter bound of a range (its section 7).
 *
 * <h2>At one slicing</h2>
 *
 * A group's cycles are a sum over (pipeline step, row) of {@code max(TIU, GDMA)}, hence at least
 * the sum of all TIU terms and at least the sum of all GDMA terms; its DDR bytes are the sum of its
 * transfers.
 *
 * <ul>
 *   <li><b>TIU.</b> Every op runs once per iteration on its output slice, costing {@code ceil(x ·
 *       f_it)} with {@code x} its whole-op work per cycle and {@code f_it} the slice's fraction of
 *       the output. Since {@code Σ ceil(y_i) >= Σ y_i}, its cycles are at least {@code x · Σ_it
 *       f_it}, and as the fraction is a product over axes and the iterations run over every
 *       combination of axis slices, {@code Σ_it f_it = Π_axis (Σ_slices len / dim)} (an axis with
 *       one slice under {@code k} loop counts contributes {@code k · len / dim}).
 *   <li><b>GDMA.</b> {@code Σ_r ceil(b_r / bw) >= (Σ_r b_r) / bw}. Every group output is stored
 *       slice by slice and its slices partition it (its bytes move once); every weight is loaded
 *       whole at least once (held or not); every group input is loaded in every iteration, {@code
 *       Π_axis Σ_slices len} elements in all (with the same rule for an axis of one slice).
 *   <li><b>Fill and drain.</b> The pipeline gives the loads of the first row (the first op's
 *       operands, weights whole) stage 0 and the stores of the last row (the last op's group
 *       outputs) stage 2; moves ({@link TimestepMoves}, the rebalancing) keep a transfer's stage. A
 *       stage-{@code s} transfer works on iteration {@code t - s} in step {@code t}, and TIU ops on
 *       iteration {@code t - 1}: so step 0 holds the loads of iteration 0 (the first slice of every
 *       axis) and no TIU work, and step {@code L + 1} the stores of the last iteration (the last
 *       slice of every axis) and none either. The cycles are at least the whole TIU sum plus the
 *       GDMA cycles of those two steps ({@code Σ ceil >= ceil Σ}).
 *   <li><b>Weights beside iteration 0.</b> A weight that the first op does not read is loaded whole
 *       in iteration 0 by a stage-1 transfer (held or not), so in step 1, in the row of an op
 *       before its first reader (today's table runs one op per row; a moved load keeps its stage).
 *       In step 1 the TIU works on iteration 0 only: a row's TIU cycles there are {@code
 *       ceil(work(op) · f_0 / rate)}, {@code f_0} the first slice's share of the op's output,
 *       computed as the cost model computes them (so are every step's rows below). With {@code Σ_c
 *       max(T_c, G_c) >= Σ_c T_c + Σ_(c in S) (G_c - T_c)} for the cells {@code S} of step 1 that
 *       hold these loads, distinct rows, and {@code G_c} at least {@code gdma(b) - 1} per weight in
 *       it, their excess is at least {@code max_k Σ_(j <= k) (g_j - σ_j)} over the weights' {@code
 *       g} and the rows' {@code σ}, both from the largest ({@link GroupingBound#bestPrefix}, as
 *       section 4 of {@link GroupingBound} matches whole-op TIU): cells distinct from steps 0 and
 *       {@code L + 1}, so it adds to the fill and drain.
 *   <li><b>Transfers beside each step's TIU rows</b> ({@code Terms#stepExcess}, {@code
 *       Terms#middleExcess}). In step {@code t} the TIU runs iteration {@code t - 1}, one op per
 *       row, and the GDMA runs that iteration's stage-1 transfers (each in its window of rows: a
 *       load before its reader, a store after its writer), the stage-0 loads of iteration {@code t}
 *       and the stage-2 stores of iteration {@code t - 2} (in rows after the last reader, and
 *       before the last op's). Since {@code Σ_c max(T_c, G_c) >= Σ_c T_c + Σ_c G_c - Σ_c min(G_c,
 *       T_c)}, what no assignment of them to rows can absorb is exposed: the most any fractional
 *       assignment absorbs is found by earliest-deadline-first (the windows are intervals), each
 *       transfer capped at the largest row of its window (it runs in one row). For the first and
 *       the last iteration the windows are also narrowed where the LMEM has no room for the value
 *       beside what every table keeps alive ({@code Rows}), and a cut bounds what can be loaded
 *       early over a row (the loads in flight there fit its free bytes: a 0/1 knapsack). Steps have
 *       distinct cells, so their terms add, and any subset of them is a bound. The middle steps are
 *       counted by class (steps whose iterations' slices have the same lengths have the same
 *       excess), and weights only in the first step (a held weight moves once).
 * </ul>
 *
 * One cycle per term is given away for floating-point rounding. The cycles bound is {@code max(TIU
 * + fill + drain + transfers, GDMA)}; the bytes bound the bytes above.
 *
 * <h2>Over every secs</h2>
 *
 * A valid group of a range is sliced by {@link Slicing} at its secs under the grouping's rules, and
 * under today's rules its secs lie within {@code get_group_max_secs} and split W only as {@code
 * can_split_w} allows ({@link SliceRules#boundsSecs}, checked by {@link GroupingValidator}), so the
 * least of the bound above over every such secs that slicing accepts is a bound on every valid
 * group of the range. Slicing accepts no secs above a group output's extent on an axis (in the
 * group type's layout; C in units of NPU_NUM channels), as a slice would come out empty, so the
 * secs lie in a finite box (under today's rules, also within {@code get_group_max_secs}), walked
 * whole but for the combinations {@code can_split_w} refuses. Slicing treats the axes apart: each
 * output axis is cut by its own secs; each operand's range on an axis is whole when that axis has
 * one sec, else the backward of the output's ranges on that axis; two users' ranges are compared
 * and joined axis by axis (the hull) and refused for reasons that do not depend on the secs; the
 * h/2 rule reads H alone. So slicing at {@code (n, c, h, w)} succeeds exactly when it succeeds at
 * each of {@code (n, 1, 1, 1)}, {@code (1, c, 1, 1)}, {@code (1, 1, h, 1)} and {@code (1, 1, 1,
 * w)}, and each tensor's ranges on an axis are those of the slicing on that axis alone ({@code
 * SlicedBoundTest} checks this against {@link Slicing} on every secs of its fixtures). Every term
 * above is a sum of products over axes of a per-axis quantity (slice count, sum, first and last
 * length), so the box costs one slicing per value of each axis and a product per combination. The
 * terms without the steps' transfers are computed for every combination first; the full bound then
 * follows in their order until they reach the least full bound found (it is never below them),
 * where the bound with only the most common class of middle steps is below that least bound too (it
 * is never above the full bound either).
 */
public final class SlicedBound {
  /** The classes of middle steps {@link Terms#middleExcess} solves, at most (the most common). */
  static final int MIDDLE_STEPS = 64;

  /** The classes of middle steps {@link Terms#middleExcess} counts, at most. */
  static final int MIDDLE_CLASSES = 4 * MIDDLE_STEPS;

  /** The axes from the innermost loop (c, then w, h, n) and from the outermost. */
  private static final int[] INNER_FIRST = {1, 3, 2, 0};

  private static final int[] OUTER_FIRST = {0, 2, 3, 1};

  /** The fractions of a cycle {@link Terms#middleExcess} counts in (see {@code gdmaUnits}). */
  static final long STEP_UNITS = 1024;

  /** Which steps' transfers beside their TIU rows a bound counts. */
  private enum Exposed {
    /** None: the terms every search candidate is asked for. */
    NONE,
    /** The middle steps of the most common class only. */
    LARGEST_MIDDLE_CLASS,
    /** The first, the last and the middle steps. */
    ALL
  }

  /** The middle steps across an outer slice {@link Terms#middleExcess} walks, at most. */
  static final long MIDDLE_LOOPS = 1 << 16;

  private final RooflineCostModel model;
  private final Graph graph;
  private final Chip chip;

  public SlicedBound(RooflineCostModel model, Graph graph, Chip chip) {
    this.model = model;
    this.graph = graph;
    this.chip = chip;
  }

  /** The bound of the group {@code ops} sliced as {@code slices}. */
  public GroupingBound.Part at(List<Op> ops, GroupBoundary io, Map<String, SliceInfo> slices) {
    return at(ops, io, slices, true);
  }

  /**
   * {@link #at} without the first and last iterations' transfers beside their TIU rows (the
   * earliest-deadline-first and LMEM terms): never above it, and far cheaper, for a search that
   * asks it of every candidate.
   */
  public GroupingBound.Part quickAt(List<Op> ops, GroupBoundary io, Map<String, SliceInfo> slices) {
    return at(ops, io, slices, false);
  }

  private GroupingBound.Part at(
      List<Op> ops, GroupBoundary io, Map<String, SliceInfo> slices, boolean full) {
    Terms terms = new Terms(ops, io, full);
    int nt = terms.tensors.size();
    long[][][] axes = new long[4][nt][];
    long[] counts = {1, 1, 1, 1};
    for (SliceInfo si : slices.values()) {
      for (Axis a : Axis.values()) {
        counts[a.ordinal()] = Math.max(counts[a.ordinal()], si.get(a).size());
      }
    }
    for (int t = 0; t < nt; t++) {
      SliceInfo si = slices.get(terms.tensors.get(t));
      for (Axis a : Axis.values()) {
        axes[a.ordinal()][t] = si == null ? null : summary(si.get(a));
      }
    }
    return terms.bound(axes, counts, full ? Exposed.ALL : Exposed.NONE);
  }

  /**
   * The least bound over every secs that {@link Slicing} accepts for the group {@code ops} under
   * {@code rules} and that the rules allow ({@link ShapeSecsBounds#whyOutOfBounds}); {@link
   * GroupingBound#NO_GROUP_COST} in both when it accepts none.
   */
  public GroupingBound.Part best(List<Op> ops, SliceRules rules) {
    GroupBoundary io = GroupBoundary.of(graph, ops);
    long[] extent = extent(ops, io, rules);
    Terms terms = new Terms(ops, io, true);
    int nt = terms.tensors.size();
    // per axis, per accepted secs: the count and each tensor's summary on that axis
    List<List<long[][]>> perAxis = new ArrayList<>();
    List<List<Long>> countsPerAxis = new ArrayList<>();
    List<List<Long>> secsPerAxis = new ArrayList<>();
    for (Axis a : Axis.values()) {
      List<long[][]> accepted = new ArrayList<>();
      List<Long> counts = new ArrayList<>();
      List<Long> secsOf = new ArrayList<>();
      for (long k = 1; k <= extent[a.ordinal()]; k++) {
        int[] secs = {1, 1, 1, 1};
        secs[a.ordinal()] = (int) k;
        SliceResult r =
            Slicing.slice(
                graph, ops, chip, new ShapeSecs(secs[0], secs[1], secs[2], secs[3]), rules);
        if (!(r instanceof SliceResult.Sliced s)) {
          continue;
        }
        long count = 1;
        for (SliceInfo si : s.slices().values()) {
          count = Math.max(count, si.get(a).size());
        }
        long[][] sums = new long[nt][];
        for (int t = 0; t < nt; t++) {
          SliceInfo si = s.slices().get(terms.tensors.get(t));
          sums[t] = si == null ? null : summary(si.get(a));
        }
        accepted.add(sums);
        counts.add(count);
        secsOf.add(k);
      }
      if (accepted.isEmpty()) {
        return new GroupingBound.Part(GroupingBound.NO_GROUP_COST, GroupingBound.NO_GROUP_COST);
      }
      perAxis.add(accepted);
      countsPerAxis.add(counts);
      secsPerAxis.add(secsOf);
    }
    SecsRule rule = new SecsRule(ops, io, rules, secsPerAxis.get(Axis.W.ordinal()));
    // first the cheap terms of every secs (and the bytes, which they hold whole), then the full
    // bound in order of the cheap one until it reaches the least full bound found: the full bound
    // is never below the cheap one, so no secs left could be lower
    long bestBytes = Long.MAX_VALUE;
    long[][][] axes = new long[4][][];
    long[] counts = new long[4];
    int[] at = new int[4];
    List<long[]> cheapest = new ArrayList<>();
    while (true) {
      select(perAxis, countsPerAxis, at, axes, counts);
      if (rule.allows(secsPerAxis.get(Axis.H.ordinal()).get(at[Axis.H.ordinal()]), at[3])) {
        GroupingBound.Part cheap = terms.bound(axes, counts, Exposed.NONE);
        cheapest.add(new long[] {cheap.cycles(), at[0], at[1], at[2], at[3]});
        if (cheap.bytes() < bestBytes && terms.lmem.fits(axes)) {
          bestBytes = cheap.bytes();
        }
      }
      int a = 3;
      while (a >= 0 && ++at[a] == perAxis.get(a).size()) {
        at[a] = 0;
        a--;
      }
      if (a < 0) {
        break;
      }
    }
    cheapest.sort(java.util.Comparator.comparingLong(c -> c[0]));
    long bestCycles = Long.MAX_VALUE;
    for (long[] c : cheapest) {
      if (c[0] >= bestCycles) {
        break;
      }
      for (int a = 0; a < 4; a++) {
        at[a] = (int) c[1 + a];
      }
      select(perAxis, countsPerAxis, at, axes, counts);
      if (terms.lmem.fits(axes)
          && terms.bound(axes, counts, Exposed.LARGEST_MIDDLE_CLASS).cycles() < bestCycles) {
        bestCycles = Math.min(bestCycles, terms.bound(axes, counts, Exposed.ALL).cycles());
      }
    }
    return bestCycles == Long.MAX_VALUE
        ? new GroupingBound.Part(GroupingBound.NO_GROUP_COST, GroupingBound.NO_GROUP_COST)
        : new GroupingBound.Part(bestCycles, bestBytes);
  }

  /** The per-axis summaries and loop counts of the secs {@code at} indexes. */
  private static void select(
      List<List<long[][]>> perAxis,
      List<List<Long>> countsPerAxis,
      int[] at,
      long[][][] axes,
      long[] counts) {
    for (int a = 0; a < 4; a++) {
      axes[a] = perAxis.get(a).get(at[a]);
      counts[a] = countsPerAxis.get(a).get(at[a]);
    }
  }

  /**
   * The work of {@link #best} on the group {@code ops}: the slices its slicings cut, {@code Σ_axis
   * Σ_(k <= extent) k} per op, and the combinations it walks, times the ops.
   */
  public long work(List<Op> ops, SliceRules rules) {
    long[] extent = extent(ops, GroupBoundary.of(graph, ops), rules);
    long slices = 0;
    long combinations = 1;
    for (long e : extent) {
      slices += e * (e + 1) / 2;
      combinations *= e;
    }
    return (slices + combinations) * ops.size();
  }

  /**
   * Today's bounds on a group's W secs beyond what slicing accepts ({@link SliceRules#boundsSecs}):
   * {@code get_group_max_secs} and {@code assign_dhwsecs}'s {@code can_split_w} ({@link
   * ShapeSecsBounds#canSplitW}), which {@link GroupingValidator} checks.
   */
  private final class SecsRule {
    private final boolean on;
    private final GroupType type;
    private final List<String> outs;
    private final long maxH;
    private final List<Long> wSecs;

    SecsRule(List<Op> ops, GroupBoundary io, SliceRules rules, List<Long> wSecs) {
      on = rules.boundsSecs();
      type = rules.groupType(graph, ops, chip);
      outs = io.outputs();
      maxH = on ? ShapeSecsBounds.maxSecs(graph, ops, chip, type).hsecs() : 0;
      this.wSecs = wSecs;
    }

    /** Whether a group may be cut into {@code h} H secs and the {@code wi}-th W secs. */
    boolean allows(long h, int wi) {
      long w = wSecs.get(wi);
      return !on || ShapeSecsBounds.canSplitW(graph, chip, type, outs, h * w, maxH, w);
    }
  }

  /**
   * Per axis, the most secs slicing can accept: the least extent of a group output; under rules
   * that bound the secs ({@link SliceRules#boundsSecs}), at most {@code get_group_max_secs}.
   */
  private long[] extent(List<Op> ops, GroupBoundary io, SliceRules rules) {
    GroupType type = rules.groupType(graph, ops, chip);
    long[] extent = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
    for (String out : io.outputs()) {
      Nchw s = type.view(graph, out, chip);
      extent[0] = Math.min(extent[0], s.n());
      extent[1] = Math.min(extent[1], OpSemantics.ceilDiv(s.c(), chip.lanes()));
      extent[2] = Math.min(extent[2], s.h());
      extent[3] = Math.min(extent[3], s.w());
    }
    if (!OpSemantics.bm1684xFamily(chip)) {
      extent[3] = 1; // slicing refuses W secs off the BM1684X family
    }
    if (rules.boundsSecs()) {
      ShapeSecs max = ShapeSecsBounds.maxSecs(graph, ops, chip, type);
      for (Axis a : Axis.values()) {
        extent[a.ordinal()] = Math.min(extent[a.ordinal()], max.secs(a));
      }
    }
    return extent;
  }

  /**
   * A tensor's slices on one axis: count, Σ len, first len, last len, longest len, then each
   * slice's len.
   */
  private static long[] summary(List<Range> slices) {
    long total = 0;
    for (Range r : slices) {
      total += r.len();
    }
    long most = 0;
    for (Range r : slices) {
      most = Math.max(most, r.len());
    }
    long[] out = new long[5 + slices.size()];
    out[0] = slices.size();
    out[1] = total;
    out[2] = slices.get(0).len();
    out[3] = slices.get(slices.size() - 1).len();
    out[4] = most;
    for (int i = 0; i < slices.size(); i++) {
      out[5 + i] = slices.get(i).len();
    }
    return out;
  }

  /** The terms of one group: which tensors each term reads, and the constants. */
  private final class Terms {
    /** The tensors whose slices matter: group inputs, op outputs, the first op's operands. */
    final List<String> tensors;

    final long constantBytes;
    final int[] inputs;
    final int[] opOutputs;
    final double[] opWork;
    final double[] opElements;
    final int[] fill;
    final long constantFill;
    final int[] drain;
    final Rows lmem;

    /** {@code gdma(b) - 1} of each weight the first op does not read, from the largest. */
    final long[] laterWeights;

    /** Each axis's slice classes ({@link #sliceClasses}) by its per-tensor summaries. */
    final Map<long[][], int[]> classesOf = new java.util.IdentityHashMap<>();

    /** Each op's work, TIU rate and output elements, as the cost model counts a slice. */
    final double[] opMacs;

    final long[] opRate;
    final long[] outElements;

    /**
     * The first op's activation operands (loaded for the next iteration by stage-0 transfers, in
     * rows after the last that reads them) and the last op's group outputs (stored for the
     * iteration before by stage-2 transfers, in rows before the last op's): tensor index, first
     * row, last row.
     */
    final int[][] folded;

    /**
     * The stage-1 transfers ({@link #stepExcess}), by release row: the tensor moved (its index, or
     * -1 for a weight), the first and last row it may run in, and a weight's {@code gdma(b) - 1}.
     */
    final int[] jobTensor;

    final int[] jobRelease;
    final int[] jobDeadline;
    final long[] jobWeight;
    final long[] jobWeightLmem;
    final int[] jobLifeEnd;

    /**
     * @param full whether to prepare the LMEM rows and the stage-1 transfers ({@link #stepExcess})
     */
    Terms(List<Op> ops, GroupBoundary io, boolean full) {
      Set<String> names = new LinkedHashSet<>();
      double bytes = 0;
      Set<String> weights = new java.util.HashSet<>();
      for (Op op : ops) {
        for (String t : op.inputs()) {
          if (!t.isEmpty() && !GroupBoundary.isActivation(graph, t) && weights.add(t)) {
            bytes += graph.tensor(t).bytes();
          }
        }
      }
      for (String out : io.outputs()) {
        bytes += graph.tensor(out).bytes();
      }
      constantBytes = (long) bytes;
      names.addAll(io.inputs());
      for (Op op : ops) {
        names.add(op.outputs().get(0));
      }
      List<String> firstActivations = new ArrayList<>();
      long fillBytes = 0;
      Set<String> seen = new java.util.HashSet<>();
      for (String t : ops.get(0).inputs()) {
        if (t.isEmpty() || !seen.add(t)) {
          continue;
        }
        if (GroupBoundary.isActivation(graph, t)) {
          firstActivations.add(t);
          names.add(t);
        } else {
          fillBytes += graph.tensor(t).bytes();
        }
      }
      constantFill = fillBytes;
      Set<String> outs = new java.util.HashSet<>(io.outputs());
      List<String> drained = new ArrayList<>();
      for (String t : ops.get(ops.size() - 1).outputs()) {
        if (outs.contains(t)) {
          drained.add(t);
          names.add(t);
        }
      }
      for (Op op : ops) {
        names.addAll(op.outputs());
        for (String t : op.inputs()) {
          if (!t.isEmpty() && GroupBoundary.isActivation(graph, t)) {
            names.add(t);
          }
        }
      }
      tensors = List.copyOf(names);
      Map<String, Integer> index = new HashMap<>();
      for (int i = 0; i < tensors.size(); i++) {
        index.put(tensors.get(i), i);
      }
      lmem = full ? new Rows(ops, io, tensors, index) : null;
      Set<String> firstReads = new java.util.HashSet<>(ops.get(0).inputs());
      laterWeights =
          weights.stream()
              .filter(t -> !firstReads.contains(t))
              .mapToLong(t -> Math.max(0, model.gdmaCycles(graph.tensor(t).bytes(), chip) - 1))
              .map(x -> -x)
              .sorted()
              .map(x -> -x)
              .toArray();
      List<long[]> jobs = full ? stageOneTransfers(ops, io, firstReads, index) : List.of();
      jobTensor = jobs.stream().mapToInt(j -> (int) j[0]).toArray();
      jobRelease = jobs.stream().mapToInt(j -> (int) j[1]).toArray();
      jobDeadline = jobs.stream().mapToInt(j -> (int) j[2]).toArray();
      jobWeight = jobs.stream().mapToLong(j -> j[3]).toArray();
      jobWeightLmem = jobs.stream().mapToLong(j -> j[4]).toArray();
      jobLifeEnd = jobs.stream().mapToInt(j -> (int) j[5]).toArray();
      inputs = io.inputs().stream().mapToInt(index::get).toArray();
      opOutputs = ops.stream().mapToInt(op -> index.get(op.outputs().get(0))).toArray();
      opWork = new double[ops.size()];
      opElements = new double[ops.size()];
      opMacs = new double[ops.size()];
      opRate = new long[ops.size()];
      outElements = new long[ops.size()];
      for (int i = 0; i < ops.size(); i++) {
        Op op = ops.get(i);
        opMacs[i] = RooflineCostModel.work(graph, op);
        opRate[i] = RooflineCostModel.tiuRate(graph, op, chip);
        outElements[i] = graph.tensor(op.outputs().get(0)).shape().elements();
        Nchw whole = Nchw.of(graph.tensor(op.outputs().get(0)).shape());
        opWork[i] = Math.max(0, model.tiuCycles(graph, op, chip) - 1);
        opElements[i] = (double) whole.n() * whole.c() * whole.h() * whole.w();
      }
      fill = firstActivations.stream().mapToInt(index::get).toArray();
      drain = drained.stream().mapToInt(index::get).toArray();
      List<int[]> fold = new ArrayList<>();
      int k = ops.size();
      for (int t : fill) {
        int lastReader = 0;
        for (int r = 0; r < k; r++) {
          if (ops.get(r).inputs().contains(tensors.get(t))) {
            lastReader = r;
          }
        }
        fold.add(new int[] {t, lastReader + 1, k - 1});
      }
      for (int t : drain) {
        fold.add(new int[] {t, 0, k - 2});
      }
      folded = fold.toArray(new int[0][]);
    }

    /**
     * The bound at {@code axes} under {@code counts}, with the steps' {@code exposed} transfers
     * (with fewer, cheaper and never above it).
     */
    GroupingBound.Part bound(long[][][] axes, long[] counts, Exposed exposed) {
      double bytes = constantBytes;
      for (int t : inputs) {
        bytes += elements(axes, counts, t) * graph.tensor(tensors.get(t)).dtype().bits() / 8.0;
      }
      long ddr = Math.max(0, (long) Math.floor(bytes) - 1);
      double tiu = 0;
      for (int i = 0; i < opOutputs.length; i++) {
        int t = opOutputs[i];
        double share =
            axes[0][t] == null ? loops(counts) : elements(axes, counts, t) / opElements[i];
        tiu += Math.max(0, opWork[i] * share - 1);
      }
      long first = constantFill;
      for (int t : fill) {
        first += edgeBytes(axes, t, 2);
      }
      long last = 0;
      for (int t : drain) {
        last += edgeBytes(axes, t, 3);
      }
      long edges =
          Math.max(0, model.gdmaCycles(first, chip) - 1)
              + Math.max(0, model.gdmaCycles(last, chip) - 1);
      long gdma = Math.max(0, model.gdmaCycles((long) Math.floor(bytes), chip) - 1);
      long excess = laterWeights.length == 0 ? 0 : weightExcess(axes);
      boolean one = counts[0] * counts[1] * counts[2] * counts[3] == 1;
      if (exposed == Exposed.ALL) {
        excess = Math.max(excess, stepExcess(axes, 2, true));
        if (!one) {
          excess += stepExcess(axes, 3, false) + middleExcess(axes, counts, false);
        }
      } else if (exposed == Exposed.LARGEST_MIDDLE_CLASS && !one) {
        excess += middleExcess(axes, counts, true);
      }
      return new GroupingBound.Part(Math.max((long) Math.floor(tiu) + edges + excess, gdma), ddr);
    }

    /**
     * The stage-1 transfers of one iteration: the loads of the values the first op does not read
     * (weights and group inputs), each in a row before its first reader's, and the stores of the
     * group outputs of every op but the last, each in a row after its op's; as {@code {tensor index
     * or -1, first row, last row, a weight's gdma(b) - 1, a weight's LMEM bytes, a store's last
     * reader's row or -1}}, by first row.
     */
    private List<long[]> stageOneTransfers(
        List<Op> ops, GroupBoundary io, Set<String> firstReads, Map<String, Integer> index) {
      int k = ops.size();
      List<long[]> jobs = new ArrayList<>();
      Set<String> loaded = new java.util.HashSet<>(firstReads);
      for (int q = 1; q < k; q++) {
        for (String t : ops.get(q).inputs()) {
          if (!t.isEmpty() && loaded.add(t) && !producedBy(ops, t)) {
            boolean weight = !GroupBoundary.isActivation(graph, t);
            jobs.add(
                new long[] {
                  weight ? -1 : index.get(t),
                  0,
                  q - 1,
                  weight ? gdmaLess1(graph.tensor(t).bytes()) : 0,
                  weight ? OpSemantics.weightLmemBytes(graph, ops.get(q), t, chip) : 0,
                  -1
                });
          }
        }
      }
      Set<String> outs = new java.util.HashSet<>(io.outputs());
      for (int p = 0; p < k - 1; p++) {
        for (String t : ops.get(p).outputs()) {
          if (outs.contains(t)) {
            int end = p;
            for (int r = p + 1; r < k; r++) {
              if (ops.get(r).inputs().contains(t)) {
                end = r;
              }
            }
            jobs.add(new long[] {index.get(t), p + 1, k - 1, 0, 0, end});
          }
        }
      }
      jobs.sort(java.util.Comparator.comparingLong(j -> j[1]));
      return jobs;
    }

    /**
     * The stage-1 transfers of the first ({@code which == 2}: step 1) or the last ({@code 3}: step
     * {@code L}) iteration that the TIU work of that step cannot absorb. That step runs every op on
     * that iteration's slices, one op per row, and those transfers in the rows of their windows
     * ({@link #stageOneTransfers}; weights only with {@code weights}: a held weight moves in
     * iteration 0 only). Each transfer's {@code gdma(b) - 1} of its slice is a demand on its
     * window, each row absorbs at most its op's TIU cycles on that slice plus one; what the most
     * absorbing fractional assignment leaves, computed exactly by earliest-deadline-first along the
     * rows (windows are intervals), is exposed in every table: {@code Σ_c max(T_c, G_c) >= Σ_c T_c
     * + Σ_c G_c - Σ_c min(G_c, T_c)}, and {@code Σ_c min(G_c, T_c)} is an assignment's absorption.
     */
    private long stepExcess(long[][][] axes, int which, boolean weights) {
      int k = opOutputs.length;
      long demand = 0;
      long[] left = new long[jobTensor.length];
      long[] live = lmem.live(axes);
      long[] size = lmem.sizes(axes);
      int[] release = jobRelease.clone();
      int[] deadline = jobDeadline.clone();
      long[] jobBytes = new long[left.length];
      for (int j = 0; j < left.length; j++) {
        long bytes = jobTensor[j] < 0 ? jobWeightLmem[j] : lmem.bytes(axes, jobTensor[j], size);
        jobBytes[j] = bytes;
        if (jobLifeEnd[j] < 0) { // a load lives from its row to its reader: rows before need room
          int r = deadline[j] - 1;
          while (r >= release[j] && live[r] + bytes <= lmem.capacity) {
            r--;
          }
          release[j] = r + 1;
        } else { // a store keeps its value alive from its last reader to its row
          int r = jobLifeEnd[j] + 1;
          while (r <= deadline[j] && live[r] + bytes <= lmem.capacity) {
            r++;
          }
          deadline[j] = Math.max(r - 1, jobLifeEnd[j]);
        }
      }
      for (int j = 0; j < left.length; j++) {
        left[j] =
            jobTensor[j] < 0
                ? (weights ? jobWeight[j] : 0)
                : gdmaLess1(edgeBytes(axes, jobTensor[j], which));
        demand += left[j];
      }
      if (demand == 0) {
        return 0;
      }
      long[] rooms = new long[k];
      for (int r = 0; r < k; r++) {
        rooms[r] = room(axes, r, which);
      }
      // a transfer runs in one row: it absorbs at most the room of the largest row of its window
      for (int j = 0; j < left.length; j++) {
        long most = 0;
        for (int r = Math.max(0, release[j]); r <= Math.min(k - 1, deadline[j]); r++) {
          most = Math.max(most, rooms[r]);
        }
        left[j] = Math.min(left[j], most);
      }
      long cut = prefetchCut(left, live, jobBytes, rooms, release, deadline);
      long absorbed = absorbed(left, release, deadline, rooms);
      return Math.max(0, demand - Math.min(absorbed, cut));
    }

    /**
     * A second bound on what the rows can absorb, from the LMEM: a load absorbed in a row at or
     * before {@code r} whose reader comes after row {@code r + 1} is live in row {@code r} beside
     * what every table keeps there, so the loads that do so fit together in the lane's free bytes
     * of that row, and their {@code gdma} is at most the knapsack {@code K_r} of those bytes (each
     * load whole: {@link #zeroOne} where the fractional one splits a load). With {@code D_r} the
     * demands of the loads due by row {@code r} and of every store, {@code A_r <= min(A_(r - 1) +
     * T_r + 1, D_r + K_r)}.
     */
    private long prefetchCut(
        long[] demand, long[] live, long[] bytes, long[] rooms, int[] release, int[] deadline) {
      int k = opOutputs.length;
      int n = demand.length;
      Integer[] byRatio = new Integer[n];
      for (int j = 0; j < n; j++) {
        byRatio[j] = j;
      }
      java.util.Arrays.sort(
          byRatio,
          java.util.Comparator.comparingDouble(j -> -(double) demand[j] / Math.max(1, bytes[j])));
      long stores = 0;
      for (int j = 0; j < n; j++) {
        if (jobLifeEnd[j] >= 0) {
          stores += demand[j];
        }
      }
      double bound = 0;
      for (int r = 0; r < k; r++) {
        long due = stores;
        for (int j = 0; j < n; j++) {
          if (jobLifeEnd[j] < 0 && deadline[j] <= r) {
            due += demand[j];
          }
        }
        long free = Math.max(0, lmem.capacity - live[r]);
        List<Integer> items = new ArrayList<>(); // loads that may be in flight over row r
        for (int j : byRatio) {
          if (jobLifeEnd[j] < 0 && deadline[j] > r && release[j] <= r && bytes[j] <= free) {
            items.add(j);
          }
        }
        double knapsack = 0;
        double room = free;
        boolean split = false;
        for (int j : items) {
          double take = Math.min(1.0, room / Math.max(1, bytes[j]));
          split |= take > 0 && take < 1;
          knapsack += take * demand[j];
          room -= take * bytes[j];
        }
        if (split) { // each load is in flight whole or not at all
          knapsack = Math.min(knapsack, zeroOne(items, demand, bytes, free));
        }
        bound = Math.min(bound + rooms[r], due + knapsack);
      }
      return (long) Math.ceil(bound) + 1;
    }

    /**
     * The middle steps {@code 2..L - 1}: in step {@code t} the TIU runs iteration {@code t - 1},
     * beside the stage-1 transfers of that iteration's activations (weights may be held: left out),
     * the stage-0 loads of iteration {@code t} and the stage-2 stores of iteration {@code t - 2},
     * each in its window ({@link #folded}); what earliest-deadline-first cannot absorb, each
     * transfer capped at the largest row of its window, as in {@link #stepExcess} but without the
     * LMEM's narrowing.
     *
     * <p>A step's excess depends only on the lengths of the slices its three iterations take on
     * each axis, so the steps are counted by class ({@link #sliceClasses}: on most axes the first,
     * the last and the equal slices between) and each class is solved once. With {@code m} slices
     * on the innermost axis that has more than one, a step whose iteration {@code t} sits at slice
     * {@code x >= 2} of it shares its outer slices with the two iterations before: those steps are
     * counted as products of per-axis counts; the {@code 2 (L / m - 1)} steps at {@code x < 2}
     * cross an outer slice and are walked one by one. Each step's excess is at least 0 and the
     * steps' cells are apart, so any subset is a bound: the classes past the first {@value
     * #MIDDLE_CLASSES} found, those past the {@value #MIDDLE_STEPS} of the most steps and the
     * walked steps past {@value #MIDDLE_LOOPS} are left out; with {@code largestClass}, all but the
     * class of the most steps (a cheaper bound, never above the whole).
     */
    private long middleExcess(long[][][] axes, long[] counts, boolean largestClass) {
      long loops = counts[0] * counts[1] * counts[2] * counts[3];
      if (loops < 3) {
        return 0;
      }
      StepClasses steps = new StepClasses(axes, counts);
      int inner = -1;
      for (int a : INNER_FIRST) {
        if (inner < 0 && counts[a] > 1) {
          inner = a;
        }
      }
      long m = counts[inner];
      // the steps inside one outer slice: each outer class times each run of three inner slices
      List<long[]> outer = new ArrayList<>(); // {count, a representative outer index}
      outer.add(new long[] {1, 0});
      for (int a : OUTER_FIRST) {
        if (a == inner || counts[a] == 1) { // the axes inside the inner one have one slice
          continue;
        }
        List<long[]> next = new ArrayList<>();
        for (long[] o : outer) {
          for (long[] c : steps.perClass(a)) { // {count, representative slice}
            next.add(new long[] {o[0] * c[0], o[1] * counts[a] + c[1]});
          }
        }
        outer = next;
      }
      List<long[]> triples = new ArrayList<>(); // {count, representative inner slice, class}
      for (long x = 2; x < m; x++) {
        steps.count(triples, 1, x);
      }
      List<long[]> classes = new ArrayList<>(); // {count, representative step, class}
      for (long[] o : outer) {
        for (long[] tr : triples) {
          steps.count(classes, o[0] * tr[0], o[1] * m + tr[1]);
        }
      }
      // the steps that cross an outer slice
      for (long o = 1; o < Math.min(loops / m, MIDDLE_LOOPS); o++) {
        steps.count(classes, 1, o * m);
        steps.count(classes, 1, o * m + 1);
      }
      classes.sort(java.util.Comparator.comparingLong(c -> -c[0]));
      long total = 0;
      for (int i = 0; i < Math.min(largestClass ? 1 : MIDDLE_STEPS, classes.size()); i++) {
        total += classes.get(i)[0] * steps.excess(classes.get(i)[1]);
      }
      return total / STEP_UNITS;
    }

    /** The middle steps of one secs by class, each class's excess solved once. */
    private final class StepClasses {
      private final long[][][] axes;
      private final long[] counts;
      private final int[][] classes = new int[4][];
      private final long[] radix = new long[4];
      private final long perIteration;
      private final boolean byClass;

      /** The class {@link #count} found last (the steps come in runs of one class). */
      private long[] last;

      private List<long[]> lastIn;

      StepClasses(long[][][] axes, long[] counts) {
        this.axes = axes;
        this.counts = counts;
        long product = 1;
        for (int a = 0; a < 4; a++) {
          classes[a] = classesOf.get(axes[a]);
          if (classes[a] == null || classes[a].length != counts[a]) {
            classes[a] = sliceClasses(axes[a], counts[a]);
            classesOf.put(axes[a], classes[a]);
          }
          for (int id : classes[a]) {
            radix[a] = Math.max(radix[a], id + 1);
          }
          product *= radix[a];
        }
        perIteration = product;
        // a step's class: its three iterations' classes; each step a class of its own where
        // their product overflows
        byClass = Math.pow(perIteration, 3) < 0x1p62;
      }

      /** Per class of axis {@code a}'s slices: how many slices, and one of them. */
      List<long[]> perClass(int a) {
        List<long[]> out = new ArrayList<>();
        for (int idx = 0; idx < classes[a].length; idx++) {
          int id = classes[a][idx];
          while (out.size() <= id) {
            out.add(new long[] {0, idx});
          }
          out.get(id)[0]++;
        }
        return out;
      }

      /** Step {@code t}'s class. */
      long key(long t) {
        if (!byClass) {
          return t;
        }
        long key = 0;
        for (long it = t - 2; it <= t; it++) {
          key = key * perIteration + iterationClass(it);
        }
        return key;
      }

      /**
       * Adds {@code count} steps of step {@code t}'s class to {@code classes} ({count, a
       * representative step, class}); a class past the first {@value #MIDDLE_CLASSES} is left out.
       */
      void count(List<long[]> classes, long count, long t) {
        long key = key(t);
        if (lastIn == classes && last[2] == key) {
          last[0] += count;
          return;
        }
        for (long[] c : classes) {
          if (c[2] == key) {
            c[0] += count;
            last = c;
            lastIn = classes;
            return;
          }
        }
        if (classes.size() < MIDDLE_CLASSES) {
          last = new long[] {count, t, key};
          lastIn = classes;
          classes.add(last);
        }
      }

      /** Step {@code t}'s excess in {@link #STEP_UNITS}. */
      long excess(long t) {
        return stepExcessAt(axes, counts, t);
      }

      /** Iteration {@code it}'s class: the classes of its slice on each axis. */
      private long iterationClass(long it) {
        long id = 0;
        for (int a = 0; a < 4; a++) {
          id = id * radix[a] + classes[a][(int) index(counts, a, it)];
        }
        return id;
      }
    }

    /**
     * The slice indices of one axis by class: two indices share a class when every tensor's slice
     * there has the same length.
     */
    private int[] sliceClasses(long[][] summaries, long count) {
      int[] classes = new int[(int) count];
      Map<List<Long>, Integer> ids = new HashMap<>();
      for (int idx = 0; idx < count; idx++) {
        List<Long> lengths = new ArrayList<>(summaries.length);
        for (long[] summary : summaries) {
          lengths.add(summary == null ? 0 : sliceLen(summary, idx));
        }
        Integer id = ids.putIfAbsent(lengths, ids.size());
        classes[idx] = id == null ? ids.size() - 1 : id;
      }
      return classes;
    }

    /** The excess of middle step {@code t} ({@link #middleExcess}), in {@link #STEP_UNITS}. */
    private long stepExcessAt(long[][][] axes, long[] counts, long t) {
      int k = opOutputs.length;
      int n = jobTensor.length + folded.length;
      int[] release = new int[n];
      int[] deadline = new int[n];
      for (int j = 0; j < jobTensor.length; j++) {
        release[j] = jobRelease[j];
        deadline[j] = jobDeadline[j];
      }
      for (int f = 0; f < folded.length; f++) {
        release[jobTensor.length + f] = folded[f][1];
        deadline[jobTensor.length + f] = folded[f][2];
      }
      long[] rooms = new long[k];
      long[] demand = new long[n];
      for (int r = 0; r < k; r++) {
        rooms[r] = rowTiu(r, iterationElements(axes, counts, opOutputs[r], t - 1)) * STEP_UNITS;
      }
      for (int j = 0; j < jobTensor.length; j++) {
        demand[j] =
            jobTensor[j] < 0 ? 0 : gdmaUnits(iterationBytes(axes, counts, jobTensor[j], t - 1));
      }
      for (int f = 0; f < folded.length; f++) {
        boolean load = f < fill.length;
        demand[jobTensor.length + f] =
            gdmaUnits(iterationBytes(axes, counts, folded[f][0], load ? t : t - 2));
      }
      long sum = 0;
      for (long d : demand) {
        sum += d;
      }
      return Math.max(0, sum - absorbed(demand, release, deadline, rooms));
    }

    /**
     * At most the GDMA time of {@code bytes} in {@link #STEP_UNITS} of a cycle: a row's transfers
     * take the ceiling of their sum, so their times add unrounded (one unit given away for
     * floating-point rounding).
     */
    private long gdmaUnits(long bytes) {
      return Math.max(0, (long) Math.floor(model.gdmaTime(bytes, chip) * STEP_UNITS) - 1);
    }

    /** The elements of iteration {@code it}'s slice of tensor {@code t}; -1 where it is whole. */
    private long iterationElements(long[][][] axes, long[] counts, int t, long it) {
      if (axes[0][t] == null) {
        return -1;
      }
      long e = 1;
      for (int a = 0; a < 4; a++) {
        e *= sliceLen(axes[a][t], index(counts, a, it));
      }
      return e;
    }

    /** The bytes of iteration {@code it}'s slice of tensor {@code t}. */
    private long iterationBytes(long[][][] axes, long[] counts, int t, long it) {
      Tensor tensor = graph.tensor(tensors.get(t));
      long e = iterationElements(axes, counts, t, it);
      return e < 0 ? tensor.bytes() : tensor.dtype().bytes(e);
    }

    /** The length of slice {@code idx} on one axis (a tensor of one slice holds it every time). */
    private long sliceLen(long[] summary, long idx) {
      return summary[0] == 1 ? summary[1] : summary[5 + (int) Math.min(idx, summary[0] - 1)];
    }

    /** The slice index on axis {@code a} of iteration {@code it}: c innermost, then w, h, n. */
    private long index(long[] counts, int a, long it) {
      long c = counts[1];
      long w = counts[3];
      long h = counts[2];
      return switch (a) {
        case 1 -> it % c;
        case 3 -> it / c % w;
        case 2 -> it / (c * w) % h;
        default -> it / (c * w * h);
      };
    }

    /**
     * What earliest-deadline-first along the rows absorbs of {@code demand} (each capped at the
     * largest room of its window {@code [release, deadline]}) with {@code rooms} per row: the most
     * any fractional assignment absorbs, as the windows are intervals.
     */
    private long absorbed(long[] demand, int[] release, int[] deadline, long[] rooms) {
      int k = rooms.length;
      long sum = 0;
      long[] left = new long[demand.length];
      for (int j = 0; j < demand.length; j++) {
        sum += demand[j];
        long most = 0;
        for (int r = Math.max(0, release[j]); r <= Math.min(k - 1, deadline[j]); r++) {
          most = Math.max(most, rooms[r]);
        }
        left[j] = Math.min(demand[j], most);
      }
      if (sum == 0) {
        return 0;
      }
      Integer[] byRelease = new Integer[left.length];
      for (int j = 0; j < left.length; j++) {
        byRelease[j] = j;
      }
      java.util.Arrays.sort(byRelease, java.util.Comparator.comparingInt(j -> release[j]));
      java.util.PriorityQueue<Integer> open =
          new java.util.PriorityQueue<>(java.util.Comparator.comparingInt(j -> deadline[j]));
      long absorbed = 0;
      int next = 0;
      for (int r = 0; r < k; r++) {
        while (next < left.length && release[byRelease[next]] <= r) {
          int j = byRelease[next++];
          if (left[j] > 0 && deadline[j] >= release[j]) {
            open.add(j);
          }
        }
        long room = rooms[r];
        while (room > 0 && !open.isEmpty()) {
          int j = open.peek();
          if (deadline[j] < r) {
            open.poll();
            continue;
          }
          long take = Math.min(room, left[j]);
          left[j] -= take;
          room -= take;
          absorbed += take;
          if (left[j] == 0) {
            open.poll();
          }
        }
      }
      return absorbed;
    }

    /**
     * An upper bound on the most {@code demand} of {@code items} whose {@code bytes} fit in {@code
     * free}, each whole or not at all: the 0/1 knapsack by dynamic programming over sizes rounded
     * down to units of a 128th of the lane (and the room rounded up), so every set that fits is
     * still counted.
     */
    private long zeroOne(List<Integer> items, long[] demand, long[] bytes, long free) {
      long unit = Math.max(1, (lmem.capacity + 127) / 128);
      int cap = (int) ((free + unit - 1) / unit);
      long[] best = new long[cap + 1];
      long always = 0;
      for (int j : items) {
        int w = (int) (bytes[j] / unit);
        if (w == 0) {
          always += demand[j];
          continue;
        }
        for (int c = cap; c >= w; c--) {
          best[c] = Math.max(best[c], best[c - w] + demand[j]);
        }
      }
      return best[cap] + always;
    }

    /**
     * The TIU cycles of the op of row {@code r} on its first ({@code which == 2}) or last ({@code
     * 3}) slice.
     */
    private long room(long[][][] axes, int r, int which) {
      int t = opOutputs[r];
      if (axes[0][t] == null) {
        return rowTiu(r, -1);
      }
      long elements = 1;
      for (int a = 0; a < 4; a++) {
        elements *= axes[a][t][which];
      }
      return rowTiu(r, elements);
    }

    /**
     * The TIU cycles of the op of row {@code r} on a slice of {@code elements} of its output (-1:
     * the whole op), computed as the cost model computes them, so never below them.
     */
    private long rowTiu(int r, long elements) {
      double fraction = elements < 0 ? 1.0 : (double) elements / outElements[r];
      return RooflineCostModel.tiuCycles(opMacs[r], fraction, opRate[r]);
    }

    private boolean producedBy(List<Op> ops, String t) {
      for (Op op : ops) {
        if (op.outputs().contains(t)) {
          return true;
        }
      }
      return false;
    }

    private long gdmaLess1(long bytes) {
      return Math.max(0, model.gdmaCycles(bytes, chip) - 1);
    }

    /**
     * Iteration 0's loads of the weights the first op does not read, against the TIU work beside
     * them: {@code max_k Σ_(j <= k) (g_j - σ_j)} with {@code g} their {@code gdma(b) - 1} and
     * {@code σ} the iteration-0 TIU cycles of the rows before the last, both from the largest
     * ({@link GroupingBound#bestPrefix}).
     */
    private long weightExcess(long[][][] axes) {
      int rows = opOutputs.length - 1;
      long[] beside = new long[rows];
      for (int r = 0; r < rows; r++) {
        beside[r] = room(axes, r, 2);
      }
      java.util.Arrays.sort(beside);
      for (int i = 0, j = rows - 1; i < j; i++, j--) {
        long x = beside[i];
        beside[i] = beside[j];
        beside[j] = x;
      }
      return GroupingBound.bestPrefix(laterWeights, beside, 0);
    }

    /** {@code Σ_it} of tensor {@code t}'s slice elements. */
    private double elements(long[][][] axes, long[] counts, int t) {
      double e = 1;
      Tensor tensor = null;
      for (int a = 0; a < 4; a++) {
        long[] s = axes[a][t];
        if (s == null) {
          if (tensor == null) {
            tensor = graph.tensor(tensors.get(t));
          }
          return tensor.shape().elements() * loops(counts);
        }
        e *= s[0] == 1 ? counts[a] * (double) s[1] : s[1];
      }
      return e;
    }

    /** Bytes of tensor {@code t}'s first ({@code which == 2}) or last ({@code 3}) slice. */
    private long edgeBytes(long[][][] axes, int t, int which) {
      Tensor tensor = graph.tensor(tensors.get(t));
      long e = 1;
      for (int a = 0; a < 4; a++) {
        long[] s = axes[a][t];
        if (s == null) {
          return tensor.bytes();
        }
        e *= s[which];
      }
      return tensor.dtype().bytes(e);
    }
  }

  /**
   * The LMEM rows of today's table ({@code Timesteps2026}: one op per row) and what every such
   * table keeps alive in each, whatever the moves: a lower bound on the bytes live per row, as
   * section 5 of {@link GroupingBound} argues it, with the buffers sized at the slicing's largest
   * slice per axis ({@code V0Timesteps#bytes}), exactly as the table sizes them.
   *
   * <ul>
   *   <li>an op's results from its row to their last reader in the group;
   *   <li>a loaded value (activation or weight, one buffer per value) first read by op {@code q}
   *       and last by {@code r}: rows {@code q - 1} (loads lie in a row before their reader's) to
   *       {@code r}; read by the first op, also the last op's row (the pipeline folds stage-0 loads
   *       there, or the last op reads it);
   *   <li>the last op's group outputs also in the first op's row (the stage-2 store, folded);
   *   <li>each op's scratch in its row; an in-place op's operand 0 and result 0 once.
   * </ul>
   *
   * A slicing whose bytes in some row exceed the lane's LMEM has no valid group: every valid
   * group's LMEM placement keeps the buffers live in a row apart, in-place pairs aside.
   */
  private final class Rows {
    final List<String> tensors;
    final int rows;
    final long capacity;
    final long[] fixed; // weights per row
    final int[] buffer; // tensor index of each activation buffer
    final int[] from;
    final int[] to;
    final int[] extra; // a further row, or -1
    final Op[] scratchOp;
    final int[] scratchIn;
    final int[] scratchOut;
    final int[] inPlaceIn;
    final int[] inPlaceOut;

    Rows(List<Op> ops, GroupBoundary io, List<String> tensors, Map<String, Integer> index) {
      this.tensors = tensors;
      int k = ops.size();
      rows = k;
      capacity = chip.lmemBytesPerLane();
      fixed = new long[k];
      Map<String, int[]> reads = new java.util.LinkedHashMap<>(); // first and last reader
      Map<String, Integer> produced = new HashMap<>();
      for (int p = 0; p < k; p++) {
        Op op = ops.get(p);
        for (String t : op.inputs()) {
          if (!t.isEmpty()) {
            int at = p;
            reads.computeIfAbsent(t, x -> new int[] {at, at})[1] = p;
          }
        }
        for (String t : op.outputs()) {
          produced.putIfAbsent(t, p);
        }
      }
      Set<String> outs = new java.util.HashSet<>(io.outputs());
      List<int[]> acts = new ArrayList<>();
      for (String t : tensors) {
        if (!index.containsKey(t)) {
          continue;
        }
        Integer p = produced.get(t);
        int[] rd = reads.get(t);
        if (p != null) {
          int end = rd == null ? p : Math.max(p, rd[1]);
          boolean lastOut = p == k - 1 && outs.contains(t);
          acts.add(new int[] {index.get(t), p, end, lastOut && k > 1 ? 0 : -1});
        } else if (rd != null) {
          acts.add(
              new int[] {index.get(t), Math.max(rd[0] - 1, 0), rd[1], rd[0] == 0 ? k - 1 : -1});
        }
      }
      buffer = acts.stream().mapToInt(x -> x[0]).toArray();
      from = acts.stream().mapToInt(x -> x[1]).toArray();
      to = acts.stream().mapToInt(x -> x[2]).toArray();
      extra = acts.stream().mapToInt(x -> x[3]).toArray();
      for (Map.Entry<String, int[]> e : reads.entrySet()) {
        String t = e.getKey();
        if (GroupBoundary.isActivation(graph, t)) {
          continue;
        }
        int q = e.getValue()[0];
        long b = OpSemantics.weightLmemBytes(graph, ops.get(q), t, chip);
        for (int r = Math.max(q - 1, 0); r <= e.getValue()[1]; r++) {
          fixed[r] += b;
        }
        if (q == 0 && e.getValue()[1] < k - 1) {
          fixed[k - 1] += b;
        }
      }
      scratchOp = ops.toArray(new Op[0]);
      scratchIn = new int[k];
      scratchOut = new int[k];
      inPlaceIn = new int[k];
      inPlaceOut = new int[k];
      for (int p = 0; p < k; p++) {
        Op op = ops.get(p);
        String in0 = op.inputs().isEmpty() ? "" : op.inputs().get(0);
        String out0 = op.outputs().get(0);
        scratchIn[p] = index.getOrDefault(in0, -1);
        scratchOut[p] = index.get(out0);
        boolean pair =
            !in0.equals(out0)
                && index.containsKey(in0)
                && GroupBoundary.isActivation(graph, in0)
                && InPlaceOps.isInPlaceOp(graph, op, chip);
        inPlaceIn[p] = pair ? index.get(in0) : -1;
        inPlaceOut[p] = pair ? index.get(out0) : -1;
      }
    }

    /** Whether every row's bytes fit the lane at per-axis summaries {@code axes}. */
    boolean fits(long[][][] axes) {
      for (long bytes : live(axes)) {
        if (bytes > capacity) {
          return false;
        }
      }
      return true;
    }

    /** The bytes every table keeps alive in each row at per-axis summaries {@code axes}. */
    long[] live(long[][][] axes) {
      long[] size = sizes(axes);
      long[] diff = new long[rows + 1];
      long[] row = fixed.clone();
      for (int b = 0; b < buffer.length; b++) {
        long bytes = bytes(axes, buffer[b], size);
        diff[from[b]] += bytes;
        diff[to[b] + 1] -= bytes;
        if (extra[b] >= 0 && (extra[b] < from[b] || extra[b] > to[b])) {
          row[extra[b]] += bytes;
        }
      }
      long running = 0;
      for (int r = 0; r < rows; r++) {
        running += diff[r];
        row[r] += running;
        Op op = scratchOp[r];
        row[r] +=
            OpSemantics.scratchBytes(
                graph,
                op,
                chip,
                scratchIn[r] < 0
                    ? Nchw.of(graph.tensor(op.inputs().get(0)).shape())
                    : largest(axes, scratchIn[r]),
                largest(axes, scratchOut[r]));
        if (inPlaceIn[r] >= 0) {
          row[r] -= Math.min(bytes(axes, inPlaceIn[r], size), bytes(axes, inPlaceOut[r], size));
        }
      }
      return row;
    }

    /** A cache of per-tensor LMEM bytes for {@link #bytes}. */
    long[] sizes(long[][][] axes) {
      long[] size = new long[tensors.size()];
      java.util.Arrays.fill(size, -1);
      return size;
    }

    long bytes(long[][][] axes, int t, long[] size) {
      if (size[t] < 0) {
        size[t] =
            OpSemantics.lmemBytes(
                chip, largest(axes, t), graph.tensor(tensors.get(t)).dtype(), true);
      }
      return size[t];
    }

    /** The largest slice of tensor {@code t} per axis ({@code V0Timesteps#maxSlice}). */
    private Nchw largest(long[][][] axes, int t) {
      if (axes[0][t] == null) {
        return Nchw.of(graph.tensor(tensors.get(t)).shape());
      }
      return new Nchw(axes[0][t][4], axes[1][t][4], axes[2][t][4], axes[3][t][4]);
    }
  }

  private static double loops(long[] counts) {
    double l = 1;
    for (long c : counts) {
      l *= c;
    }
    return l;
  }
}
