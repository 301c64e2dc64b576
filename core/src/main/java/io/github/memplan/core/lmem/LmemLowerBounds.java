package io.github.memplan.core.lmem;

import java.util.ArrayList;
import java.util.List;

/** Lower bounds on the per-lane peak ({@code max(address + bytes)}) of any valid LMEM placement. */
public final class LmemLowerBounds {
  private LmemLowerBounds() {}

  /**
   * The largest number of bytes that must be resident at once: for each timestep, the buffers live
   * there (held ones always, wrapping ones cyclically) must occupy disjoint ranges of {@code [0,
   * peak)}, except in-place pairs, which may share. So for each timestep the live buffers are
   * grouped into connected components of the in-place relation, each component counts its largest
   * buffer, and the bound is the maximum over timesteps of the sum. It ignores EU padding between
   * buffers (the top buffer needs none) and bank preferences, so it is a true lower bound: no valid
   * solution has a smaller peak.
   */
  public static long maxLive(LmemInstance instance) {
    long best = 0;
    for (int ts = 0; ts < instance.timestepCount(); ts++) {
      best = Math.max(best, liveBytes(instance, ts));
    }
    return best;
  }

  /** The lower bound of {@link #maxLive} restricted to timestep {@code ts}. */
  public static long liveBytes(LmemInstance instance, int ts) {
    List<LmemBuffer> buffers = instance.buffers();
    int n = buffers.size();
    int[] parent = new int[n];
    for (int i = 0; i < n; i++) {
      parent[i] = i;
    }
    for (InPlace p : instance.inPlace()) {
      if (buffers.get(p.input()).liveAt(ts) && buffers.get(p.output()).liveAt(ts)) {
        parent[find(parent, p.input())] = find(parent, p.output());
      }
    }
    long[] componentMax = new long[n];
    List<Integer> roots = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (buffers.get(i).liveAt(ts)) {
        int r = find(parent, i);
        if (componentMax[r] == 0) {
          roots.add(r);
        }
        componentMax[r] = Math.max(componentMax[r], buffers.get(i).bytes());
      }
    }
    long sum = 0;
    for (int r : roots) {
      sum += componentMax[r];
    }
    return sum;
  }

  private static int find(int[] parent, int i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }
}
