package io.github.memplan.baseline.tpumlir.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.group.CostModel;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupCandidate;
import io.github.memplan.core.group.GroupCost;
import io.github.memplan.core.group.GroupType;
import io.github.memplan.core.group.Pieces;
import io.github.memplan.core.group.ShapeSecs;
import io.github.memplan.core.group.ShapeSecsBounds;
import io.github.memplan.core.group.SliceRules;
import io.github.memplan.core.group.TimestepMethod;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.LmemValidator;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.List;
import java.util.Optional;

/**
 * TPU-MLIR's shape-secs quick search for one candidate group ({@code
 * LmemAllocator::assignLmemAddrWithSecs} with {@code sc_method_quick_search}, {@code
 * get_group_max_secs}, {@code init_group_data_secs}, {@code update_shape_secs}, {@code
 * assign_dhwsecs}; {@code reference/tpu-mlir.md} §2.5, §2.6):
 *
 * <pre>
 * max, init: {@link ShapeSecsBounds} (get_group_max_secs, init_group_data_secs)
 * the table under the initial secs (assignTimeStep in is_layer_group_valid): slicing fails -&gt; invalid
 * secs = update_data_split on that table ({@link ShapeSecsBounds#updateDataSplit}: peak live LMEM
 *      over the rows / LMEM bytes, N raised first), or the initial secs when it fails
 * up to 20 tries while secs <= max: slice + timesteps + LMEM allocation;
 *      valid: stop with this (first valid) secs; slicing fails: the group is invalid;
 *      LMEM fails (update_shape_secs): nsecs &lt; max: increase_nsecs; else csecs &lt; max:
 *      increase_csecs (the next secs that strictly shrinks ceil(max / secs)); else
 *      assign_dhwsecs(++dhw) ({@link ShapeSecsBounds#assignDhw}: larger hsecs wins ties, the
 *      length truncated to int, Σh/Σw over every op output with a user, every group output's
 *      w slice ceil(w / wsecs) · bytes &gt;= 256 when dhw &lt; max h), then dhw = hsecs · wsecs
 * </pre>
 *
 * Read in {@code LmemAllocator.cpp} ({@code assignLmemAddrWithSecs}, {@code
 * sc_method_quick_search}, {@code try_this_shape_secs}, {@code update_shape_secs}, {@code
 * increase_nsecs}, {@code increase_csecs}) and {@code LayerGroupUtil.cpp} of {@code
 * sophgo/tpu-mlir}, the stored versions that take {@code LgOptions} ({@code reference/tpu-mlir.md}
 * reads 36e3c625a). The LMEM allocation is delegated to an {@code LmemInstance} planner; its answer
 * is checked by {@link LmemValidator}. The cost is the given {@link CostModel}'s.
 *
 * <p>The group's type ({@link GroupType}, from today's rules) gives the layout, the max secs (C
 * above 1 only in GROUP_MM and GROUP_SMALL_C groups) and the initial secs.
 *
 * <p>With the piece {@code update-data-split} off ({@link Pieces}), the quick search starts from
 * the initial secs, as it does when {@code update_data_split} fails.
 *
 * <p>Departures: GROUP_3D is not modelled, so D does not exist; {@code group_by_cores} is not
 * applied; strategies 1 and 2 ("search better") are not implemented.
 */
final class ShapeSecsSearch {
  /** {@code MAX_TRY_NUM} of LgConfig. */
  static final int MAX_TRY_NUM = 20;

  private final Planner<LmemInstance, LmemSolution> lmem;
  private final String lmemId;
  private final CostModel costModel;
  private final TimestepMethod method;
  private final boolean updateDataSplit;

  /** A valid group with its cost. */
  record Found(Group group, GroupCost cost) {}

  /** The search as today's TPU-MLIR runs it, {@code update_data_split} included. */
  ShapeSecsSearch(
      Planner<LmemInstance, LmemSolution> lmem,
      String lmemId,
      CostModel costModel,
      TimestepMethod method) {
    this(lmem, lmemId, costModel, method, true);
  }

  /**
   * @param updateDataSplit whether the quick search starts from {@code update_data_split}'s secs
   *     ({@link Pieces.Piece#UPDATE_DATA_SPLIT}); else from {@code init_group_data_secs}
   */
  ShapeSecsSearch(
      Planner<LmemInstance, LmemSolution> lmem,
      String lmemId,
      CostModel costModel,
      TimestepMethod method,
      boolean updateDataSplit) {
    this.lmem = lmem;
    this.lmemId = lmemId;
    this.costModel = costModel;
    this.method = method;
    this.updateDataSplit = updateDataSplit;
  }

  /** The timestep method the candidates are built with. */
  TimestepMethod method() {
    return method;
  }

  /**
   * The quick search on {@code ops} ({@code first..last} of the order); empty when the group is
   * invalid.
   *
   * @param tries incremented once per secs tried
   */
  Optional<Found> search(
      String name,
      Graph graph,
      List<Op> ops,
      int first,
      int last,
      Chip chip,
      SliceRules rules,
      long[] tries,
      SolveContext ctx) {
    GroupType type = rules.groupType(graph, ops, chip);
    ShapeSecs max = ShapeSecsBounds.maxSecs(graph, ops, chip, type);
    Optional<ShapeSecs> init = ShapeSecsBounds.initialSecs(graph, ops, chip, max, type);
    if (init.isEmpty()) {
      return Optional.empty();
    }
    // is_layer_group_valid: assignTimeStep under the initial secs; a slicing failure rejects it
    GroupCandidate initial =
        GroupCandidate.build(name, graph, ops, chip, init.get(), rules, method);
    if (initial instanceof GroupCandidate.Rejected) {
      return Optional.empty();
    }
    // assignLmemAddrWithSecs: update_data_split on that table, the initial secs when it fails
    // (or when the piece is off)
    ShapeSecs secs =
        updateDataSplit
            ? ShapeSecsBounds.updateDataSplit(
                    graph, ops, chip, ((GroupCandidate.Built) initial).timesteps(), rules, max)
                .orElse(init.get())
            : init.get();
    int dhw = secs.hsecs() * secs.wsecs();
    for (int t = 0; t < MAX_TRY_NUM && ShapeSecsBounds.within(secs, max); t++) {
      if (ctx.budget().exhausted()) {
        return Optional.empty();
      }
      tries[0]++;
      GroupCandidate c =
          secs.equals(init.get())
              ? initial
              : GroupCandidate.build(name, graph, ops, chip, secs, rules, method);
      if (c instanceof GroupCandidate.Rejected) {
        return Optional.empty(); // TIMESTEP_INVALID: backward slicing failed
      }
      GroupCandidate.Built b = (GroupCandidate.Built) c;
      LmemInstance inst = b.timesteps().lmem();
      Outcome<LmemSolution> o = lmem.solve(inst, ctx);
      if (o.status() == Status.ERROR) {
        throw new IllegalStateException(
            "LMEM planner '" + lmemId + "' failed on " + name + ": " + o.message());
      }
      if (o.status().hasSolution() && new LmemValidator().isValid(inst, o.solution())) {
        var slices = b.slices().slices();
        GroupCost cost = costModel.group(graph, ops, chip, secs, slices, b.timesteps());
        return Optional.of(
            new Found(new Group(first, last, secs, slices, b.timesteps(), o.solution()), cost));
      }
      // LMEM_INVALID: update_shape_secs
      if (secs.nsecs() < max.nsecs()) {
        int n = ShapeSecsBounds.increaseSecs(secs.nsecs(), max.nsecs());
        secs = new ShapeSecs(n, secs.csecs(), secs.hsecs(), secs.wsecs());
      } else if (secs.csecs() < max.csecs()) {
        int cs = ShapeSecsBounds.increaseSecs(secs.csecs(), max.csecs());
        secs = new ShapeSecs(secs.nsecs(), cs, secs.hsecs(), secs.wsecs());
      } else {
        secs = ShapeSecsBounds.assignDhw(graph, ops, chip, type, secs, dhw + 1, max);
        dhw = secs.hsecs() * secs.wsecs();
      }
    }
    return Optional.empty();
  }
}
