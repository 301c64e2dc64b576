package io.github.memplan.solvers.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.group.CostModel;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupBoundary;
import io.github.memplan.core.group.GroupCandidate;
import io.github.memplan.core.group.GroupCost;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.GroupTimesteps;
import io.github.memplan.core.group.GroupType;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.group.ShapeSecs;
import io.github.memplan.core.group.ShapeSecsBounds;
import io.github.memplan.core.group.SliceInfo;
import io.github.memplan.core.group.SliceResult;
import io.github.memplan.core.group.SliceRules;
import io.github.memplan.core.group.Slicing;
import io.github.memplan.core.group.TimestepMethod;
import io.github.memplan.core.group.Timesteps2026;
import io.github.memplan.core.group.TransferMove;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemLowerBounds;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.Timestep;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.solvers.group.dp.GroupDpBestPlanner;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The best valid group of an op range: what {@code is_layer_group_valid} answers in TPU-MLIR
 * ({@code reference/tpu-mlir.md} §2.5), except that the shape secs kept are the <b>cheapest</b>
 * valid ones under the cost model, not the first valid ones that the quick search meets (§2.6, the
 * weakness §6.3 names). Shared by the group searches of this package; one instance per solve
 * (thread-confined: it keeps the memo and counters of that solve).
 *
 * <p>For the ops {@code first..last} of the problem's order:
 *
 * <ol>
 *   <li>the range is invalid when {@code init_group_data_secs} fails ({@link
 *       ShapeSecsBounds#initialSecs}: one op does not fit LMEM even at the maximum split), as in
 *       TPU-MLIR;
 *   <li>every secs of the {@link SecsSpace} (within {@link ShapeSecsBounds#maxSecs}, at most {@code
 *       maxIterations} loops) is sliced with today's rules ({@link SliceRules#TODAY}, the h/2 rule
 *       as the problem says) and gets today's timestep table ({@link Timesteps2026}): exactly what
 *       {@code tpumlir-dp} builds for the secs it tries; a secs whose slicing fails is dropped;
 *       when it failed already for {@code i..last} with {@code i >= first}, it is dropped without
 *       slicing (see below);
 *   <li>with a cutoff ({@link #bestBelow}), a sliced candidate whose {@link RooflineBounds#sliced}
 *       bound reaches the cutoff is dropped before its table is built;
 *   <li>each is costed with the {@link CostModel} (the cost needs no LMEM address); with a cutoff
 *       ({@link #bestBelow}) those costing the cutoff or more are dropped;
 *   <li>a candidate whose {@link LmemLowerBounds#maxLive} exceeds the LMEM capacity gets instead
 *       the cheaper of the table of {@link TransferSearch#fit} (each buffer's shortest life) and
 *       the exact assignment of {@link TransferSearch#exact} (CP-SAT, asked for a table below the
 *       cutoff and the fitted one's cycles, within a deterministic budget per table and per solve):
 *       transfer moves inside the costing, as opt=3 chooses timesteps under an LMEM bound per
 *       timestep; costed with its moves, memoised per range and secs; it is dropped without asking
 *       the oracle only when even each buffer's shortest life does not fit (no placement can
 *       exist);
 *   <li>the rest are sorted by (objective, loops, nsecs, hsecs, wsecs);
 *   <li>the {@link LmemOracle} places them in that order; the first placement it finds (validated
 *       by {@code LmemValidator}) makes the group: the cheapest valid secs of the space ({@link
 *       #tentativeBelow} stops before this step and {@link #confirm} takes it later, for the ranges
 *       a search chose; see there). The oracle sees each instance with positional names ({@link
 *       #canonical}), and its answers are memoised per such instance, so repeated blocks cost one
 *       call.
 * </ol>
 *
 * Results are memoised per range (invalid ones too) and per {@link RangeStructure}: a range shaped
 * like one evaluated before (a repeated block) reuses its best secs (only that candidate is built,
 * costed and placed again) or its "none below the cutoff". When the budget runs out a range is
 * answered empty and not memoised, and {@link #outOfBudget()} turns true.
 *
 * <p><b>Inherited slicing failures.</b> If backward slicing ({@link
 * io.github.memplan.core.group.Slicing}) of {@code i..j} fails under some secs, so does that of
 * {@code i'..j} for every {@code i' < i} under the same secs: the ops before {@code i} come first
 * in the topological order, so they use no tensor defined in {@code i..j}; every op of {@code i..j}
 * therefore has the same in-group users and group outputs in both ranges, and the backward walk,
 * which visits {@code j} down to {@code i} before any op before {@code i}, meets the same slices
 * and the same failure, unless it fails earlier (an extra group output, or an extra in-group user
 * refusing H/W margins). The evaluator records, per (last op, secs), the largest first op whose
 * slicing failed, and drops those secs for every longer range with the same last op.
 *
 * <p>{@link #lowerBound(int, int)} is a lower bound on the objective of any group of the range at
 * any secs, used by the DP to skip ranges (see {@link GroupDpBestPlanner}).
 */
public final class GroupEvaluator {
  /** The cost of an invalid range ({@code MAX_COST}), far from overflow when two are added. */
  public static final long MAX_COST = Long.MAX_VALUE / 4;

  /** Default cap on the loops ({@code nsecs · hsecs · wsecs}) of a candidate secs. */
  public static final int DEFAULT_MAX_ITERATIONS = 256;

  /**
   * CP-SAT's deterministic time for the exact transfer assignments of one solve, and of one table
   * ({@link TransferSearch.AssignmentBudget}; one unit is roughly two seconds on this project's
   * 2-core reference machine).
   */
  static final double ASSIGNMENT_DETERMINISTIC_TIME = 8.0;

  static final double ASSIGNMENT_DETERMINISTIC_TIME_PER_TABLE = 0.2;

  /** A valid group with its cost and objective value. */
  public record Evaluated(Group group, GroupCost cost, long objective) {}

  /** A memoised answer: the best group, or none with objective below {@code noneBelow}. */
  private record Memo(Optional<Evaluated> best, long noneBelow) {}

  /** A memoised answer per {@link RangeStructure}: the best secs, or none below a cutoff. */
  private record StructureMemo(Optional<ShapeSecs> secs, long noneBelow) {}

  /**
   * A secs of the ranges ending at {@code last} of one group type (a slicing failure is inherited
   * only by longer ranges of the same type, whose layout and split rules are the same).
   */
  private record SecsAt(int last, GroupType type, ShapeSecs secs) {}

  /**
   * A range evaluated without placement ({@link #tentativeBelow}): its candidates below {@code
   * noneBelow} that pass the max-live check, cheapest first (never empty).
   */
  private record Pending(List<Ranked> ranked, long noneBelow) {}

  /** A candidate secs of a pending range and its objective. */
  private record Ranked(ShapeSecs secs, long value) {}

  /**
   * The candidates of a range below a cutoff, cheapest first, and {@code validBelow}: the least
   * value or sliced bound of the candidates the cutoff dropped ({@link #MAX_COST} when none was),
   * so they are every candidate below that, not only below the cutoff.
   */
  private record Ranking(List<Candidate> candidates, long validBelow) {}

  /**
   * One built candidate, costed: the timestep method's table, or that table with {@code moves}
   * applied when it did not fit the LMEM ({@link #costed}).
   */
  private record Candidate(
      ShapeSecs secs,
      GroupCandidate.Built built,
      GroupCost cost,
      long value,
      List<TransferMove> moves) {}

  private static final Comparator<Candidate> ORDER =
      Comparator.comparingLong(Candidate::value)
          .thenComparingLong(c -> c.secs().loops())
          .thenComparingInt(c -> c.secs().nsecs())
          .thenComparingInt(c -> c.secs().hsecs())
          .thenComparingInt(c -> c.secs().wsecs());

  private final GroupProblem p;
  private final SolveContext ctx;
  private final LmemOracle oracle;
  private final CostModel costModel;
  private final int maxIterations;
  private final SliceRules rules;
  private final TimestepMethod method = new Timesteps2026();
  private final Map<Long, Memo> memo = new HashMap<>();
  private final Map<Long, Pending> pending = new HashMap<>();

  private final Map<List<Object>, Pending> structurePending = new HashMap<>();
  private final Map<List<Object>, Long> structureNone = new HashMap<>();
  private SolveContext confirmCtx;
  private long confirmations;
  private long confirmFailures;
  private long budgetDropped;
  private final Map<SecsAt, Integer> sliceFailedFrom = new HashMap<>();
  private final Map<List<Object>, StructureMemo> structures = new HashMap<>();
  private long structureHits;
  private final long[] oracleCalls = {0};
  private final Map<LmemInstance, Optional<LmemSolution>> placements = new HashMap<>();
  private long placementHits;
  private long inheritedFailures;
  private long boundSkips;
  private long cutoffSkips;
  private long oracleRejections;
  private final RooflineBounds bounds;
  private long candidates;
  private long sliceFailures;
  private long maxLiveSkips;
  private long fittedTables;
  private final Map<AssignKey, Assignment> assignments = new HashMap<>();
  private long assignedTables;
  private final TransferSearch.AssignmentBudget assignmentBudget =
      new TransferSearch.AssignmentBudget(
          ASSIGNMENT_DETERMINISTIC_TIME, ASSIGNMENT_DETERMINISTIC_TIME_PER_TABLE);
  private long assignedGroups;
  private final java.util.Set<Long> unproven = new java.util.HashSet<>();
  private long deepened;
  private long deepenedBetter;
  private long provenAssignments;
  private long costed;
  private long capTruncated;
  private long bestOverHalfCap;
  private boolean outOfBudget;
  private long movedTransfers;
  private long movedGroups;
  private long moveBackoffs;
  private long movesSaved;

  /**
   * @param maxIterations cap on the loops of a candidate secs (see {@link SecsSpace})
   */
  public GroupEvaluator(
      GroupProblem p, SolveContext ctx, LmemOracle oracle, CostModel costModel, int maxIterations) {
    if (maxIterations < 1) {
      throw new IllegalArgumentException("max-iterations must be >= 1: " + maxIterations);
    }
    this.p = p;
    this.ctx = ctx;
    this.oracle = oracle;
    this.costModel = costModel;
    this.maxIterations = maxIterations;
    this.rules = p.options().rules(SliceRules.TODAY);
    this.bounds =
        costModel instanceof RooflineCostModel roofline
            ? new RooflineBounds(roofline, p, method.id())
            : null;
    this.confirmCtx = ctx;
  }

  /**
   * The context whose budget {@link #confirm} places groups within: usually the whole run's, when
   * this evaluator's own budget keeps some time back for the placements (see {@link
   * Budget#keepingBack}); this evaluator's context until then.
   */
  public void confirmWithin(SolveContext within) {
    this.confirmCtx = within;
  }

  /** The problem. */
  public GroupProblem problem() {
    return p;
  }

  /**
   * The slicing rules of every group ({@link SliceRules#TODAY}, h/2 rule as the problem's options).
   */
  public SliceRules rules() {
    return rules;
  }

  /** Id of the timestep method of every group ({@code today}). */
  public String timestepMethod() {
    return method.id();
  }

  /** {@link GroupProblem#baseGroups()}. */
  public List<int[]> baseGroups() {
    return p.baseGroups();
  }

  /** The objective value of {@code c}: cycles or DDR bytes, as the problem says. */
  public long objective(GroupCost c) {
    return p.options().objective() == GroupOptions.Objective.DDR_BYTES ? c.ddrBytes() : c.cycles();
  }

  /** The objective value of {@code g}, a group of this problem, under the cost model. */
  public long objective(Group g) {
    return objective(
        costModel.group(
            p.graph(),
            p.order().subList(g.first(), g.last() + 1),
            p.chip(),
            g.secs(),
            g.slices(),
            g.timesteps()));
  }

  /**
   * The objective of the range {@code first..last}: the global-op cost for a single op, the best
   * group's for more, {@link #MAX_COST} when invalid (or not evaluated for lack of budget).
   */
  public long rangeCost(int first, int last) {
    if (first == last) {
      return objective(costModel.globalOp(p.graph(), p.order().get(first), p.chip()));
    }
    return best(first, last).map(Evaluated::objective).orElse(MAX_COST);
  }

  /**
   * The best valid group of the ops {@code first..last} (two or more), memoised; empty when the
   * range has no valid secs in the space, or the budget ran out.
   */
  public Optional<Evaluated> best(int first, int last) {
    return bestBelow(first, last, MAX_COST);
  }

  /**
   * The best valid group of the ops {@code first..last} if its objective is below {@code cutoff},
   * else empty. Candidates costing {@code cutoff} or more are never placed, which is what makes a
   * range that cannot beat a known alternative cheap to answer. Memoised: an answer found is exact
   * for every cutoff; "none below {@code cutoff}" is reused for every cutoff up to it.
   */
  public Optional<Evaluated> bestBelow(int first, int last, long cutoff) {
    if (first < 0 || last >= p.order().size() || last <= first) {
      return Optional.empty();
    }
    long key = (long) first * p.order().size() + last;
    Memo got = memo.get(key);
    if (got != null && (got.best().isPresent() || cutoff <= got.noneBelow())) {
      return got.best().filter(e -> e.objective() < cutoff);
    }
    if (ctx.budget().exhausted()) {
      outOfBudget = true;
      return Optional.empty();
    }
    List<Object> shape = RangeStructure.key(p.graph(), p.order().subList(first, last + 1));
    StructureMemo same = structures.get(shape);
    Optional<Evaluated> e = null;
    if (same != null && (same.secs().isPresent() || cutoff <= same.noneBelow())) {
      structureHits++;
      e = same.secs().isEmpty() ? Optional.empty() : rebuild(first, last, same.secs().get());
      e = e == null ? null : e.filter(x -> x.objective() < cutoff);
    }
    if (e == null) {
      e = evaluate(first, last, cutoff);
      if (e.isEmpty() && ctx.budget().exhausted()) {
        outOfBudget = true;
        return e; // the budget, not the range, may be at fault: not memoised
      }
      structures.put(
          shape,
          new StructureMemo(e.map(x -> x.group().secs()), e.isPresent() ? MAX_COST : cutoff));
    }
    memo.put(key, new Memo(e, e.isPresent() ? MAX_COST : cutoff));
    return e;
  }

  /** Whether the range was evaluated already (its answer is memoised). */
  public boolean evaluated(int first, int last) {
    return memo.containsKey((long) first * p.order().size() + last);
  }

  private Optional<Evaluated> evaluate(int first, int last, long cutoff) {
    for (Candidate c : candidates(first, last, cutoff).candidates()) {
      if (ctx.budget().exhausted()) {
        return Optional.empty();
      }
      GroupTimesteps ts = c.built().timesteps();
      Optional<LmemSolution> sol = place(ts.lmem());
      if (sol.isEmpty()) {
        oracleRejections++;
      } else {
        return Optional.of(evaluated(first, last, c, sol.get()));
      }
    }
    return Optional.empty();
  }

  private Evaluated evaluated(int first, int last, Candidate c, LmemSolution sol) {
    if (2L * c.secs().loops() > maxIterations) {
      bestOverHalfCap++;
    }
    return new Evaluated(group(first, last, c, sol), c.cost(), c.value());
  }

  private static Group group(int first, int last, Candidate c, LmemSolution sol) {
    GroupTimesteps ts = c.built().timesteps();
    return new Group(first, last, c.secs(), c.built().slices().slices(), ts, sol, c.moves());
  }

  /**
   * {@code b} (the table of the ops {@code first..last} at {@code secs}) costed; when its live
   * bytes exceed the LMEM in some row, the cheaper of the table {@link TransferSearch#fit} moves
   * its transfers to (loads later and stores earlier: each buffer's shortest life) and the one
   * {@link TransferSearch#exact} assigns (CP-SAT, asked only for a table below {@code cutoff}),
   * costed; null when even the shortest lives do not fit. The assignment is memoised per range and
   * secs, so that ranking a range and confirming it later build the same table ({@code rebuild}:
   * the memoised one whatever the cutoff).
   */
  private Candidate costed(
      int first, int last, ShapeSecs secs, GroupCandidate.Built b, long cutoff, boolean rebuild) {
    costed++;
    List<Op> ops = p.order().subList(first, last + 1);
    LmemInstance inst = b.timesteps().lmem();
    GroupCandidate.Built table = b;
    List<TransferMove> moves = List.of();
    if (LmemLowerBounds.maxLive(inst) > inst.capacity()) {
      if (!(costModel instanceof RooflineCostModel roofline)) {
        return null;
      }
      Optional<TransferSearch.Fitted> fitted =
          TransferSearch.fit(
              p.graph(), p.chip(), ops, secs, b.slices().slices(), b.timesteps(), roofline);
      if (fitted.isEmpty()) {
        return null;
      }
      fittedTables++;
      table = new GroupCandidate.Built(b.slices(), fitted.get().table());
      moves = fitted.get().moves();
      AssignKey key = new AssignKey(first, last, secs);
      Assignment a = assignments.get(key);
      if (a == null || (!rebuild && a.table() == null && cutoff > a.cutoff())) {
        a = assign(ops, secs, b, roofline, fitted.get(), cutoff);
        assignments.put(key, a);
      }
      if (!a.optimal()) {
        unproven.add((long) first * p.order().size() + last);
      }
      if (a.table() != null) {
        table = new GroupCandidate.Built(b.slices(), a.table());
        moves = a.moves();
      }
    }
    GroupCost cost =
        costModel.group(p.graph(), ops, p.chip(), secs, b.slices().slices(), table.timesteps());
    return new Candidate(secs, table, cost, objective(cost), moves);
  }

  /** The range and secs of a memoised {@link Assignment}. */
  private record AssignKey(int first, int last, ShapeSecs secs) {}

  /**
   * The exact assignment of a table, when it is cheaper than the fitted one ({@code table} null
   * when it is not, or none was found below {@code cutoff}).
   */
  private record Assignment(
      List<TransferMove> moves, GroupTimesteps table, long cutoff, boolean optimal) {}

  private Assignment assign(
      List<Op> ops,
      ShapeSecs secs,
      GroupCandidate.Built b,
      RooflineCostModel roofline,
      TransferSearch.Fitted fitted,
      long cutoff) {
    Map<String, SliceInfo> slices = b.slices().slices();
    long fittedCycles =
        roofline.group(p.graph(), ops, p.chip(), secs, slices, fitted.table()).cycles();
    long below = p.options().objective() == GroupOptions.Objective.CYCLES ? cutoff : MAX_COST;
    Optional<TransferSearch.Assigned> exact =
        exactAssignment(
            ops,
            secs,
            b,
            roofline,
            fitted.moves(),
            Math.min(below, fittedCycles),
            assignmentBudget);
    if (exact.isEmpty()
        || roofline.group(p.graph(), ops, p.chip(), secs, slices, exact.get().table()).cycles()
            >= fittedCycles) { // the model's rational GDMA ceiling may round apart by a cycle
      return new Assignment(List.of(), null, cutoff, exact.isPresent() && exact.get().optimal());
    }
    assignedTables++;
    if (exact.get().optimal()) {
      provenAssignments++;
    }
    return new Assignment(exact.get().moves(), exact.get().table(), cutoff, exact.get().optimal());
  }

  /** {@link TransferSearch#exact} of the table {@code b} of {@code ops} at {@code secs}. */
  private Optional<TransferSearch.Assigned> exactAssignment(
      List<Op> ops,
      ShapeSecs secs,
      GroupCandidate.Built b,
      RooflineCostModel roofline,
      List<TransferMove> hint,
      long below,
      TransferSearch.AssignmentBudget budget) {
    return TransferSearch.exact(
        p.graph(),
        p.chip(),
        ops,
        secs,
        b.slices().slices(),
        b.timesteps(),
        roofline,
        hint,
        below,
        ctx,
        budget);
  }

  /**
   * The candidates of {@code first..last} below {@code cutoff} that pass the max-live check,
   * cheapest first (steps 1 to 6 of the class comment); none also when the budget ran out.
   */
  private Ranking candidates(int first, int last, long cutoff) {
    long validBelow = MAX_COST;
    Graph graph = p.graph();
    Chip chip = p.chip();
    List<Op> ops = p.order().subList(first, last + 1);
    GroupType type = rules.groupType(graph, ops, chip);
    ShapeSecs max = ShapeSecsBounds.maxSecs(graph, ops, chip, type);
    if (ShapeSecsBounds.initialSecs(graph, ops, chip, max, type).isEmpty()) {
      return new Ranking(List.of(), MAX_COST);
    }
    SecsSpace space = SecsSpace.of(graph, ops, chip, type, max, maxIterations);
    if (space.truncated()) {
      capTruncated++;
    }
    String name = graph.name() + "/g" + first + "-" + last;
    GroupBoundary io = GroupBoundary.of(graph, ops);
    List<Candidate> cands = new ArrayList<>();
    for (ShapeSecs secs : space.secs()) {
      if (ctx.budget().exhausted()) {
        return new Ranking(List.of(), cutoff);
      }
      candidates++;
      SecsAt at = new SecsAt(last, type, secs);
      Integer failedFrom = sliceFailedFrom.get(at);
      if (failedFrom != null && first <= failedFrom) {
        sliceFailures++;
        inheritedFailures++;
        continue;
      }
      SliceResult sliced = Slicing.slice(graph, ops, chip, secs, rules);
      if (!(sliced instanceof SliceResult.Sliced s)) {
        sliceFailures++;
        sliceFailedFrom.merge(at, first, Math::max);
        continue;
      }
      long bound = cutoff < MAX_COST && bounds != null ? bounds.sliced(ops, io, s.slices()) : 0;
      if (bound >= cutoff) {
        boundSkips++;
        validBelow = Math.min(validBelow, bound);
        continue;
      }
      GroupCandidate.Built b =
          new GroupCandidate.Built(s, method.build(name, graph, ops, chip, secs, s.slices()));
      Candidate c = costed(first, last, secs, b, cutoff, false);
      if (c == null) {
        maxLiveSkips++;
        continue;
      }
      if (c.value() >= cutoff) {
        cutoffSkips++;
        validBelow = Math.min(validBelow, c.value());
        continue;
      }
      cands.add(c);
    }
    cands.sort(ORDER);
    return new Ranking(cands, validBelow);
  }

  /**
   * The objective of the cheapest candidate of {@code first..last} below {@code cutoff} that passes
   * the max-live check, <b>without asking the LMEM oracle</b> unless the range was placed already
   * ({@link #confirm}); empty when there is none, or the budget ran out. No placement can cost less
   * than this, since placing only drops candidates: a search that chooses among ranges by these
   * values and then {@link #confirm}s the ranges it chose until every one holds its value has the
   * optimum it would have had with every range placed first. Memoised as {@link #bestBelow},
   * repeated blocks too ({@link RangeStructure}: a range takes the ranking of one shaped like it
   * once its cheapest secs costs the same). Once the budget has run out, only ranges evaluated
   * already answer (placed or pending; {@link #confirm} places the pending ones a search chooses
   * within its own budget).
   */
  public OptionalLong tentativeBelow(int first, int last, long cutoff) {
    if (first < 0 || last >= p.order().size() || last <= first) {
      return OptionalLong.empty();
    }
    long key = (long) first * p.order().size() + last;
    Memo got = memo.get(key);
    if (got != null && (got.best().isPresent() || cutoff <= got.noneBelow())) {
      return got.best().filter(e -> e.objective() < cutoff).stream()
          .mapToLong(Evaluated::objective)
          .findFirst();
    }
    Pending pd = pending.get(key);
    if (pd != null && cutoff <= pd.noneBelow()) {
      long v = pd.ranked().get(0).value();
      return v < cutoff ? OptionalLong.of(v) : OptionalLong.empty();
    }
    if (ctx.budget().exhausted()) {
      outOfBudget = true;
      return OptionalLong.empty();
    }
    // a range shaped like one ranked before (a repeated block) takes its ranking once its
    // cheapest secs costs the same here; "none below" is taken as it is, as bestBelow does
    List<Object> shape = RangeStructure.key(p.graph(), p.order().subList(first, last + 1));
    Pending same = structurePending.get(shape);
    Long sameNone = structureNone.get(shape);
    if (same != null
        && cutoff <= same.noneBelow()
        && costsHere(first, last, same.ranked().get(0))) {
      structureHits++;
      pd = same;
    } else if (same == null && sameNone != null && cutoff <= sameNone) {
      structureHits++;
      pending.remove(key);
      memo.put(key, new Memo(Optional.empty(), sameNone));
      return OptionalLong.empty();
    } else {
      Ranking ranking = candidates(first, last, cutoff);
      if (ctx.budget().exhausted()) {
        outOfBudget = true;
        return OptionalLong.empty();
      }
      // the answer holds up to the cheapest candidate the cutoff dropped (value or bound)
      long validBelow = ranking.validBelow();
      if (ranking.candidates().isEmpty()) {
        structureNone.merge(shape, validBelow, Math::max);
        pending.remove(key);
        memo.put(key, new Memo(Optional.empty(), validBelow));
        return OptionalLong.empty();
      }
      pd =
          new Pending(
              ranking.candidates().stream().map(c -> new Ranked(c.secs(), c.value())).toList(),
              validBelow);
      structurePending.put(shape, pd);
    }
    pending.put(key, pd);
    memo.remove(key); // a "none below" for a lower cutoff, which the pending range answers too
    long v = pd.ranked().get(0).value();
    return v < cutoff ? OptionalLong.of(v) : OptionalLong.empty();
  }

  /**
   * Places the cheapest pending candidate of {@code first..last} ({@link #tentativeBelow}): true
   * when the range holds its tentative value (placed now or before); false when the oracle refused
   * it: the next candidates are then placed in order until one is, which becomes the range's placed
   * value, or the range has none below its cutoff; either way its value rose, and a search must
   * choose again. Placements run within {@link #confirmWithin}'s budget; once it has run out, a
   * range not placed yet is dropped (it answers empty from then on) and false is returned, so a
   * search ends on placed groups and global ops.
   */
  public boolean confirm(int first, int last) {
    long key = (long) first * p.order().size() + last;
    Memo got = memo.get(key);
    if (got != null && got.best().isPresent()) {
      return true;
    }
    Pending pd = pending.get(key);
    if (pd == null) {
      return false;
    }
    confirmations++;
    // the ranked candidates in order until one places: the first holds the tentative value; a
    // later one gives the range its placed value at once, so the search chooses again only once
    for (int k = 0; k < pd.ranked().size(); k++) {
      if (confirmCtx.budget().exhausted()) {
        return dropForBudget(key);
      }
      Candidate cand = candidateAt(first, last, pd.ranked().get(k).secs()); // sliced when ranked
      Optional<LmemSolution> sol = place(cand.built().timesteps().lmem(), confirmCtx);
      if (sol.isPresent()) {
        pending.remove(key);
        memo.put(key, new Memo(Optional.of(evaluated(first, last, cand, sol.get())), MAX_COST));
        return k == 0;
      }
      if (confirmCtx.budget().exhausted()) {
        return dropForBudget(key); // the budget, not the candidate, may be at fault
      }
      oracleRejections++;
      confirmFailures++;
    }
    pending.remove(key);
    memo.put(key, new Memo(Optional.empty(), pd.noneBelow()));
    return false;
  }

  /**
   * The group {@code first..last} under {@code secs}, which was the best for a range of the same
   * {@link RangeStructure}: built, costed and placed like any candidate; {@code null} if that fails
   * (it cannot unless the oracle is not deterministic), so that the caller evaluates afresh.
   */
  private Optional<Evaluated> rebuild(int first, int last, ShapeSecs secs) {
    Candidate c = candidateAt(first, last, secs);
    if (c == null) {
      return null;
    }
    Optional<LmemSolution> sol = place(c.built().timesteps().lmem());
    if (sol.isEmpty()) {
      return null;
    }
    return Optional.of(new Evaluated(group(first, last, c, sol.get()), c.cost(), c.value()));
  }

  /**
   * The group {@code first..last} sliced, given its table and costed at {@code secs}; null when it
   * does not slice.
   */
  private Candidate candidateAt(int first, int last, ShapeSecs secs) {
    List<Op> ops = p.order().subList(first, last + 1);
    String name = p.graph().name() + "/g" + first + "-" + last;
    if (!(GroupCandidate.build(name, p.graph(), ops, p.chip(), secs, rules, method)
        instanceof GroupCandidate.Built b)) {
      return null;
    }
    return costed(first, last, secs, b, MAX_COST, true);
  }

  /**
   * The oracle's placement of {@code inst}, asked with canonical names ({@link #canonical}) and
   * memoised per canonical instance. The addresses are per buffer index and the two instances
   * differ only in names, so the placement (validated on the canonical one by the oracle) places
   * {@code inst}; the final grouping is validated again as a whole.
   */
  private Optional<LmemSolution> place(LmemInstance inst) {
    return place(inst, ctx);
  }

  /** {@link #place(LmemInstance)} within the budget of {@code within}. */
  private Optional<LmemSolution> place(LmemInstance inst, SolveContext within) {
    LmemInstance key = canonical(inst);
    Optional<LmemSolution> got = placements.get(key);
    if (got == null) {
      got = oracle.place(key, within, oracleCalls);
      if (got.isEmpty() && within.budget().exhausted()) {
        return got; // the budget may be at fault: not memoised
      }
      placements.put(key, got);
    } else {
      placementHits++;
    }
    return got;
  }

  /**
   * {@code inst} with its name, buffer ids and op names replaced by positional ones ({@code g},
   * {@code b0, b1, ...}, {@code t0, t1, ...}): groups of repeated blocks then give equal instances
   * and share one oracle answer, as TPU-MLIR's LgCache shares group results by a structural hash
   * ({@code reference/tpu-mlir.md} §2.4).
   */
  static LmemInstance canonical(LmemInstance inst) {
    List<LmemBuffer> buffers = new ArrayList<>();
    for (int i = 0; i < inst.buffers().size(); i++) {
      LmemBuffer b = inst.buffers().get(i);
      buffers.add(new LmemBuffer("b" + i, b.kind(), b.start(), b.end(), b.bytes(), b.held()));
    }
    List<Timestep> rows = new ArrayList<>();
    int k = 0;
    for (Timestep row : inst.timesteps()) {
      List<Timestep.TiuOp> tiu = new ArrayList<>();
      for (Timestep.TiuOp op : row.tiu()) {
        tiu.add(new Timestep.TiuOp("t" + k++, op.operands(), op.results(), op.scratch()));
      }
      rows.add(new Timestep(tiu, row.gdma()));
    }
    return new LmemInstance(
        "g",
        inst.capacity(),
        inst.banks(),
        inst.bankBytes(),
        inst.euBytes(),
        buffers,
        rows,
        inst.inPlace());
  }

  /**
   * Whether {@code first..last} costed an over-full table whose exact assignment CP-SAT did not
   * prove optimal within its share of the budget ({@link #deepen} may find a cheaper one).
   */
  public boolean unproven(int first, int last) {
    return unproven.contains((long) first * p.order().size() + last);
  }

  /**
   * The value the range holds now without evaluating it: placed, else its cheapest pending
   * candidate; empty when it was never evaluated or has none.
   */
  public OptionalLong knownValue(int first, int last) {
    long key = (long) first * p.order().size() + last;
    Memo got = memo.get(key);
    if (got != null && got.best().isPresent()) {
      return OptionalLong.of(got.best().get().objective());
    }
    Pending pd = pending.get(key);
    return pd == null ? OptionalLong.empty() : OptionalLong.of(pd.ranked().get(0).value());
  }

  /**
   * Asks CP-SAT again, with {@code deterministicTime} of its own, for the exact assignment of each
   * over-full table of {@code first..last} (cycles objective) that was not proven optimal, below
   * the range's value now: a cheaper table that the oracle places becomes the range's placed value.
   * The DP's costing shares a small budget among many ranges, most of them short, so a long range
   * may be left with its shortest lives; a search asks this of the ranges whose bound shows they
   * could lower its total. True when the range's value fell.
   */
  public boolean deepen(int first, int last, double deterministicTime, long below) {
    long key = (long) first * p.order().size() + last;
    if (!unproven.remove(key)
        || p.options().objective() != GroupOptions.Objective.CYCLES
        || !(costModel instanceof RooflineCostModel roofline)
        || ctx.budget().exhausted()) {
      return false;
    }
    deepened++;
    long value = Math.min(below, knownValue(first, last).orElse(MAX_COST));
    List<Op> ops = p.order().subList(first, last + 1);
    GroupType type = rules.groupType(p.graph(), ops, p.chip());
    ShapeSecs max = ShapeSecsBounds.maxSecs(p.graph(), ops, p.chip(), type);
    SecsSpace space = SecsSpace.of(p.graph(), ops, p.chip(), type, max, maxIterations);
    TransferSearch.AssignmentBudget budget =
        new TransferSearch.AssignmentBudget(deterministicTime, deterministicTime);
    String name = p.graph().name() + "/g" + first + "-" + last;
    Evaluated found = null;
    for (ShapeSecs secs : space.secs()) {
      AssignKey ak = new AssignKey(first, last, secs);
      Assignment a = assignments.get(ak);
      if (a == null || a.optimal() || budget.spent() || ctx.budget().exhausted()) {
        continue; // not over-full, proven, or out of time
      }
      if (!(GroupCandidate.build(name, p.graph(), ops, p.chip(), secs, rules, method)
          instanceof GroupCandidate.Built b)) {
        continue;
      }
      Map<String, SliceInfo> slices = b.slices().slices();
      Optional<TransferSearch.Fitted> fitted =
          TransferSearch.fit(p.graph(), p.chip(), ops, secs, slices, b.timesteps(), roofline);
      if (fitted.isEmpty()) {
        continue;
      }
      Optional<TransferSearch.Assigned> exact =
          exactAssignment(
              ops,
              secs,
              b,
              roofline,
              a.table() != null ? a.moves() : fitted.get().moves(),
              value,
              budget);
      if (exact.isEmpty()) {
        continue;
      }
      GroupCandidate.Built table = new GroupCandidate.Built(b.slices(), exact.get().table());
      GroupCost cost = costModel.group(p.graph(), ops, p.chip(), secs, slices, table.timesteps());
      if (objective(cost) >= value) {
        continue;
      }
      Candidate c = new Candidate(secs, table, cost, objective(cost), exact.get().moves());
      Optional<LmemSolution> sol = place(table.timesteps().lmem());
      if (sol.isPresent()) {
        assignments.put(
            ak,
            new Assignment(
                exact.get().moves(), exact.get().table(), MAX_COST, exact.get().optimal()));
        found = evaluated(first, last, c, sol.get());
        value = c.value();
      }
    }
    if (found == null) {
      return false;
    }
    deepenedBetter++;
    pending.remove(key);
    memo.put(key, new Memo(Optional.of(found), MAX_COST));
    return true;
  }

  /**
   * {@code g} (a group of this problem) with its GDMA transfers moved by {@link TransferSearch} to
   * lower its cycles (the descent, then the exact assignment asked for a cheaper table than the
   * descent's), placed by the oracle; {@code g} itself when the objective is DDR bytes (moves
   * change no byte), the cost model is not the roofline, or nothing helps.
   */
  public Group withMoves(Group g) {
    if (!(costModel instanceof RooflineCostModel roofline)
        || p.options().objective() != GroupOptions.Objective.CYCLES) {
      return g;
    }
    List<Op> ops = p.order().subList(g.first(), g.last() + 1);
    GroupTimesteps base = g.timesteps();
    if (!g.moves().isEmpty()) { // a fitted table: its moves count from the method's own
      base =
          ((GroupCandidate.Built)
                  GroupCandidate.build(
                      base.lmem().name(), p.graph(), ops, p.chip(), g.secs(), rules, method))
              .timesteps();
    }
    TransferSearch.Result r =
        TransferSearch.improve(p.graph(), p.chip(), ops, g, base, roofline, this::place, ctx);
    moveBackoffs += r.backoffs();
    Group out = r.group();
    long saved = r.saved();
    // the exact assignment, asked for a table cheaper than the descent's, placed by the oracle
    long cycles =
        roofline.group(p.graph(), ops, p.chip(), g.secs(), g.slices(), out.timesteps()).cycles();
    Optional<TransferSearch.Assigned> exact =
        TransferSearch.exact(
            p.graph(),
            p.chip(),
            ops,
            g.secs(),
            g.slices(),
            base,
            roofline,
            out.moves(),
            cycles,
            ctx,
            assignmentBudget);
    if (exact.isPresent()) {
      GroupTimesteps table = exact.get().table();
      long better = roofline.group(p.graph(), ops, p.chip(), g.secs(), g.slices(), table).cycles();
      Optional<LmemSolution> sol = better < cycles ? place(table.lmem()) : Optional.empty();
      if (sol.isPresent()) {
        assignedGroups++;
        saved += cycles - better;
        out =
            new Group(
                g.first(), g.last(), g.secs(), g.slices(), table, sol.get(), exact.get().moves());
      }
    }
    if (out != g) {
      movedGroups++;
      movedTransfers += out.moves().size();
      movesSaved += saved;
    }
    return out;
  }

  /**
   * A lower bound on the objective of every group of the ops {@code first..last} at every secs:
   * {@link RooflineBounds#range} under {@link RooflineCostModel}, 0 under another cost model.
   */
  public long lowerBound(int first, int last) {
    return bounds == null ? 0 : bounds.range(first, last);
  }

  /**
   * A tighter lower bound than {@link #lowerBound} on every group of {@code first..last}: the
   * larger of it and {@link RooflineBounds#everySecs} under this evaluator's rules, when walking
   * the range's secs box costs at most {@link #EVERY_SECS_WORK} ({@link
   * RooflineBounds#everySecsWork}); else {@link #lowerBound}.
   */
  public long everySecsBound(int first, int last) {
    if (bounds == null) {
      return 0;
    }
    List<Op> ops = p.order().subList(first, last + 1);
    long range = bounds.range(first, last);
    return bounds.everySecsWork(ops, rules) > EVERY_SECS_WORK
        ? range
        : Math.max(range, bounds.everySecs(ops, rules));
  }

  /** Most work ({@link RooflineBounds#everySecsWork}) of one {@link #everySecsBound}. */
  static final long EVERY_SECS_WORK = 2_000_000;

  /** Whether some range was answered empty because the budget ran out. */
  public boolean outOfBudget() {
    return outOfBudget;
  }

  /**
   * Whether the group {@code first..last} at {@code r}'s secs slices and costs {@code r}'s value.
   */
  private boolean costsHere(int first, int last, Ranked r) {
    Candidate c = candidateAt(first, last, r.secs());
    return c != null && c.value() == r.value();
  }

  /** Drops the pending range {@code key}: it answers empty for the rest of the solve. */
  private boolean dropForBudget(long key) {
    outOfBudget = true;
    budgetDropped++;
    pending.remove(key);
    memo.put(key, new Memo(Optional.empty(), MAX_COST));
    return false;
  }

  /** Number of ranges evaluated (memoised answers, placed or pending). */
  public long evaluations() {
    return memo.size() + pending.size();
  }

  /**
   * The counters of this evaluator, by name: evaluations, candidates (secs considered),
   * slice-failures (of which slice-failures-inherited were known without slicing), bound-skips
   * (sliced, but the {@link RooflineBounds#sliced} bound reached the cutoff), costed (tables built
   * and costed), cutoff-skips (costed at the cutoff or more), maxlive-skips (dropped by {@link
   * LmemLowerBounds#maxLive}), oracle-calls, oracle-cache-hits (placements answered by the
   * canonical-instance memo), structure-hits (ranges answered from a range of the same {@link
   * RangeStructure}), cap-truncated (ranges whose space the loop cap cut), best-over-half-cap
   * (valid ranges whose best secs has more than half the cap's loops: a larger cap might have
   * offered a cheaper one), fitted-tables (over-full tables given their shortest lives),
   * assigned-tables (of those, given a cheaper exact assignment) and proven-assignments (of those,
   * proven optimal by CP-SAT), and of {@link #withMoves}: moved-groups, moved-transfers,
   * moves-backoffs (oracle calls on shorter prefixes of a descent), assigned-groups (groups whose
   * exact assignment beat the descent and was placed), moves-saved (objective saved).
   */
  public Map<String, Long> stats() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("evaluations", evaluations());
    m.put("candidates", candidates);
    m.put("slice-failures", sliceFailures);
    m.put("slice-failures-inherited", inheritedFailures);
    m.put("maxlive-skips", maxLiveSkips);
    m.put("fitted-tables", fittedTables);
    m.put("assigned-tables", assignedTables);
    m.put("proven-assignments", provenAssignments);
    m.put("assigned-groups", assignedGroups);
    m.put("bound-skips", boundSkips);
    m.put("costed", costed);
    m.put("cutoff-skips", cutoffSkips);
    m.put("oracle-calls", oracleCalls[0]);
    m.put("oracle-cache-hits", placementHits);
    m.put("oracle-rejections", oracleRejections);
    m.put("confirmations", confirmations);
    m.put("confirm-failures", confirmFailures);
    m.put("budget-dropped", budgetDropped);
    m.put("structure-hits", structureHits);
    m.put("cap-truncated", capTruncated);
    m.put("best-over-half-cap", bestOverHalfCap);
    m.put("moved-groups", movedGroups);
    m.put("moved-transfers", movedTransfers);
    m.put("moves-backoffs", moveBackoffs);
    m.put("moves-saved", movesSaved);
    m.put("deepened-ranges", deepened);
    m.put("deepened-better", deepenedBetter);
    return m;
  }
}
