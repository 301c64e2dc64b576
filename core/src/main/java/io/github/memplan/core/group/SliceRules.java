package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import java.util.List;
import java.util.Objects;

/**
 * The rules of one LayerGroup version that decide which groups are valid and how they are sliced
 * ({@code reference/tpu-mlir.md} §2.3, §2.6, §2.7, §2.13): the slicing conventions, and which of
 * today's pieces that change validity are in use ({@link Pieces}: group types, the hull of H/W
 * margins, the Reshape local rule). A {@link Grouping} names its rules, and {@link
 * GroupingValidator} checks every group under them.
 *
 * @param split how the group outputs are cut into slices
 * @param margins what happens when two in-group users of a tensor need different input slices
 * @param h2Rule the doc's "duplicated rows above h/2" rule: fail when Σ input h-slices > 1.5·H
 * @param groupTypes how groups are typed ({@code set_group_type}, {@code group_type_check})
 * @param reshapeLocal whether Reshape and Flatten may join a group ({@code
 *     ReshapeOp::LocalGenSupport}, {@link OpSemantics#whyGlobal}); without, they stay global
 */
public record SliceRules(
    Split split, Margins margins, boolean h2Rule, GroupTypes groupTypes, boolean reshapeLocal) {

  /** v0 (2022-08, §2.13): ceil chunks, identical slices, h/2 rule on, no group types. */
  public static final SliceRules V0 =
      new SliceRules(Split.CEIL, Margins.IDENTICAL, true, GroupTypes.NONE, true);

  /**
   * Today's code (§2.6-2.7): even split, hull with H/W margins on BM168x, h/2 rule off, group
   * types.
   */
  public static final SliceRules TODAY =
      new SliceRules(Split.EVEN, Margins.HULL, false, GroupTypes.SET_GROUP_TYPE, true);

  public SliceRules {
    Objects.requireNonNull(split, "split");
    Objects.requireNonNull(margins, "margins");
    Objects.requireNonNull(groupTypes, "groupTypes");
  }

  /**
   * Whether a group's shape secs are bounded as today's code bounds them (§2.6): within {@code
   * get_group_max_secs} ({@link ShapeSecsBounds#maxSecs}) and, for W, by {@code assign_dhwsecs}'s
   * {@code can_split_w} ({@link ShapeSecsBounds#canSplitW}); today's quick search and the group
   * searches pick their secs there, and {@link GroupingValidator} checks it. v0 (§2.13) picks N and
   * H secs by its own rule (no group types at all): its groupings are not held to it.
   */
  public boolean boundsSecs() {
    return groupTypes != GroupTypes.NONE;
  }

  /** The type of the group {@code ops} under these rules: NORMAL unless groups are typed. */
  public GroupType groupType(Graph graph, List<Op> ops, Chip chip) {
    return groupTypes == GroupTypes.SET_GROUP_TYPE
        ? GroupType.of(graph, ops, chip)
        : GroupType.NORMAL;
  }

  /** Output split ({@code get_out_slice_info}). */
  public enum Split {
    /** v0: chunks of {@code ceil(len / secs)} (N aligned to n_align), last chunk smaller. */
    CEIL,
    /** today: {@code floor(len / secs)} each, the first {@code len % secs} slices one longer. */
    EVEN
  }

  /** Conflicting backward slices of one tensor. */
  public enum Margins {
    /** v0: every in-group user must need identical slices. */
    IDENTICAL,
    /**
     * today: on BM168x, when every user supports H/W margins and the ranges overlap slice by slice,
     * take their hull ({@code with_hw_margins}); otherwise fail.
     */
    HULL
  }

  /** How groups are typed ({@link GroupType}). */
  public enum GroupTypes {
    /**
     * v0: no group types; every group is laid out and split as GROUP_NORMAL and {@code
     * group_type_check} is not made.
     */
    NONE,
    /**
     * Today's code with {@code set_group_type} switched off ({@link Pieces.Piece#GROUP_TYPES}):
     * every group is GROUP_NORMAL (C never split), and {@code group_type_check} still refuses a
     * group holding a MatMul that is local only in GROUP_SMALL_C.
     */
    NORMAL,
    /**
     * Today's: {@code set_group_type} gives each group GROUP_NORMAL, GROUP_MM or GROUP_SMALL_C
     * (GROUP_MM and GROUP_SMALL_C split C and SMALL_C has its own layout), then {@code
     * group_type_check}.
     */
    SET_GROUP_TYPE
  }

  public SliceRules withH2Rule(boolean on) {
    return new SliceRules(split, margins, on, groupTypes, reshapeLocal);
  }

  /**
   * The h/2 rule of the era these rules belong to: on for v0's split and margins ({@link #V0}, the
   * 2022 code with {@code check_hsecs} called), off otherwise ({@link #TODAY}: the call is
   * commented out since 829dab2c2).
   */
  public boolean eraH2Rule() {
    return split == V0.split && margins == V0.margins;
  }
}
