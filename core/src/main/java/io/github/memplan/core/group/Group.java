package io.github.memplan.core.group;

import io.github.memplan.core.lmem.LmemSolution;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One layer group of a {@link Grouping}: the ops {@code first..last} (inclusive) of the op order,
 * at least two of them, their shape secs, the slices of every activation, the timestep table with
 * its LMEM buffers and the LMEM addresses.
 *
 * <p>{@code moves} are the GDMA transfers moved away from the rows the grouping's {@link
 * TimestepMethod} gives them ({@link TimestepMoves}, sorted by buffer); {@code timesteps} is the
 * table after the moves. Empty for the method's table unchanged.
 */
public record Group(
    int first,
    int last,
    ShapeSecs secs,
    Map<String, SliceInfo> slices,
    GroupTimesteps timesteps,
    LmemSolution lmem,
    List<TransferMove> moves) {
  public Group {
    moves = List.copyOf(moves);
    Objects.requireNonNull(secs, "secs");
    slices = Collections.unmodifiableMap(new LinkedHashMap<>(slices));
    Objects.requireNonNull(timesteps, "timesteps");
    Objects.requireNonNull(lmem, "lmem");
    if (first < 0 || last <= first) {
      throw new IllegalArgumentException(
          "group [" + first + ", " + last + "] needs two ops or more");
    }
  }

  /** A group whose table is its timestep method's, without moved transfers. */
  public Group(
      int first,
      int last,
      ShapeSecs secs,
      Map<String, SliceInfo> slices,
      GroupTimesteps timesteps,
      LmemSolution lmem) {
    this(first, last, secs, slices, timesteps, lmem, List.of());
  }

  /** Number of ops. */
  public int size() {
    return last - first + 1;
  }
}
