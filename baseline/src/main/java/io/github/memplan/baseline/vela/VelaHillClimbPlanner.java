package io.github.memplan.baseline.vela;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
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
import java.util.Set;
import java.util.TreeMap;
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
 * polled every iteration (steps = iterations), and when it runs out the best order so far is
 * returned; fixed offsets are refused (Vela has none); gaps are ignored; time is compressed to the
 * instants where some lifetime starts or ends, which changes nothing the algorithm reads.
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
    Search s = new Search(instance, ctx.random(), ctx.budget());
    long[] addresses = s.allocate();
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
      // lrs_at_time over compressed time: slot k stands for [points[k], points[k+1])
      TreeMap<Integer, Integer> slotOf = new TreeMap<>();
      for (int i = 0; i < n; i++) {
        slotOf.put(startTime[i], 0);
        slotOf.put(endTime[i] + 1, 0);
      }
      int slots = 0;
      for (Map.Entry<Integer, Integer> e : slotOf.entrySet()) {
        e.setValue(slots++);
      }
      int[] firstSlot = new int[n];
      int[] endSlot = new int[n]; // exclusive
      List<List<Integer>> lrsAtTime = new ArrayList<>();
      for (int k = 0; k < slots; k++) {
        lrsAtTime.add(new ArrayList<>());
      }
      for (int i = 0; i < n; i++) {
        firstSlot[i] = slotOf.get(startTime[i]);
        endSlot[i] = slotOf.get(endTime[i] + 1);
        for (int k = firstSlot[i]; k < endSlot[i]; k++) {
          lrsAtTime.get(k).add(i);
        }
      }
      long[] sizeAtTime = new long[slots];
      long max = 0;
      for (int k = 0; k < slots; k++) {
        for (int i : lrsAtTime.get(k)) {
          sizeAtTime[k] += size[i];
        }
        max = Math.max(max, sizeAtTime[k]);
      }
      minRequiredSize = max;
      neighbours = new int[n][];
      int[] seen = new int[n];
      Arrays.fill(seen, -1);
      for (int i = 0; i < n; i++) {
        List<Integer> nb = new ArrayList<>();
        for (int k = firstSlot[i]; k < endSlot[i]; k++) {
          urgency[i] = Math.max(urgency[i], sizeAtTime[k]);
          for (int j : lrsAtTime.get(k)) {
            if (seen[j] != i && j != i) {
              seen[j] = i;
              nb.add(j);
            }
          }
        }
        neighbours[i] = nb.stream().mapToInt(Integer::intValue).toArray();
      }
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
        long newSize = allocateIndices(indices);
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

  private static void swap(int[] a, int i, int j) {
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
