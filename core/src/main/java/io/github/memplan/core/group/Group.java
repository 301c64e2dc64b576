package io.github.memplan.core.group;

import io.github.memplan.core.lmem.LmemSolution;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One layer group of a {@link Grouping}: the ops {@code first..last} (inclusive) of the op order,
 * at least two of them, their shape secs, the slices of every activation, the timestep table with
 * its LMEM buffers and the LMEM addresses.
 */
public record Group(
    int first,
    int last,
    ShapeSecs secs,
    Map<String, SliceInfo> slices,
    GroupTimesteps timesteps,
    LmemSolution lmem) {
  public Group {
    Objects.requireNonNull(secs, "secs");
    slices = Collections.unmodifiableMap(new LinkedHashMap<>(slices));
    Objects.requireNonNull(timesteps, "timesteps");
    Objects.requireNonNull(lmem, "lmem");
    if (first < 0 || last <= first) {
      throw new IllegalArgumentException(
          "group [" + first + ", " + last + "] needs two ops or more");
    }
  }

  /** Number of ops. */
  public int size() {
    return last - first + 1;
  }
}
