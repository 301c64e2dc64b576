package io.github.memplan.solvers.dsa.timefold;

import java.util.Arrays;

/**
 * What the order decoders of the Timefold planners share (this package's DSA {@link Decoder} and
 * the LMEM decoder of {@code solvers.lmem.timefold}): a view of a decode in progress, the decode of
 * a whole order from scratch, and the sort of forbidden address intervals.
 */
public final class OrderDecoding {
  private OrderDecoding() {}

  /** Read access to a decode in progress: an item's position in the order and its address. */
  public interface State {
    /** Position in the order, or {@link Integer#MAX_VALUE} when not placed. */
    int position(int item);

    /** The address (offset) of a placed item. */
    long address(int item);
  }

  /** Places one item, given the state of the items before it. */
  @FunctionalInterface
  public interface Placer {
    long place(int item, int position, State state);
  }

  /**
   * Decodes a whole order of {@code n} items (every item exactly once) from scratch: the address of
   * each item.
   */
  public static long[] decode(int n, int[] order, Placer placer) {
    if (order.length != n) {
      throw new IllegalArgumentException("order has " + order.length + " buffers, not " + n);
    }
    int[] pos = new int[n];
    Arrays.fill(pos, Integer.MAX_VALUE);
    for (int p = 0; p < n; p++) {
      if (pos[order[p]] != Integer.MAX_VALUE) {
        throw new IllegalArgumentException("buffer " + order[p] + " appears twice in the order");
      }
      pos[order[p]] = p;
    }
    long[] addr = new long[n];
    State state =
        new State() {
          @Override
          public int position(int item) {
            return pos[item];
          }

          @Override
          public long address(int item) {
            return addr[item];
          }
        };
    for (int p = 0; p < n; p++) {
      addr[order[p]] = placer.place(order[p], p, state);
    }
    return addr;
  }
}
