package io.github.memplan.baseline.tpumlir.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupBoundary;
import io.github.memplan.core.group.GroupCandidate;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingOutcomes;
import io.github.memplan.core.group.GroupingValidator;
import io.github.memplan.core.group.OpSemantics;
import io.github.memplan.core.group.ShapeSecs;
import io.github.memplan.core.group.SliceRules;
import io.github.memplan.core.group.Slicing;
import io.github.memplan.core.group.TimestepMethod;
import io.github.memplan.core.group.V0Timesteps;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.LmemValidator;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * TPU-MLIR's documented LayerGroup, v0 ({@code lib/Dialect/Tpu/Transforms/LayerGroup/GroupOps.cpp}
 * at 1cf8ff8c2, 2022-08; seed {@code tpu-mlir-layergroup.zh.rst}; {@code reference/tpu-mlir.md}
 * §2.13).
 *
 * <pre>
 * buildGroups: end = last op; while end >= 0:
 *   move end back to the last group-capable op; start = start of the maximal capable run ending there
 *   if start == end: end -= 1; continue
 *   CreateGroup(start, end) gives new_start: record [new_start, end]; end = new_start - 1; else end -= 1
 * CreateGroup(start, end): reject if an op has neither producer nor consumer in the range;
 *   n, h = the last op's output; max_n = ceil(n / n_align); max_h = h
 *   for s = start .. end-1: no_more = false
 *     for nsecs in 1..max_n while !no_more: BySecs(s, end, nsecs, 1) succeeds: return it
 *     for hsecs in 1..max_h while !no_more: BySecs(s, end, max_n, hsecs) succeeds: return it
 * BySecs: v0 slicing ({@link SliceRules#V0}, h/2 rule on unless the problem forces it off), v0 timesteps
 *   ({@link V0Timesteps}), LMEM packing by the LMEM planner
 * </pre>
 *
 * The LMEM packing is delegated to an {@code LmemInstance} planner named by the parameter {@code
 * lmem} ({@code lmem-v0}, v0's own allocator, by default), so that search solvers can be plugged
 * in. Every group it keeps has its LMEM solution checked by {@link LmemValidator}, and the whole
 * grouping by {@link GroupingValidator} before it leaves.
 *
 * <p>Departures: v0 sets {@code no_more} when its weight-first allocation fails; the LMEM planner
 * does not say why it failed, so {@code no_more} is set when the held weights alone exceed the
 * lane's LMEM (the only way that allocation can fail). When the budget runs out, the groups found
 * so far are kept and the remaining ops stay global (still a valid grouping).
 */
public final class LayerGroupV0Planner implements Planner<GroupProblem, Grouping> {
  private final Planner<LmemInstance, LmemSolution> lmem;
  private final String lmemId;

  /**
   * @param lmem the LMEM planner packing each candidate group
   * @param lmemId its id, for messages
   */
  public LayerGroupV0Planner(Planner<LmemInstance, LmemSolution> lmem, String lmemId) {
    this.lmem = lmem;
    this.lmemId = lmemId;
  }

  @Override
  public Outcome<Grouping> solve(GroupProblem p, SolveContext ctx) {
    Graph graph = p.graph();
    List<Op> order = p.order();
    SliceRules rules = p.options().rules(SliceRules.V0);
    TimestepMethod method = new V0Timesteps();
    List<Group> found = new ArrayList<>();
    long[] tries = {0};
    boolean outOfBudget = false;
    int end = order.size() - 1;
    while (end >= 0) {
      if (ctx.budget().exhausted()) {
        outOfBudget = true;
        break;
      }
      while (end >= 0 && !OpSemantics.groupable(graph, order.get(end), p.chip())) {
        end--;
      }
      if (end < 0) {
        break;
      }
      int start = end;
      while (start > 0 && OpSemantics.groupable(graph, order.get(start - 1), p.chip())) {
        start--;
      }
      if (start == end) {
        end--;
        continue;
      }
      Optional<Group> g = createGroup(p, start, end, rules, method, tries, ctx);
      if (g.isPresent()) {
        found.add(0, g.get());
        end = g.get().first() - 1;
      } else {
        end--;
      }
    }
    Grouping grouping = new Grouping(Grouping.names(order), rules, method.id(), found);
    return GroupingOutcomes.validated(
        "tpumlir-v0",
        p,
        grouping,
        Map.of("tries", tries[0]),
        outOfBudget ? "budget ran out; ops not yet visited stay global" : null);
  }

  private Optional<Group> createGroup(
      GroupProblem p,
      int start,
      int end,
      SliceRules rules,
      TimestepMethod method,
      long[] tries,
      SolveContext ctx) {
    Graph graph = p.graph();
    List<Op> order = p.order();
    if (!connected(graph, order.subList(start, end + 1))) {
      return Optional.empty();
    }
    Op last = order.get(end);
    String out = last.outputs().get(0);
    var shape = io.github.memplan.core.group.Nchw.of(graph.tensor(out).shape());
    int maxN = (int) ceilDiv(shape.n(), Slicing.nAlign(graph, out, p.chip()));
    int maxH = (int) shape.h();
    for (int s = start; s < end; s++) {
      boolean[] noMore = {false};
      for (int nsecs = 1; nsecs <= maxN && !noMore[0]; nsecs++) {
        Optional<Group> g =
            bySecs(p, s, end, ShapeSecs.nh(nsecs, 1), rules, method, noMore, tries, ctx);
        if (g.isPresent()) {
          return g;
        }
      }
      for (int hsecs = 1; hsecs <= maxH && !noMore[0]; hsecs++) {
        Optional<Group> g =
            bySecs(p, s, end, ShapeSecs.nh(maxN, hsecs), rules, method, noMore, tries, ctx);
        if (g.isPresent()) {
          return g;
        }
      }
      if (ctx.budget().exhausted()) {
        break;
      }
    }
    return Optional.empty();
  }

  private Optional<Group> bySecs(
      GroupProblem p,
      int s,
      int e,
      ShapeSecs secs,
      SliceRules rules,
      TimestepMethod method,
      boolean[] noMore,
      long[] tries,
      SolveContext ctx) {
    tries[0]++;
    List<Op> ops = p.order().subList(s, e + 1);
    Chip chip = p.chip();
    String name = p.graph().name() + "/g" + s + "-" + e;
    GroupCandidate c = GroupCandidate.build(name, p.graph(), ops, chip, secs, rules, method);
    if (c instanceof GroupCandidate.Rejected r) {
      noMore[0] |= r.failure().noMore();
      return Optional.empty();
    }
    GroupCandidate.Built b = (GroupCandidate.Built) c;
    LmemInstance inst = b.timesteps().lmem();
    long held = 0;
    for (LmemBuffer buf : inst.buffers()) {
      held += buf.held() ? buf.bytes() : 0;
    }
    if (held > inst.capacity()) {
      noMore[0] = true;
      return Optional.empty();
    }
    Outcome<LmemSolution> o = lmem.solve(inst, ctx);
    if (!o.status().hasSolution() || !new LmemValidator().isValid(inst, o.solution())) {
      if (o.status() == Status.ERROR) {
        throw new IllegalStateException(
            "LMEM planner '" + lmemId + "' failed on " + name + ": " + o.message());
      }
      return Optional.empty();
    }
    return Optional.of(new Group(s, e, secs, b.slices().slices(), b.timesteps(), o.solution()));
  }

  /** v0's check: every op of the range has a producer or a consumer inside it. */
  static boolean connected(Graph graph, List<Op> ops) {
    if (ops.size() < 2) {
      return false;
    }
    Set<String> defined = new HashSet<>();
    Set<String> read = new HashSet<>();
    for (Op op : ops) {
      defined.addAll(op.outputs());
      read.addAll(op.inputs());
    }
    for (Op op : ops) {
      boolean producerInside = op.inputs().stream().anyMatch(defined::contains);
      boolean consumerInside = op.outputs().stream().anyMatch(read::contains);
      if (!producerInside && !consumerInside) {
        return false;
      }
    }
    return true;
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }

  /** The boundary tensors of a group (for reports). */
  public static GroupBoundary io(Graph graph, Grouping g, Group group) {
    return GroupBoundary.of(graph, g.ops(graph, group));
  }
}
