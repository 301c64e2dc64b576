package io.github.memplan.baseline.tpumlir;

import io.github.memplan.core.cost.RooflineCostModel;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingOutcomes;
import io.github.memplan.core.group.Pieces;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Registers {@link LayerGroupTodayPlanner} as {@code tpumlir-greedy} ({@link Greedy}, opt=1) and
 * {@code tpumlir-dp} ({@link Dp}, opt=2).
 */
public abstract sealed class LayerGroupTodayPlannerProvider
    implements PlannerProvider<GroupProblem, Grouping> {

  private final LayerGroupTodayPlanner.Mode mode;

  LayerGroupTodayPlannerProvider(LayerGroupTodayPlanner.Mode mode) {
    this.mode = mode;
  }

  /** {@code tpumlir-greedy}. */
  public static final class Greedy extends LayerGroupTodayPlannerProvider {
    public Greedy() {
      super(LayerGroupTodayPlanner.Mode.GREEDY);
    }
  }

  /** {@code tpumlir-dp}. */
  public static final class Dp extends LayerGroupTodayPlannerProvider {
    public Dp() {
      super(LayerGroupTodayPlanner.Mode.DP);
    }
  }

  @Override
  public String id() {
    return mode == LayerGroupTodayPlanner.Mode.GREEDY ? "tpumlir-greedy" : "tpumlir-dp";
  }

  @Override
  public String description() {
    return (mode == LayerGroupTodayPlanner.Mode.GREEDY
            ? "TPU-MLIR's current LayerGroup, opt=1: longest valid group from the tail"
            : "TPU-MLIR's current LayerGroup, opt=2: structure detection, else interval DP over"
                + " each base group")
        + "; group types (NORMAL, MM, SMALL_C), shape-secs search (update_data_split, then N,"
        + " C, H/W), today's slicing and 3-stage pipelined timesteps, roofline cost model, LMEM"
        + " packed by an LmemInstance planner.";
  }

  @Override
  public String citation() {
    return "TPU-MLIR GroupMethod.cpp "
        + (mode == LayerGroupTodayPlanner.Mode.GREEDY
            ? "simple_layer_group"
            : "dynamic_programming_layer_group_with_cluster and"
                + " dynamic_programming_with_structure_detect (at bae1bdfd3e)")
        + ", LmemAllocator.cpp, TimeStepMethod.cpp/SwPipeline.cpp (reference/tpu-mlir.md"
        + " §2.3-2.8)";
  }

  @Override
  public Class<GroupProblem> instanceType() {
    return GroupProblem.class;
  }

  /** The parameter that switches pieces of today's LayerGroup ({@link Pieces}). */
  static final String PIECES = "pieces";

  /** The pieces this planner has: all of them for the DP; the greedy has no structure detection. */
  Set<Pieces.Piece> knownPieces() {
    EnumSet<Pieces.Piece> known = EnumSet.allOf(Pieces.Piece.class);
    if (mode == LayerGroupTodayPlanner.Mode.GREEDY) {
      known.remove(Pieces.Piece.STRUCTURE_DETECT);
    }
    return known;
  }

  @Override
  public List<Parameter> parameters() {
    List<String> names = knownPieces().stream().map(Pieces.Piece::id).toList();
    return List.of(
        GroupingOutcomes.lmemParameter("lmem-tpumlir"),
        new Parameter(
            PIECES,
            "the pieces of today's LayerGroup in use, to measure what each changes: 'all' (as"
                + " TPU-MLIR), 'none', a comma-separated list of "
                + String.join(", ", names)
                + ", or 'all,-PIECE' to leave one out (docs/layer-grouping.md, \"Pieces\")",
            "all"));
  }

  @Override
  public Planner<GroupProblem, Grouping> create(PlannerConfig config) {
    String id = config.string("lmem");
    Pieces pieces;
    try {
      pieces = Pieces.parse(config.string(PIECES), knownPieces());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "planner '" + id() + "': parameter 'pieces': " + e.getMessage(), e);
    }
    return new LayerGroupTodayPlanner(
        mode, GroupingOutcomes.lmemPlanner(id), id, new RooflineCostModel(), pieces);
  }
}
