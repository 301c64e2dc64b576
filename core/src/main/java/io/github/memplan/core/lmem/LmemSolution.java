package io.github.memplan.core.lmem;

import java.util.Arrays;

/**
 * The per-lane LMEM address of each buffer of an {@link LmemInstance}, indexed like its buffer
 * list. Every lane uses the same address range. Immutable.
 */
public final class LmemSolution {
  private final long[] addresses;

  public LmemSolution(long[] addresses) {
    this.addresses = addresses.clone();
  }

  public int size() {
    return addresses.length;
  }

  public long address(int index) {
    return addresses[index];
  }

  /** A copy of the addresses. */
  public long[] addresses() {
    return addresses.clone();
  }

  /** The highest end address (per lane) over the buffers of {@code instance}. */
  public long peak(LmemInstance instance) {
    long peak = 0;
    for (int i = 0; i < addresses.length; i++) {
      peak = Math.max(peak, addresses[i] + instance.buffers().get(i).bytes());
    }
    return peak;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LmemSolution other && Arrays.equals(addresses, other.addresses);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(addresses);
  }

  @Override
  public String toString() {
    return "LmemSolution" + Arrays.toString(addresses);
  }
}
