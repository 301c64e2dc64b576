package io.github.memplan.solvers.group;

import io.github.memplan.core.group.GroupBoundary;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.GroupingBound;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.group.SliceInfo;
import io.github.memplan.core.group.SliceRules;
import io.github.memplan.core.group.SlicedBound;
import io.github.memplan.core.ir.Op;
import java.util.List;
import java.util.Map;

/**
 * Lower bounds on the objective of a group under {@link RooflineCostModel}, so that a search can
 * skip what cannot win:
 *
 * <ul>
 *   <li><b>Without slices</b> ({@link #range}): {@link GroupingBound#part}, the bound over every
 *       secs that {@code lower-bound-cycles} and {@code lower-bound-ddr-bytes} are built from
 *       (weights, group outputs and the rows of every group input that every valid group loads;
 *       proof in its class comment).
 *   <li><b>At one slicing</b> ({@link #sliced}): {@link SlicedBound#at} (TIU of every slice plus
 *       the pipeline's fill and drain, against every transfer; proof in its class comment), in its
 *       quick form {@link SlicedBound#quickAt}.
 * </ul>
 *
 * Stateless.
 */
public final class RooflineBounds {
  private final boolean ddr;
  private final GroupingBound ranges;
  private final SlicedBound atSlices;

  /**
   * The bounds of the groups whose tables the timestep method {@code methodId} builds ({@link
   * GroupingBound#forMethod}).
   */
  public RooflineBounds(RooflineCostModel model, GroupProblem p, String methodId) {
    this.ddr = p.options().objective() == GroupOptions.Objective.DDR_BYTES;
    this.ranges = GroupingBound.forMethod(model, p, methodId);
    this.atSlices = new SlicedBound(model, p.graph(), p.chip());
  }

  /** A bound over every secs of the group of the ops {@code first..last} of the order. */
  long range(int first, int last) {
    GroupingBound.Part part = ranges.part(first, last);
    return ddr ? part.bytes() : part.cycles();
  }

  /**
   * A bound over every secs of the group {@code ops} sliced under {@code rules} ({@link
   * SlicedBound#best}).
   */
  public long everySecs(List<Op> ops, SliceRules rules) {
    GroupingBound.Part part = atSlices.best(ops, rules);
    return ddr ? part.bytes() : part.cycles();
  }

  /** The work of {@link #everySecs} ({@link SlicedBound#work}). */
  public long everySecsWork(List<Op> ops, SliceRules rules) {
    return atSlices.work(ops, rules);
  }

  /**
   * A bound for the group {@code ops} sliced as {@code slices} ({@link SlicedBound#quickAt}: the
   * search asks it of every candidate).
   */
  public long sliced(List<Op> ops, GroupBoundary io, Map<String, SliceInfo> slices) {
    GroupingBound.Part part = atSlices.quickAt(ops, io, slices);
    return ddr ? part.bytes() : part.cycles();
  }
}
