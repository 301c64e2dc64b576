package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import java.util.List;
import java.util.Map;

/**
 * Cycles and DDR bytes of layer groups and global ops (docs/architecture.md, "Key types"; the role
 * of TPU-MLIR's {@code CycleCalculator}, {@code reference/tpu-mlir.md} §2.9). Implementations are
 * deterministic and stateless.
 */
public interface CostModel {

  /** Cost of one group: its ops, secs, slices and timestep table. */
  GroupCost group(
      Graph graph,
      List<Op> ops,
      Chip chip,
      ShapeSecs secs,
      Map<String, SliceInfo> slices,
      GroupTimesteps table);

  /** Cost of one op run alone ("global layer"): compute plus its full DDR traffic. */
  GroupCost globalOp(Graph graph, Op op, Chip chip);

  /** Cost of a whole grouping: its groups plus its global ops. */
  default GroupCost model(Graph graph, Chip chip, Grouping grouping) {
    GroupCost total = new GroupCost(0, 0);
    for (Group g : grouping.groups()) {
      total =
          total.plus(
              group(graph, grouping.ops(graph, g), chip, g.secs(), g.slices(), g.timesteps()));
    }
    for (int i : grouping.globalOps()) {
      total = total.plus(globalOp(graph, graph.op(grouping.order().get(i)), chip));
    }
    return total;
  }

  /** Cost of the model with every op global. */
  default GroupCost ungrouped(Graph graph, List<Op> order, Chip chip) {
    GroupCost total = new GroupCost(0, 0);
    for (Op op : order) {
      total = total.plus(globalOp(graph, op, chip));
    }
    return total;
  }
}
