package io.github.memplan.core.group;

import io.github.memplan.core.solve.SwitchSet;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Which pieces of today's LayerGroup are in use, so that what each one changes can be measured (the
 * planner parameter {@code pieces=} of {@code tpumlir-greedy} and {@code tpumlir-dp}). Every piece
 * is on by default, as TPU-MLIR has it; switched off, the planner runs without it:
 *
 * <ul>
 *   <li>pieces that change which groups are valid go into the grouping's {@link SliceRules} ({@link
 *       #rules}): {@link Piece#GROUP_TYPES}, {@link Piece#HULL}, {@link Piece#RESHAPE_LOCAL};
 *   <li>pieces of the timestep table go into its {@link Timesteps2026} variant ({@link
 *       #timesteps}), whose id the grouping names: {@link Piece#PIPELINE}, {@link Piece#REBALANCE},
 *       {@link Piece#HOLD}, {@link Piece#IN_PLACE};
 *   <li>pieces of the search only decide which valid groups the planner finds: {@link
 *       Piece#UPDATE_DATA_SPLIT}, {@link Piece#STRUCTURE_DETECT}.
 * </ul>
 *
 * So {@link GroupingValidator} re-derives every grouping under the rules and the table its pieces
 * gave, from what the grouping names; the search pieces need no check.
 *
 * <p>The switches are memplan's, for measurement. TPU-MLIR's own LayerGroup options ({@code
 * LgOptions}: {@code opt}, {@code group_by_cores}, {@code nnvlc_mode}, {@code lgcache}, {@code
 * num_core}; {@code lib/Dialect/Tpu/Transforms/LayerGroup/LgPass.cpp}) switch none of them; only
 * structure detection has a switch of its own ({@code LgConfig}'s {@code structure_detect_opt}). A
 * piece switched off is today's code with that one step skipped (or, for {@link
 * Piece#RESHAPE_LOCAL}, with Reshape global as memplan had it before it modelled the rule), not an
 * older TPU-MLIR: v0's rules are {@link SliceRules#V0} and {@code tpumlir-v0}.
 *
 * @param on the pieces in use
 */
public record Pieces(Set<Piece> on) {

  /** A piece of today's LayerGroup, named as in {@code pieces=}. */
  public enum Piece {
    /**
     * {@code set_group_type}: GROUP_MM and GROUP_SMALL_C, which split C and (SMALL_C) have their
     * own layout ({@link GroupType}). Off: every group GROUP_NORMAL, C never split; {@code
     * group_type_check} still applies ({@link SliceRules.GroupTypes#NORMAL}).
     */
    GROUP_TYPES("group-types"),
    /**
     * The hull of two users' different H/W slices of one tensor ({@code with_hw_margins}, {@link
     * SliceRules.Margins#HULL}). Off: the users must need identical slices, as v0.
     */
    HULL("hull"),
    /**
     * The Reshape local rule ({@code ReshapeOp::LocalGenSupport}, {@link OpSemantics}). Off:
     * Reshape and Flatten stay global, as before the rule was modelled.
     */
    RESHAPE_LOCAL("reshape-local"),
    /**
     * {@code update_data_split}: the quick search starts from the secs the peak live LMEM of the
     * initial table asks for ({@link ShapeSecsBounds#updateDataSplit}). Off: it starts from {@code
     * init_group_data_secs}.
     */
    UPDATE_DATA_SPLIT("update-data-split"),
    /**
     * {@code dynamic_programming_with_structure_detect} ({@code tpumlir-dp} only). Off: the plain
     * interval DP with clusters on every base group.
     */
    STRUCTURE_DETECT("structure-detect"),
    /**
     * The 3-stage software pipeline of the timestep table ({@link Timesteps2026} (b)). Off: the
     * nearest assignment's rows, every transfer in stage 1, no wrapped lifetimes.
     */
    PIPELINE("pipeline"),
    /**
     * Memory-aware rebalancing of transfers into rows with cycle slack (§2.8(c), {@link
     * MemoryAwareRebalance}). Off: transfers stay where the nearest assignment and the pipeline put
     * them.
     */
    REBALANCE("rebalance"),
    /**
     * Held coefficients ({@link Timesteps2026} (d)): a looping group loads its weights once. Off:
     * weights are loaded in every iteration.
     */
    HOLD("hold"),
    /**
     * In-place LMEM pairs ({@link InPlaceOps}, {@code insert_inplace_local_mem}). Off: the table
     * declares none.
     */
    IN_PLACE("in-place");

    private final String id;

    Piece(String id) {
      this.id = id;
    }

    /** The name in {@code pieces=}, e.g. {@code in-place}. */
    public String id() {
      return id;
    }
  }

  /** The pieces of the timestep table, in {@link Timesteps2026} variant ids' order. */
  public static final Set<Piece> TIMESTEP_PIECES =
      Collections.unmodifiableSet(
          EnumSet.of(Piece.PIPELINE, Piece.REBALANCE, Piece.HOLD, Piece.IN_PLACE));

  /** Every piece: today's LayerGroup. */
  public static final Pieces ALL = new Pieces(EnumSet.allOf(Piece.class));

  public Pieces {
    on =
        Collections.unmodifiableSet(
            on.isEmpty() ? EnumSet.noneOf(Piece.class) : EnumSet.copyOf(on));
  }

  /**
   * {@code all}, {@code none}, a comma-separated list of the pieces of {@code known} in use ({@code
   * group-types,hull}: only those), or {@code all} minus some ({@code all,-in-place}); a piece
   * outside {@code known} fails with one line naming it and the known ones.
   */
  public static Pieces parse(String spec, Set<Piece> known) {
    return new Pieces(SwitchSet.parse(spec, EnumSet.copyOf(known), Piece::id, "piece"));
  }

  /** Whether {@code piece} is in use. */
  public boolean has(Piece piece) {
    return on.contains(piece);
  }

  /**
   * {@code today} (today's rules, with the problem's h/2 option applied) with the pieces that
   * change validity switched as these pieces say.
   */
  public SliceRules rules(SliceRules today) {
    return new SliceRules(
        today.split(),
        has(Piece.HULL) ? today.margins() : SliceRules.Margins.IDENTICAL,
        today.h2Rule(),
        has(Piece.GROUP_TYPES) ? today.groupTypes() : SliceRules.GroupTypes.NORMAL,
        today.reshapeLocal() && has(Piece.RESHAPE_LOCAL));
  }

  /** Today's timestep method with the timestep pieces switched as these pieces say. */
  public Timesteps2026 timesteps() {
    return new Timesteps2026(this);
  }

  /** {@code all}, {@code none}, or the names of the pieces in use among {@code known}, in order. */
  public String format(Set<Piece> known) {
    return SwitchSet.format(on, known, Piece::id);
  }

  @Override
  public String toString() {
    return format(EnumSet.allOf(Piece.class));
  }
}
