package io.github.memplan.core.lmem;

import java.util.Objects;

/**
 * One LMEM buffer of a layer group, as TPU-MLIR's {@code mem_buffer_key → mem_buffer_value} map
 * holds it ({@code LayerGroupDefs.h}; {@code reference/tpu-mlir.md} §2.1, §2.8(e)): a tensor slice
 * or an op's scratch ("imm") buffer, its lifetime in timesteps and its size in bytes per NPU lane.
 *
 * <p>Lifetimes are <em>inclusive</em> {@code [start, end]} timestep indices as in the source.
 * {@code start > end} means the lifetime wraps around the loop boundary (software pipelining): the
 * buffer is live in {@code [start, T)} and in {@code [0, end]}. A {@code held} buffer (a non-split
 * weight loaded once and resident over all loop iterations, §2.8(d)) is live in every timestep
 * whatever {@code start} and {@code end} say.
 *
 * @param id unique within the instance: the tensor name, or the op name for a scratch buffer
 * @param kind what the buffer holds
 * @param start first timestep of its life
 * @param end last timestep of its life (inclusive); {@code < start} when it wraps
 * @param bytes size in bytes of one lane, already EU-aligned where the op asks for it
 * @param held resident in every timestep (held weights of a multi-iteration group)
 */
public record LmemBuffer(String id, Kind kind, int start, int end, long bytes, boolean held) {

  /** What a buffer holds ({@code mem_buffer_key.type}). */
  public enum Kind {
    ACTIVATION,
    WEIGHT,
    SCRATCH
  }

  public LmemBuffer {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    if (start < 0 || end < 0) {
      throw new IllegalArgumentException("LMEM buffer '" + id + "': negative timestep");
    }
    if (bytes <= 0) {
      throw new IllegalArgumentException("LMEM buffer '" + id + "': size " + bytes + " <= 0");
    }
  }

  /** Whether the lifetime wraps around the loop boundary ({@code start > end}). */
  public boolean wraps() {
    return start > end && !held;
  }

  /** Whether the buffer is live in timestep {@code ts}. */
  public boolean liveAt(int ts) {
    if (held) {
      return true;
    }
    return start <= end ? ts >= start && ts <= end : ts >= start || ts <= end;
  }

  /**
   * Number of timesteps of its life in a group of {@code timesteps} rows, counted cyclically as
   * TPU-MLIR's {@code area} does; a held buffer lives in all rows.
   */
  public int lifetime(int timesteps) {
    if (held) {
      return timesteps;
    }
    return start <= end ? end - start + 1 : timesteps - start + end + 1;
  }

  /** Whether the two buffers are live in a common timestep of a group of {@code timesteps} rows. */
  public boolean overlapsInTime(LmemBuffer other, int timesteps) {
    if (held || other.held) {
      return true;
    }
    // each life is at most two intervals of [0, T): [start, end], or [start, T) and [0, end]
    int last = timesteps - 1;
    if (start <= end) {
      return other.meets(start, Math.min(end, last), last);
    }
    return other.meets(start, last, last) || other.meets(0, Math.min(end, last), last);
  }

  /**
   * Whether this (not held) buffer lives in some timestep of {@code [lo, hi]}, {@code last} = T -
   * 1.
   */
  private boolean meets(int lo, int hi, int last) {
    if (start <= end) {
      return Math.max(lo, start) <= Math.min(hi, Math.min(end, last));
    }
    return Math.max(lo, start) <= Math.min(hi, last) || lo <= Math.min(hi, Math.min(end, last));
  }
}
