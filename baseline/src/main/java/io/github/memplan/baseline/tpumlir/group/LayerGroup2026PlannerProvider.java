package io.github.memplan.baseline.tpumlir.group;

import io.github.memplan.baseline.tpumlir.group.LayerGroup2026Planner.Mode;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingOutcomes;
import io.github.memplan.core.group.Pieces;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.BasePlannerProvider;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Registers {@link LayerGroup2026Planner} as {@code tpumlir-greedy} ({@link Greedy}, opt=1) and
 * {@code tpumlir-dp} ({@link Dp}, opt=2).
 */
public abstract sealed class LayerGroup2026PlannerProvider
    extends BasePlannerProvider<GroupProblem, Grouping> {

  LayerGroup2026PlannerProvider(Mode mode, String id, String description, String citation) {
    super(
        id,
        GroupProblem.class,
        description
            + "; group types (NORMAL, MM, SMALL_C), shape-secs search (update_data_split, then N,"
            + " C, H/W), today's slicing and 3-stage pipelined timesteps, roofline cost model, LMEM"
            + " packed by an LmemInstance planner.",
        "TPU-MLIR GroupMethod.cpp "
            + citation
            + ", LmemAllocator.cpp, TimeStepMethod.cpp/SwPipeline.cpp (reference/tpu-mlir.md"
            + " §2.3-2.8)",
        List.of(
            GroupingOutcomes.lmemParameter("lmem-tpumlir"),
            new Parameter(
                "pieces",
                "the pieces of today's LayerGroup in use, to measure what each changes: 'all' (as"
                    + " TPU-MLIR), 'none', a comma-separated list of "
                    + String.join(", ", knownPieces(mode).stream().map(Pieces.Piece::id).toList())
                    + ", or 'all,-PIECE' to leave one out (docs/layer-grouping.md, \"Pieces\")",
                "all")),
        config -> {
          Pieces pieces =
              config.named(
                  "pieces", () -> Pieces.parse(config.string("pieces"), knownPieces(mode)));
          PlannerProvider<LmemInstance, LmemSolution> lmem =
              config.planner("lmem", LmemInstance.class);
          return new LayerGroup2026Planner(
              mode, lmem.create(Map.of()), lmem.id(), new RooflineCostModel(), pieces);
        });
  }

  /** {@code tpumlir-greedy}. */
  public static final class Greedy extends LayerGroup2026PlannerProvider {
    public Greedy() {
      super(
          Mode.GREEDY,
          "tpumlir-greedy",
          "TPU-MLIR's current LayerGroup, opt=1: longest valid group from the tail",
          "simple_layer_group");
    }
  }

  /** {@code tpumlir-dp}. */
  public static final class Dp extends LayerGroup2026PlannerProvider {
    public Dp() {
      super(
          Mode.DP,
          "tpumlir-dp",
          "TPU-MLIR's current LayerGroup, opt=2: structure detection, else interval DP over"
              + " each base group",
          "dynamic_programming_layer_group_with_cluster and"
              + " dynamic_programming_with_structure_detect (at bae1bdfd3e)");
    }
  }

  /** The pieces of {@code mode}: all of them for the DP; the greedy has no structure detection. */
  static Set<Pieces.Piece> knownPieces(Mode mode) {
    EnumSet<Pieces.Piece> known = EnumSet.allOf(Pieces.Piece.class);
    if (mode == Mode.GREEDY) {
      known.remove(Pieces.Piece.STRUCTURE_DETECT);
    }
    return known;
  }
}
