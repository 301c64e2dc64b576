package io.github.memplan.core.group;

/**
 * The slicing conventions of one LayerGroup version ({@code reference/tpu-mlir.md} §2.6, §2.7,
 * §2.13).
 *
 * @param split how the group outputs are cut into slices
 * @param margins what happens when two in-group users of a tensor need different input slices
 * @param h2Rule the doc's "duplicated rows above h/2" rule: fail when Σ input h-slices > 1.5·H
 * @param groupTypes whether groups get a {@link GroupType} ({@code set_group_type}): GROUP_MM and
 *     GROUP_SMALL_C split C and SMALL_C has its own layout; without, every group is GROUP_NORMAL
 */
public record SliceRules(Split split, Margins margins, boolean h2Rule, boolean groupTypes) {

  /** v0 (2022-08, §2.13): ceil chunks, identical slices, h/2 rule on, no group types. */
  public static final SliceRules V0 = new SliceRules(Split.CEIL, Margins.IDENTICAL, true, false);

  /**
   * Today's code (§2.6-2.7): even split, hull with H/W margins on BM168x, h/2 rule off, group
   * types.
   */
  public static final SliceRules TODAY = new SliceRules(Split.EVEN, Margins.HULL, false, true);

  /** The type of the group {@code ops} under these rules: NORMAL without group types. */
  public GroupType groupType(
      io.github.memplan.core.ir.Graph graph,
      java.util.List<io.github.memplan.core.ir.Op> ops,
      io.github.memplan.core.chip.Chip chip) {
    return groupTypes ? GroupType.of(graph, ops, chip) : GroupType.NORMAL;
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

  public SliceRules withH2Rule(boolean on) {
    return new SliceRules(split, margins, on, groupTypes);
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
