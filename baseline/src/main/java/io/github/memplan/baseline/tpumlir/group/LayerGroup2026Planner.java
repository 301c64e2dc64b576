package io.github.memplan.baseline.tpumlir.group;

import io.github.memplan.core.group.CostModel;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupBoundary;
import io.github.memplan.core.group.GroupCost;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingOutcomes;
import io.github.memplan.core.group.Pieces;
import io.github.memplan.core.group.SliceRules;
import io.github.memplan.core.group.Timesteps2026;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Tensor;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * TPU-MLIR's LayerGroup search as of the pinned version, upstream {@code sophgo/tpu-mlir} at commit
 * 36e3c625a of 2026-04-29 ({@code GroupMethod.cpp}; {@code reference/tpu-mlir.md} §2.3-2.6; the
 * class was {@code LayerGroupTodayPlanner}, a name that would go stale): base groups cut at every
 * op that cannot join a group, then per base group either
 *
 * <ul>
 *   <li>{@link Mode#GREEDY}, {@code opt=1} ({@code simple_layer_group}): from the tail, the longest
 *       valid group {@code [start..end]} with the smallest {@code start}; a lone op stays global;
 *   <li>{@link Mode#DP}, {@code opt=2} ({@code dynamic_programming_layer_group_with_cluster}):
 *       first structure detection (below, on unless {@code pieces} leaves it out); when it finds no
 *       structure, clusters ({@code max_cluster = max(L / 50, 1)}; with more than one op per
 *       cluster the same interval DP over windows of at most {@code max_cluster} ops gives them),
 *       then the interval DP {@code cost[i][j] = min(single[i][j], min_k cost[i][k] +
 *       cost[k+1][j])} over clusters, a strictly smaller split winning, and the recursive expansion
 *       of the cuts ({@code dynamic_programming_with_cluster}).
 * </ul>
 *
 * <p><b>Structure detection</b> ({@code dynamic_programming_with_structure_detect}, with the op and
 * group hashes of {@code LgCache}; {@code sophgo/tpu-mlir} at commit bae1bdfd3e, {@code
 * GroupMethod.cpp} and {@code include/.../LayerGroup/LgCache.h}; on by default, {@code LgConfig}'s
 * {@code structure_detect_opt}), per base group of {@code L} ops:
 *
 * <ol>
 *   <li>Every op of the whole order has a signature: kind, operand and result shapes and types,
 *       attributes ({@code get_op_hash}). Over the counts of the signatures, ascending, skipping
 *       counts of 2 or less, the first signature whose first two occurrences are {@code size >= 10}
 *       ops apart ({@code MIN_STRUCTURE_SIZE}) and with {@code size · (count - 2) <= L} is the
 *       anchor, and {@code size} the structure size; none: no structure.
 *   <li>The first start {@code i} in the base group where the windows {@code [i, i+size)}, {@code
 *       [i+size, i+2·size)} and {@code [i+2·size, i+3·size)} have equal group signatures ({@code
 *       get_graph_hash}: the inputs' and outputs' shapes and types, each op's signature and where
 *       its operands come from: group input, group output or op result by position, else -1); none:
 *       no structure.
 *   <li>The DP with clusters over the two structures {@code [i, i+2·size)} ({@code max_cluster =
 *       max(2·size / 50, 1)}).
 *   <li>If it cuts them into more than two ranges, the middle ones (first and last dropped, they
 *       may be incomplete) are the patterns: for each pattern length, longest first, the base group
 *       is scanned from its start and every window with a pattern's group signature whose first and
 *       last op are not yet covered becomes a cluster (the scan then jumps past it). Between
 *       clusters, and before the first, the plain DP (clusters of one op) cuts the gap; after the
 *       last cluster it cuts the tail only when the last cluster has no gap before it (the source
 *       tests the two cases with {@code else if}), otherwise the tail's ops join no group. Else,
 *       the DP with clusters of at most {@code size} ops over the whole base group.
 * </ol>
 *
 * So repeated blocks are grouped once, on two copies, and the grouping is reused by signature.
 *
 * <p>A candidate group is checked as {@code is_layer_group_valid} does (§2.5): the shape-secs quick
 * search ({@link ShapeSecsSearch}) with today's slicing ({@link SliceRules#TODAY}: the h/2 rule
 * off, as today's TPU-MLIR has {@code check_hsecs} commented out, unless {@link
 * GroupOptions#h2Rule()} forces it on; each group typed NORMAL, MM or SMALL_C by {@code
 * set_group_type}, {@link io.github.memplan.core.group.GroupType}) and today's timesteps ({@link
 * Timesteps2026}); its cost is the {@link CostModel}'s cycles (or DDR bytes when the problem's
 * objective says so) under the first valid secs, and a single op costs its global-layer cost.
 * Evaluations are memoised per op range (the role of LgCache), so the DP evaluates each range once.
 *
 * <p><b>Pieces</b> ({@link Pieces}, the parameter {@code pieces}, every piece by default): each
 * piece of today's LayerGroup can be switched off to measure what it changes: the group types, the
 * hull of H/W margins and the Reshape local rule (in the grouping's {@link SliceRules}, so the base
 * groups and the validator follow them), {@code update_data_split} (in {@link ShapeSecsSearch}),
 * structure detection, and the pipeline, rebalancing, holds and in-place pairs of the timestep
 * table (the {@link Timesteps2026} variant the grouping names). The greedy has no structure
 * detection.
 *
 * <p>Departures: strategy 1's re-evaluation with wider secs search is not done (strategy 0, the
 * default); GROUP_3D and the 3-D special case of base groups are not modelled; the cost model is
 * the roofline surrogate, not the backend's dry run. When the budget runs out, ranges not yet
 * evaluated count as invalid, so the grouping stays valid with more ops global. Structure
 * detection: signatures are compared as strings, not as 64-bit {@code xxh3} hashes (no collisions);
 * among signatures of the same count the source visits them in the order of their hash values, here
 * in the order of their first occurrence; group signatures leave out the group type, which follows
 * from the ops (GROUP_NORMAL here); a pattern window that turns out not to be a valid group (the
 * source takes equal hashes for equal groups; here two windows of equal signature can still differ
 * in whether an input is a graph input, which matters for H/W margins, or in a result nobody reads,
 * and the budget may run out) leaves its ops global, counted in {@code dropped-ranges}.
 */
public final class LayerGroup2026Planner implements Planner<GroupProblem, Grouping> {
  /** {@code MAX_GROUP_CLUSTER}. */
  static final int MAX_GROUP_CLUSTER = 50;

  /** The cost of an invalid group ({@code MAX_COST}), far from overflow when two are added. */
  static final long MAX_COST = Long.MAX_VALUE / 4;

  /** {@code MIN_STRUCTURE_SIZE} of structure detection. */
  static final int MIN_STRUCTURE_SIZE = 10;

  /** {@code MIN_REPEATED_TIMES} of structure detection. */
  static final int MIN_REPEATED_TIMES = 3;

  /** Search mode. */
  public enum Mode {
    GREEDY,
    DP
  }

  private final Mode mode;
  private final Planner<LmemInstance, LmemSolution> lmem;
  private final String lmemId;
  private final CostModel costModel;
  private final Pieces pieces;

  /** The planner with every piece of today's LayerGroup, as TPU-MLIR. */
  public LayerGroup2026Planner(
      Mode mode, Planner<LmemInstance, LmemSolution> lmem, String lmemId, CostModel costModel) {
    this(mode, lmem, lmemId, costModel, Pieces.ALL);
  }

  /**
   * @param pieces the pieces of today's LayerGroup in use ({@link Pieces}; the greedy ignores
   *     {@link Pieces.Piece#STRUCTURE_DETECT})
   */
  public LayerGroup2026Planner(
      Mode mode,
      Planner<LmemInstance, LmemSolution> lmem,
      String lmemId,
      CostModel costModel,
      Pieces pieces) {
    this.mode = mode;
    this.lmem = lmem;
    this.lmemId = lmemId;
    this.costModel = costModel;
    this.pieces = pieces;
  }

  private String id() {
    return mode == Mode.GREEDY ? "tpumlir-greedy" : "tpumlir-dp";
  }

  /** One solve's state: the problem and the memo of evaluated ranges. */
  private final class Run {
    final GroupProblem p;
    final SolveContext ctx;
    final SliceRules rules;
    final ShapeSecsSearch search;
    final Map<Long, Optional<ShapeSecsSearch.Found>> memo = new HashMap<>();
    final long[] tries = {0};
    boolean outOfBudget;

    /** Base groups cut by structure detection. */
    int structured;

    /** Ops that structure detection left in no range behind the last pattern cluster. */
    int structureTail;

    /** Chosen ranges that turned out invalid (pattern windows; only under a spent budget). */
    int dropped;

    /** {@code get_op_hash} of each op of the order, lazily. */
    private String[] opSignatures;

    /** {@code LgCache::hash_counts_map}: count to signatures, in first-occurrence order. */
    private TreeMap<Integer, List<String>> byCount;

    /** {@code LgCache::hash_op_map}: signature to its positions in the order. */
    private Map<String, List<Integer>> positions;

    /** Group signatures of ranges, memoised. */
    private final Map<Long, String> windows = new HashMap<>();

    Run(GroupProblem p, SolveContext ctx) {
      this.p = p;
      this.ctx = ctx;
      this.rules = pieces.rules(p.options().rules(SliceRules.TODAY));
      this.search =
          new ShapeSecsSearch(
              lmem,
              lmemId,
              costModel,
              pieces.timesteps(),
              pieces.has(Pieces.Piece.UPDATE_DATA_SPLIT));
    }

    /** The group {@code first..last} of the order, memoised; empty when invalid. */
    Optional<ShapeSecsSearch.Found> group(int first, int last) {
      long key = (long) first * p.order().size() + last;
      Optional<ShapeSecsSearch.Found> got = memo.get(key);
      if (got != null) {
        return got;
      }
      if (ctx.budget().exhausted()) {
        outOfBudget = true;
        return Optional.empty(); // not memoised: the budget, not the group, is at fault
      }
      List<Op> ops = p.order().subList(first, last + 1);
      String name = p.graph().name() + "/g" + first + "-" + last;
      Optional<ShapeSecsSearch.Found> f =
          search.search(name, p.graph(), ops, first, last, p.chip(), rules, tries, ctx);
      if (f.isEmpty() && ctx.budget().exhausted()) {
        outOfBudget = true;
        return f;
      }
      memo.put(key, f);
      return f;
    }

    long cost(GroupCost c) {
      return p.options().objective() == GroupOptions.Objective.DDR_BYTES
          ? c.ddrBytes()
          : c.cycles();
    }

    /** {@code LgCache::init}: the signature of every op of the order, counted. */
    private void signatures() {
      if (opSignatures != null) {
        return;
      }
      List<Op> order = p.order();
      opSignatures = new String[order.size()];
      positions = new LinkedHashMap<>();
      for (int i = 0; i < order.size(); i++) {
        opSignatures[i] = opSignature(order.get(i));
        positions.computeIfAbsent(opSignatures[i], k -> new ArrayList<>()).add(i);
      }
      byCount = new TreeMap<>();
      for (Map.Entry<String, List<Integer>> e : positions.entrySet()) {
        byCount.computeIfAbsent(e.getValue().size(), k -> new ArrayList<>()).add(e.getKey());
      }
    }

    /** {@code serialize_op}: kind, operand and result shapes and types, attributes. */
    private String opSignature(Op op) {
      StringBuilder sb = new StringBuilder(op.kind().onnxName()).append(":\tInputs: ");
      for (String t : op.inputs()) {
        value(sb, t);
      }
      sb.append("\tOutputs: ");
      for (String t : op.outputs()) {
        value(sb, t);
      }
      return sb.append("\tAttrs: ").append(op.attributes()).toString();
    }

    /** {@code serialize_value}: shape and type, or {@code None}. */
    private void value(StringBuilder sb, String tensor) {
      if (tensor.isEmpty()) {
        sb.append("None; ");
        return;
      }
      Tensor t = p.graph().tensor(tensor);
      for (long d : t.shape().dims()) {
        sb.append(d).append('x');
      }
      sb.append(t.dtype()).append("; ");
    }

    /**
     * {@code get_graph_hash(lg_info, key, true)} of the range {@code first..last}: the group's
     * inputs (activations read, not defined in it, in first-use order; weights left out as {@code
     * update_group_io} does for opt=2) and outputs (results with a reader outside it or a graph
     * output) by shape and type, then each op's signature and the relative ids of its operands
     * (inputs, then outputs, then the other results in op order; -1 for weights and absent ones).
     */
    String window(int first, int last) {
      signatures();
      long key = (long) first * p.order().size() + last;
      String got = windows.get(key);
      if (got != null) {
        return got;
      }
      Graph g = p.graph();
      List<Op> ops = p.order().subList(first, last + 1);
      Set<String> inGroup = new HashSet<>();
      Set<String> defined = new HashSet<>();
      for (Op op : ops) {
        inGroup.add(op.name());
        defined.addAll(op.outputs());
      }
      Set<String> graphOuts = new HashSet<>(g.outputs());
      List<String> ins = new ArrayList<>();
      List<String> outs = new ArrayList<>();
      for (Op op : ops) {
        for (String t : op.inputs()) {
          if (GroupBoundary.isActivation(g, t) && !defined.contains(t) && !ins.contains(t)) {
            ins.add(t);
          }
        }
        for (String t : op.outputs()) {
          boolean out = graphOuts.contains(t);
          for (Op u : g.consumers(t)) {
            out |= !inGroup.contains(u.name());
          }
          if (out && !outs.contains(t)) {
            outs.add(t);
          }
        }
      }
      Map<String, Integer> id = new HashMap<>();
      ins.forEach(t -> id.putIfAbsent(t, id.size()));
      outs.forEach(t -> id.putIfAbsent(t, id.size()));
      ops.forEach(op -> op.outputs().forEach(t -> id.putIfAbsent(t, id.size())));
      StringBuilder sb = new StringBuilder("group_ins:");
      ins.forEach(t -> value(sb, t));
      sb.append("\ngroup_outs:");
      outs.forEach(t -> value(sb, t));
      sb.append("\ngroup_ops[").append(ops.size()).append("]: ");
      for (int i = first; i <= last; i++) {
        sb.append("op: ").append(opSignatures[i]).append("; operand_relative_ids:");
        for (String t : p.order().get(i).inputs()) {
          sb.append(id.getOrDefault(t, -1)).append(' ');
        }
        sb.append("; ");
      }
      String h = sb.toString();
      windows.put(key, h);
      return h;
    }

    /** Cost of the range {@code first..last}: global cost for one op, MAX_COST when invalid. */
    long rangeCost(int first, int last) {
      if (first == last) {
        return cost(costModel.globalOp(p.graph(), p.order().get(first), p.chip()));
      }
      return group(first, last).map(f -> cost(f.cost())).orElse(MAX_COST);
    }
  }

  @Override
  public Outcome<Grouping> solve(GroupProblem p, SolveContext ctx) {
    Run run = new Run(p, ctx);
    List<int[]> ranges = new ArrayList<>(); // chosen ranges of two ops or more
    for (int[] base : p.baseGroups(run.rules)) {
      if (mode == Mode.GREEDY) {
        greedy(run, base[0], base[1], ranges);
      } else {
        dp(run, base[0], base[1], ranges, pieces.has(Pieces.Piece.STRUCTURE_DETECT));
      }
    }
    ranges.sort(java.util.Comparator.comparingInt(r -> r[0]));
    List<Group> groups = new ArrayList<>();
    for (int[] r : ranges) {
      Optional<ShapeSecsSearch.Found> f = run.group(r[0], r[1]);
      if (f.isPresent()) {
        groups.add(f.get().group());
      } else {
        run.dropped++;
      }
    }
    Grouping grouping =
        new Grouping(Grouping.names(p.order()), run.rules, run.search.method().id(), groups);
    Map<String, Number> stats = new TreeMap<>();
    stats.put("evaluations", run.memo.size());
    stats.put("tries", run.tries[0]);
    if (mode == Mode.DP) {
      stats.put("structure-base-groups", run.structured);
      stats.put("structure-tail-ops", run.structureTail);
      stats.put("dropped-ranges", run.dropped);
    }
    return GroupingOutcomes.validated(
        id(),
        p,
        grouping,
        stats,
        run.outOfBudget ? "budget ran out; ranges not evaluated counted as invalid" : null);
  }

  /** {@code simple_layer_group} over the base group {@code s..e}. */
  private static void greedy(Run run, int s, int e, List<int[]> ranges) {
    int end = e;
    while (end > s) {
      int start = s;
      while (start < end) {
        if (run.group(start, end).isPresent()) {
          ranges.add(new int[] {start, end});
          end = start - 1;
          break;
        }
        start++;
      }
      if (start == end) {
        end--;
      }
    }
  }

  /** Structure detection, else the interval DP with clusters, over the base group {@code s..e}. */
  private static void dp(Run run, int s, int e, List<int[]> ranges, boolean structureDetect) {
    int len = e - s + 1;
    if (len < 2) {
      return;
    }
    List<int[]> cut = structureDetect ? structured(run, s, e) : null;
    if (cut == null) {
      cut = dpWithCluster(run, s, e, Math.max(len / MAX_GROUP_CLUSTER, 1));
    }
    for (int[] r : cut) {
      if (r[1] > r[0]) {
        ranges.add(r);
      }
    }
  }

  /**
   * {@code dynamic_programming_with_cluster} over {@code s..e}: clusters of at most {@code
   * maxCluster} ops by the interval DP ({@code get_group_clusters_with_dynamic_programming}; one op
   * each when it is 1), then the interval DP over the clusters; the ranges of the cut, single ops
   * included.
   */
  private static List<int[]> dpWithCluster(Run run, int s, int e, int maxCluster) {
    List<int[]> ops = new ArrayList<>();
    for (int i = s; i <= e; i++) {
      ops.add(new int[] {i, i});
    }
    List<int[]> clusters = maxCluster == 1 ? ops : intervalDp(run, ops, maxCluster);
    return intervalDp(run, clusters, clusters.size());
  }

  /**
   * {@code dynamic_programming_with_structure_detect} over the base group {@code s..e} (class
   * comment): the ranges of its cut (ops behind the last pattern cluster may be in none), or null
   * when no structure is found.
   */
  private static List<int[]> structured(Run run, int s, int e) {
    run.signatures();
    int n = e - s + 1;
    int size = -1;
    anchor:
    for (Map.Entry<Integer, List<String>> c : run.byCount.entrySet()) {
      int cnt = c.getKey();
      if (cnt <= 2) {
        continue;
      }
      for (String sig : c.getValue()) {
        List<Integer> at = run.positions.get(sig);
        int sz = at.get(1) - at.get(0);
        if (sz < MIN_STRUCTURE_SIZE || (long) sz * (cnt - 2) > n) {
          continue;
        }
        size = sz;
        break anchor;
      }
    }
    if (size < 0) {
      return null;
    }
    int first = -1;
    for (int i = 0; i <= n && first < 0; i++) {
      boolean match = true;
      String h0 = null;
      for (int t = 0; t < MIN_REPEATED_TIMES && match; t++) {
        int a = i + t * size;
        int b = a + size - 1;
        if (b >= n) {
          match = false;
        } else if (t == 0) {
          h0 = run.window(s + a, s + b);
        } else {
          match = h0.equals(run.window(s + a, s + b));
        }
      }
      if (match) {
        first = i;
      }
    }
    if (first < 0) {
      return null;
    }
    run.structured++;
    List<int[]> two =
        dpWithCluster(
            run, s + first, s + first + 2 * size - 1, Math.max(2 * size / MAX_GROUP_CLUSTER, 1));
    if (two.size() <= 2) {
      return dpWithCluster(run, s, e, size);
    }
    Set<String> patterns = new HashSet<>();
    TreeSet<Integer> lengths = new TreeSet<>(java.util.Comparator.reverseOrder());
    for (int k = 1; k + 1 < two.size(); k++) {
      int[] r = two.get(k);
      patterns.add(run.window(r[0], r[1]));
      lengths.add(r[1] - r[0] + 1);
    }
    boolean[] covered = new boolean[n];
    List<int[]> clusters = new ArrayList<>(); // positions in the base group
    for (int len : lengths) {
      for (int i = 0; i + len - 1 < n; ) {
        if (!covered[i]
            && !covered[i + len - 1]
            && patterns.contains(run.window(s + i, s + i + len - 1))) {
          clusters.add(new int[] {i, i + len - 1});
          java.util.Arrays.fill(covered, i, i + len, true);
          i += len;
        } else {
          i++;
        }
      }
    }
    clusters.sort(java.util.Comparator.comparingInt(c -> c[0]));
    List<Integer> ends = new ArrayList<>();
    int start = 0;
    for (int k = 0; k < clusters.size(); k++) {
      int cs = clusters.get(k)[0];
      int ce = clusters.get(k)[1];
      ends.add(ce);
      int g0 = -1;
      int g1 = -1;
      if (cs > start) {
        g0 = start;
        g1 = cs - 1;
      } else if (k == clusters.size() - 1 && ce < n - 1) {
        g0 = ce + 1;
        g1 = n - 1;
      }
      start = ce + 1;
      if (g0 >= 0) {
        for (int[] r : dpWithCluster(run, s + g0, s + g1, 1)) {
          ends.add(r[1] - s);
        }
      }
    }
    ends.sort(null);
    List<int[]> cut = new ArrayList<>();
    int from = 0;
    for (int end : ends) {
      cut.add(new int[] {s + from, s + end});
      from = end + 1;
    }
    run.structureTail += n - from;
    return cut;
  }

  /**
   * The interval DP over {@code units} (contiguous op ranges), groups of at most {@code window}
   * units; returns the op ranges of the optimal cut.
   */
  static List<int[]> intervalDp(Run run, List<int[]> units, int window) {
    int k = units.size();
    long[][] cost = new long[k][k];
    int[][] cut = new int[k][k];
    for (int i = 0; i < k; i++) {
      cost[i][i] = run.rangeCost(units.get(i)[0], units.get(i)[1]);
      cut[i][i] = i;
    }
    for (int len = 2; len <= k; len++) {
      for (int i = 0; i + len - 1 < k; i++) {
        int j = i + len - 1;
        cost[i][j] = len <= window ? run.rangeCost(units.get(i)[0], units.get(j)[1]) : MAX_COST;
        cut[i][j] = j;
        for (int m = i; m < j; m++) {
          long sum = Math.min(MAX_COST, cost[i][m] + cost[m + 1][j]);
          if (sum < cost[i][j]) {
            cost[i][j] = sum;
            cut[i][j] = m;
          }
        }
      }
    }
    List<int[]> out = new ArrayList<>();
    expand(units, cut, 0, k - 1, out);
    return out;
  }

  private static void expand(List<int[]> units, int[][] cut, int i, int j, List<int[]> out) {
    if (cut[i][j] == j) {
      out.add(new int[] {units.get(i)[0], units.get(j)[1]});
      return;
    }
    expand(units, cut, i, cut[i][j], out);
    expand(units, cut, cut[i][j] + 1, j, out);
  }
}
