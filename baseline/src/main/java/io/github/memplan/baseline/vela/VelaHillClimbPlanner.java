package io.github.memplan.baseline.vela;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.CoActive;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaOutcomes;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Arm Ethos-U Vela's default tensor allocator, {@code HillClimbAllocator} ({@code ethos-u-vela:
 * ethosu/vela/hillclimb_allocation.py}, the 2021–2022 version with {@code MAX_ITERATIONS = 99999},
 * {@code MAX_ITERATIONS_STUCK = 50}, {@code MIN_ITERATIONS_IMPROVE = 500}; called from {@code
 * tensor_allocation.py} with {@code --hillclimb-max-iterations} and the memory size as limit).
 *
 * <p>Initial order: live ranges by decreasing urgency (the largest total size alive at any time
 * they live), then decreasing duration, increasing start, decreasing size, id. An order is decoded
 * by {@code allocate_lr}: each live range starts at 0 and is pushed above (rounded to its
 * alignment) every already placed time neighbour it overlaps, pass after pass until it fits; the
 * neighbour that pushed it last is its predecessor. Search: find the bottleneck (the live range
 * with the highest end address), collect the turns of its neighbours and of all their predecessor
 * chains, swap two of them (the first, with probability 30/101, among those that are not time
 * neighbours of the bottleneck), and after more than {@code max-iterations-stuck} iterations
 * without improvement swap two more among a set widened by those live ranges' neighbours; re-decode
 * (stopping early once worse than the best), keep the order if not worse, else go back to the best.
 * It runs while the best exceeds the memory limit (here the instance's capacity) and fewer than
 * {@code max-iterations} iterations were done, or while fewer than {@code min-iterations-improve}
 * iterations passed since the last improvement, and stops at once when the best reaches the sum of
 * sizes alive at the busiest time. The state the source leaves behind after an early-stopped decode
 * (stale addresses and turns) feeds the next bottleneck search as in the source.
 *
 * <p>Departures: the random numbers come from the run's {@link SolveContext#random()}, not Python's
 * {@code random.seed(1)}, so the sequence of swaps differs from Vela's; where the source's {@code
 * randint(0, len - 2)} would fail on a one-element turn list, the swap is skipped; the budget is
 * polled every iteration (steps = iterations) and every 256 live ranges of a decode, and when it
 * runs out the best order so far is returned (none if the first decode is unfinished); fixed
 * offsets are refused (Vela has none); gaps are ignored; time is compressed to the instants where
 * some lifetime starts or ends, which changes nothing the algorithm reads.
 */
public final class VelaHillClimbPlanner implements Planner<DsaInstance, DsaSolution> {

  /** {@code MAX_ITERATIONS}, the default of {@code --hillclimb-max-iterations}. */
  public static final int DEFAULT_MAX_ITERATIONS = 99_999;

  /** {@code MAX_ITERATIONS_STUCK}. */
  public static final int DEFAULT_MAX_ITERATIONS_STUCK = 50;

  /** {@code MIN_ITERATIONS_IMPROVE}. */
  public static final int DEFAULT_MIN_ITERATIONS_IMPROVE = 500;

  private static final long NOT_ALLOCATED = -1;
  private static final int NO_PREDECESSOR = -1;

  private final int maxIterations;
  private final int maxIterationsStuck;
  private final int minIterationsImprove;

  public VelaHillClimbPlanner() {
    this(DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_ITERATIONS_STUCK, DEFAULT_MIN_ITERATIONS_IMPROVE);
  }

  public VelaHillClimbPlanner(int maxIterations, int maxIterationsStuck, int minIterationsImprove) {
    if (maxIterations < 0 || maxIterationsStuck < 0 || minIterationsImprove < 0) {
      throw new IllegalArgumentException(
          "vela-hill-climb: iteration limits must not be negative: max-iterations="
              + maxIterations
              + ", max-iterations-stuck="
              + maxIterationsStuck
              + ", min-iterations-improve="
              + minIterationsImprove);
    }
    this.maxIterations = maxIterations;
    this.maxIterationsStuck = maxIterationsStuck;
    this.minIterationsImprove = minIterationsImprove;
  }

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    for (Buffer b : instance.buffers()) {
      if (b.fixedOffset().isPresent()) {
        throw new IllegalArgumentException(
            "vela-hill-climb does not support fixed offsets (buffer '" + b.id() + "')");
      }
    }
    if (instance.size() == 0) {
      return DsaOutcomes.fromOffsets(instance, new long[0], Map.of());
    }
    Search s;
    long[] addresses;
    try {
      s = new Search(instance, ctx.random(), ctx.budget());
      addresses = s.allocate();
    } catch (Exhausted e) {
      return Outcome.noSolution(
          OptionalLong.empty(), "budget exhausted before the first allocation was complete");
    }
    return DsaOutcomes.fromOffsets(
        instance,
        addresses,
        Map.of(
            "iterations", s.iterations,
            "improvements", s.improvements,
            "initial-peak", s.initialSize));
  }

  /** One run's state: {@code HillClimbAllocator} and its {@code LiveRangeInfo}s. */
  private final class Search {
    final int n;
    final int[] startTime;
    final int[] endTime; // inclusive
    final long[] size;
    final long[] alignment;
    final long[] address;
    final long[] endAddress;
    final int[] predecessor;
    final int[] turn;
    final long[] urgency;
    final int[][] neighbours;
    final long minRequiredSize;
    final long memoryLimit;
    final RandomGenerator random;
    final Budget budget;
    long bestSize = Long.MAX_VALUE;
    long[] allocatedAddresses;
    long iterations;
    long improvements;
    long initialSize;

    Search(DsaInstance instance, RandomGenerator random, Budget budget) {
      this.random = random;
      this.budget = budget;
      this.memoryLimit = instance.capacity();
      n = instance.size();
      startTime = new int[n];
      endTime = new int[n];
      size = new long[n];
      alignment = new long[n];
      address = new long[n];
      endAddress = new long[n];
      predecessor = new int[n];
      turn = new int[n];
      urgency = new long[n];
      for (int i = 0; i < n; i++) {
        Buffer b = instance.buffer(i);
        startTime[i] = b.lower();
        endTime[i] = b.upper() - 1;
        size[i] = b.size();
        alignment[i] = b.alignment();
      }
      // lrs_at_time over compressed time: slot k stands for [points[k], points[k+1]). Computed
      // without the per-slot lists: the load per slot by a difference array, each urgency (the
      // largest load over a live range's slots) by a sparse table, the neighbours by a sweep
      int[] points = new int[2 * n];
      for (int i = 0; i < n; i++) {
        points[2 * i] = startTime[i];
        points[2 * i + 1] = endTime[i] + 1;
      }
      Arrays.sort(points);
      int slots = 0;
      for (int k = 0; k < points.length; k++) {
        if (slots == 0 || points[slots - 1] != points[k]) {
          points[slots++] = points[k];
        }
      }
      int[] firstSlot = new int[n];
      int[] endSlot = new int[n]; // exclusive
      long[] sizeAtTime = new long[slots + 1];
      for (int i = 0; i < n; i++) {
        firstSlot[i] = Arrays.binarySearch(points, 0, slots, startTime[i]);
        endSlot[i] = Arrays.binarySearch(points, 0, slots, endTime[i] + 1);
        sizeAtTime[firstSlot[i]] += size[i];
        sizeAtTime[endSlot[i]] -= size[i];
      }
      long max = 0;
      for (int k = 0; k < slots; k++) {
        if (k > 0) {
          sizeAtTime[k] += sizeAtTime[k - 1];
        }
        max = Math.max(max, sizeAtTime[k]);
      }
      minRequiredSize = max;
      long[][] table = sparseMax(sizeAtTime, slots);
      for (int i = 0; i < n; i++) {
        urgency[i] = firstSlot[i] < endSlot[i] ? rangeMax(table, firstSlot[i], endSlot[i]) : 0;
      }
      neighbours = neighbours(firstSlot, endSlot);
    }

    /** {@code table[j][k]}: the largest of {@code v[k .. k + 2^j)}. */
    private static long[][] sparseMax(long[] v, int len) {
      int levels = 1;
      while ((1 << levels) <= len) {
        levels++;
      }
      long[][] t = new long[levels][];
      t[0] = Arrays.copyOf(v, Math.max(len, 1));
      for (int j = 1; j < levels; j++) {
        int w = 1 << j;
        t[j] = new long[Math.max(0, len - w + 1)];
        for (int k = 0; k + w <= len; k++) {
          t[j][k] = Math.max(t[j - 1][k], t[j - 1][k + w / 2]);
        }
      }
      return t;
    }

    /** The largest of {@code v[from .. to)}, {@code from < to}. */
    private static long rangeMax(long[][] t, int from, int to) {
      int j = 31 - Integer.numberOfLeadingZeros(to - from);
      return Math.max(t[j][from], t[j][to - (1 << j)]);
    }

    /**
     * The time neighbours of each live range in the order the source's slot scan meets them: by the
     * first slot both occupy, then by index.
     */
    private int[][] neighbours(int[] firstSlot, int[] endSlot) {
      int[][] nb = CoActive.lists(firstSlot, endSlot, x -> firstSlot[x] < endSlot[x], budget);
      if (nb == null) {
        throw new Exhausted();
      }
      long[] key = new long[16];
      for (int i = 0; i < n; i++) {
        int[] a = nb[i];
        if (key.length < a.length) {
          key = new long[Math.max(a.length, 2 * key.length)];
        }
        for (int k = 0; k < a.length; k++) {
          key[k] = ((long) Math.max(firstSlot[i], firstSlot[a[k]]) << 32) | a[k];
        }
        Arrays.sort(key, 0, a.length);
        for (int k = 0; k < a.length; k++) {
          a[k] = (int) key[k];
        }
      }
      return nb;
    }

    /** {@code LiveRangeInfo.__lt__}. */
    int compare(int a, int b) {
      if (urgency[a] != urgency[b]) {
        return urgency[a] > urgency[b] ? -1 : 1;
      }
      int durationA = endTime[a] - startTime[a];
      int durationB = endTime[b] - startTime[b];
      if (durationA != durationB) {
        return durationA > durationB ? -1 : 1;
      }
      if (startTime[a] != startTime[b]) {
        return startTime[a] < startTime[b] ? -1 : 1;
      }
      if (size[a] != size[b]) {
        return size[a] > size[b] ? -1 : 1;
      }
      return Integer.compare(a, b);
    }

    boolean isNeighbour(int a, int b) {
      return startTime[a] <= endTime[b] && startTime[b] <= endTime[a];
    }

    void allocateLr(int lr) {
      long addr = 0;
      int pred = NO_PREDECESSOR;
      boolean fits = false;
      while (!fits) {
        fits = true;
        for (int lr2 : neighbours[lr]) {
          if (address[lr2] == NOT_ALLOCATED || endAddress[lr2] <= addr) {
            continue;
          }
          if (address[lr2] < addr + size[lr] && addr < endAddress[lr2]) {
            fits = false;
            addr = Alignment.up(endAddress[lr2], alignment[lr]);
            pred = lr2;
          }
        }
      }
      address[lr] = addr;
      endAddress[lr] = addr + size[lr];
      predecessor[lr] = pred;
    }

    long allocateIndices(int[] indices) {
      Arrays.fill(address, NOT_ALLOCATED);
      long sz = 0;
      for (int t = 0; t < indices.length; t++) {
        if (t % 256 == 255 && budget.exhausted()) {
          throw new Exhausted();
        }
        int lr = indices[t];
        allocateLr(lr);
        turn[lr] = t;
        sz = Math.max(sz, endAddress[lr]);
        if (sz > bestSize) {
          break;
        }
      }
      return sz;
    }

    void addPredecessorTurns(Set<Integer> turnSet, List<Integer> turnList, int lr) {
      if (turnSet.add(turn[lr])) {
        turnList.add(turn[lr]);
      }
      int id = lr;
      while (predecessor[id] != NO_PREDECESSOR) {
        id = predecessor[id];
        if (turnSet.add(turn[id])) {
          turnList.add(turn[id]);
        }
      }
    }

    /** {@code random.randint(0, hi)}: uniform over {@code 0..hi} inclusive. */
    int randint(int hi) {
      return random.nextInt(hi + 1);
    }

    void attemptBottleneckFix(int[] indices, long iterationsStuck) {
      int maxLr = 0;
      for (int lr = 1; lr < n; lr++) {
        if (endAddress[lr] > endAddress[maxLr]) {
          maxLr = lr;
        }
      }
      Set<Integer> turnSet = new HashSet<>();
      List<Integer> turnList = new ArrayList<>();
      addPredecessorTurns(turnSet, turnList, maxLr);
      for (int lr2 : neighbours[maxLr]) {
        addPredecessorTurns(turnSet, turnList, lr2);
      }
      List<Integer> nonNbTurnList = new ArrayList<>();
      for (int t : turnList) {
        if (!isNeighbour(maxLr, indices[t])) {
          nonNbTurnList.add(t);
        }
      }
      int ix1;
      if (randint(100) < 30 && !nonNbTurnList.isEmpty()) {
        ix1 = nonNbTurnList.get(randint(nonNbTurnList.size() - 1));
      } else {
        ix1 = turnList.get(randint(turnList.size() - 1));
      }
      if (turnList.size() >= 2) {
        int ix2 = turnList.get(randint(turnList.size() - 2));
        if (ix1 == ix2) {
          ix2 = turnList.get(turnList.size() - 1);
        }
        swap(indices, ix1, ix2);
      }
      if (iterationsStuck > maxIterationsStuck) {
        for (int t : nonNbTurnList) {
          for (int lr : neighbours[indices[t]]) {
            if (turnSet.add(turn[lr])) {
              turnList.add(turn[lr]);
            }
          }
        }
        int a = turnList.get(randint(turnList.size() - 1));
        int b = turnList.get(randint(turnList.size() - 1));
        swap(indices, a, b);
      }
    }

    void search(int[] start) {
      int[] indices = start.clone();
      int[] bestIndices = indices.clone();
      long lastImprovementIteration = 0;
      long i = 0;
      while ((bestSize > memoryLimit && i < maxIterations)
          || (i - lastImprovementIteration < minIterationsImprove)) {
        if (budget.exhausted(i)) {
          break;
        }
        attemptBottleneckFix(indices, i - lastImprovementIteration);
        long newSize;
        try {
          newSize = allocateIndices(indices);
        } catch (Exhausted e) {
          break; // the best order so far stands
        }
        if (newSize <= bestSize) {
          if (newSize < bestSize) {
            lastImprovementIteration = i;
            improvements++;
          }
          bestSize = newSize;
          bestIndices = indices.clone();
          allocatedAddresses = address.clone();
          if (bestSize <= minRequiredSize) {
            i++;
            break;
          }
        } else {
          indices = bestIndices.clone();
        }
        i++;
      }
      iterations = i;
    }

    long[] allocate() {
      Integer[] boxed = new Integer[n];
      for (int i = 0; i < n; i++) {
        boxed[i] = i;
      }
      Arrays.sort(boxed, this::compare);
      int[] indices = Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();
      bestSize = allocateIndices(indices);
      initialSize = bestSize;
      allocatedAddresses = address.clone();
      if (bestSize > minRequiredSize) {
        search(indices);
      }
      return allocatedAddresses;
    }
  }

  /** The budget ran out inside a decode or the set-up. */
  private static final class Exhausted extends RuntimeException {
    Exhausted() {
      super(null, null, false, false);
    }
  }

  private static void swap(int[] a, int i, int j) {
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
