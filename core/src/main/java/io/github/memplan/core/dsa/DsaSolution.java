package io.github.memplan.core.dsa;

import java.util.Arrays;

/** The offsets of a {@link DsaInstance}'s buffers, indexed like its buffer list. Immutable. */
public final class DsaSolution {
  private final long[] offsets;

  public DsaSolution(long[] offsets) {
    this.offsets = offsets.clone();
  }

  public int size() {
    return offsets.length;
  }

  public long offset(int index) {
    return offsets[index];
  }

  /** A copy of the offsets. */
  public long[] offsets() {
    return offsets.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DsaSolution other && Arrays.equals(offsets, other.offsets);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(offsets);
  }

  @Override
  public String toString() {
    return "DsaSolution" + Arrays.toString(offsets);
  }
}
