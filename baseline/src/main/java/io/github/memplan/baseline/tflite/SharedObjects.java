package io.github.memplan.baseline.tflite;

import io.github.memplan.core.solve.Budget;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The shared-object strategies of TFLite's GPU delegate ({@code
 * tensorflow/lite/delegates/gpu/common/memory_management/}), ported line by line for {@code size_t}
 * tensor sizes. Each takes the usage records in the order given (see {@link
 * UsageRecord#inFirstUseOrder}) and returns, for each record position, the id of its shared object,
 * plus each object's size (the largest tensor assigned to it).
 *
 * <p>Where the source sorts with {@code std::sort} (not stable), ties are broken by record position
 * so that results are deterministic.
 */
final class SharedObjects {
  private SharedObjects() {}

  private static final long NOT_ASSIGNED = Long.MAX_VALUE; // kNotAssigned, as a distance

  /**
   * The result of a strategy ({@code ObjectsAssignment<size_t>}).
   *
   * @param objectIds for each record position, the object it uses
   * @param objectSizes for each object, its size
   */
  record Assignment(int[] objectIds, long[] objectSizes) {
    long totalSize() {
      long sum = 0;
      for (long s : objectSizes) {
        sum += s;
      }
      return sum;
    }
  }

  /** Thrown by a strategy whose budget ran out; the planner turns it into an outcome. */
  static final class BudgetExhausted extends RuntimeException {
    BudgetExhausted(String where) {
      super(where, null, false, false);
    }
  }

  private static void poll(Budget budget, long steps, String where) {
    if (budget.exhausted(steps)) {
      throw new BudgetExhausted(where);
    }
  }

  static Assignment run(GpuStrategy strategy, List<UsageRecord> records, Budget budget) {
    return switch (strategy) {
      case NAIVE -> naive(records);
      case EQUALITY -> equality(records, budget);
      case GREEDY_IN_ORDER -> greedyInOrder(records, budget);
      case GREEDY_BY_BREADTH -> greedyByBreadth(records, budget);
      case GREEDY_BY_SIZE -> greedyBySizeDistPriority(records, budget);
      case GREEDY_BEST -> bestGreedy(records, budget);
      case MINCOSTFLOW -> minCostFlow(records, budget);
    };
  }

  /** {@code NaiveAssignment}: tensor {@code i} gets object {@code i}. */
  static Assignment naive(List<UsageRecord> records) {
    int n = records.size();
    int[] ids = new int[n];
    long[] sizes = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i;
      sizes[i] = records.get(i).size();
    }
    return new Assignment(ids, sizes);
  }

  /**
   * An object in use until {@code lastTask} ({@code QueueRecord}: the queue's top is the least).
   */
  private record InUse(int lastTask, int objectId) {}

  private static PriorityQueue<InUse> objectsInUse() {
    return new PriorityQueue<>(
        Comparator.comparingInt(InUse::lastTask).thenComparingInt(InUse::objectId));
  }

  /**
   * {@code EqualityAssignmentWithHash}: objects freed before a tensor's first task go to a pool
   * keyed by size; a tensor takes the most recently pooled object of exactly its size (the pool
   * holds a vector per size and pops its back), else a new object.
   */
  static Assignment equality(List<UsageRecord> records, Budget budget) {
    int n = records.size();
    int[] ids = new int[n];
    List<Long> sizes = new ArrayList<>();
    Map<Long, ArrayDeque<Integer>> pool = new HashMap<>();
    PriorityQueue<InUse> inUse = objectsInUse();
    for (int i = 0; i < n; i++) {
      poll(budget, i, "equality at tensor " + i);
      UsageRecord r = records.get(i);
      while (!inUse.isEmpty() && inUse.peek().lastTask() < r.first()) {
        int obj = inUse.poll().objectId();
        pool.computeIfAbsent(sizes.get(obj), k -> new ArrayDeque<>()).addLast(obj);
      }
      ArrayDeque<Integer> free = pool.get(r.size());
      if (free == null || free.isEmpty()) {
        ids[i] = sizes.size();
        sizes.add(r.size());
      } else {
        ids[i] = free.removeLast();
      }
      inUse.add(new InUse(r.last(), ids[i]));
    }
    return new Assignment(ids, toArray(sizes));
  }

  /** A free object in the pool, ordered by size then id ({@code PoolRecord}). */
  private record Pooled(long size, int objectId) {}

  /**
   * {@code GreedyInOrderAssignment} (without a reallocation graph): tensors in the given order;
   * objects freed before a tensor's first task return to the pool; the tensor takes the smallest
   * pooled object at least its size or the largest one below it, whichever differs less from its
   * size (the larger on a tie), growing it if needed; else a new object.
   */
  static Assignment greedyInOrder(List<UsageRecord> records, Budget budget) {
    int n = records.size();
    int[] ids = new int[n];
    List<Long> sizes = new ArrayList<>();
    TreeSet<Pooled> pool =
        new TreeSet<>(Comparator.comparingLong(Pooled::size).thenComparingInt(Pooled::objectId));
    PriorityQueue<InUse> inUse = objectsInUse();
    for (int i = 0; i < n; i++) {
      poll(budget, i, "greedy-in-order at tensor " + i);
      UsageRecord r = records.get(i);
      while (!inUse.isEmpty() && inUse.peek().lastTask() < r.first()) {
        int obj = inUse.poll().objectId();
        pool.add(new Pooled(sizes.get(obj), obj));
      }
      Pooled best = null;
      if (!pool.isEmpty()) {
        Pooled key = new Pooled(r.size(), 0);
        Pooled atLeast = pool.ceiling(key); // pool.lower_bound({tensor_size, 0})
        long diff = 0;
        if (atLeast != null) {
          diff = atLeast.size() - r.size();
          best = atLeast;
        }
        Pooled below = pool.lower(key);
        if (below != null && (best == null || r.size() - below.size() < diff)) {
          best = below;
        }
      }
      if (best == null) {
        ids[i] = sizes.size();
        sizes.add(r.size());
      } else {
        pool.remove(best);
        ids[i] = best.objectId();
        sizes.set(ids[i], Math.max(sizes.get(ids[i]), r.size()));
      }
      inUse.add(new InUse(r.last(), ids[i]));
    }
    return new Assignment(ids, toArray(sizes));
  }

  /**
   * {@code GreedyByBreadthAssignment}: tasks in non-increasing order of breadth (the total size of
   * the tensors alive during them; ties by task order); inside a task, its unassigned tensors in
   * non-increasing order of size. A tensor goes to the object, among those whose tensors' usage
   * intervals all miss its own, that is the smallest at least its size, else the largest; ties by
   * object id; else to a new object.
   */
  static Assignment greedyByBreadth(List<UsageRecord> records, Budget budget) {
    int n = records.size();
    List<int[]> profiles = TaskProfiles.of(records, budget);
    long[] breadth = new long[profiles.size()];
    Integer[] taskOrder = new Integer[profiles.size()];
    for (int t = 0; t < profiles.size(); t++) {
      for (int pos : profiles.get(t)) {
        breadth[t] += records.get(pos).size();
      }
      taskOrder[t] = t;
    }
    Arrays.sort(
        taskOrder,
        (a, b) -> breadth[a] != breadth[b] ? Long.compare(breadth[b], breadth[a]) : a - b);
    int[] ids = new int[n];
    Arrays.fill(ids, -1);
    List<Long> sizes = new ArrayList<>();
    // per object: first_task -> last_task of its tensors (SharedObjectSchedule, by first_task)
    List<TreeMap<Integer, Integer>> schedules = new ArrayList<>();
    long steps = 0;
    for (int task : taskOrder) {
      for (int pos : profiles.get(task)) {
        if (ids[pos] != -1) {
          continue;
        }
        poll(budget, steps++, "greedy-by-breadth at tensor " + steps);
        UsageRecord r = records.get(pos);
        int numObjects = schedules.size();
        int bestObject = numObjects;
        for (int obj = 0; obj < numObjects; obj++) {
          if (bestObject != numObjects) {
            long bestSize = sizes.get(bestObject);
            long curSize = sizes.get(obj);
            if (bestSize < r.size()) {
              if (curSize <= bestSize) {
                continue;
              }
            } else if (curSize < r.size() || curSize >= bestSize) {
              continue;
            }
          }
          TreeMap<Integer, Integer> schedule = schedules.get(obj);
          Map.Entry<Integer, Integer> atOrAfter = schedule.ceilingEntry(r.first());
          if (atOrAfter != null && atOrAfter.getKey() <= r.last()) {
            continue;
          }
          Map.Entry<Integer, Integer> before = schedule.lowerEntry(r.first());
          if (before != null && before.getValue() >= r.first()) {
            continue;
          }
          bestObject = obj;
        }
        if (bestObject == numObjects) {
          TreeMap<Integer, Integer> schedule = new TreeMap<>();
          schedule.put(r.first(), r.last());
          schedules.add(schedule);
          sizes.add(r.size());
        } else {
          schedules.get(bestObject).put(r.first(), r.last());
          sizes.set(bestObject, Math.max(sizes.get(bestObject), r.size()));
        }
        ids[pos] = bestObject;
      }
    }
    return new Assignment(ids, toArray(sizes));
  }

  /** The {@code SizeDistPriorityInfo} of one unassigned tensor. */
  private static final class SizeDistPriority {
    int position;
    long tensorSize;
    long[] dist = new long[4];
    int distCount;
    long bestDist = NOT_ASSIGNED;
    int bestObject = -1;
    int tensorUsageId;

    /** {@code operator>}: leftmost position, then smallest distance, then largest size. */
    boolean before(SizeDistPriority other) {
      return position < other.position
          || (position == other.position
              && (bestDist < other.bestDist
                  || (bestDist == other.bestDist && tensorSize > other.tensorSize)));
    }

    void recalcBestDist() {
      bestDist = NOT_ASSIGNED;
      for (int obj = 0; obj < distCount; obj++) {
        if (dist[obj] < bestDist) {
          bestDist = dist[obj];
          bestObject = obj;
        }
      }
    }

    void pushDist(long d) {
      if (distCount == dist.length) {
        dist = Arrays.copyOf(dist, 2 * dist.length);
      }
      dist[distCount++] = d;
    }
  }

  /**
   * {@code GreedyBySizeDistPriorityAssignment}, the shared-object form of GREEDY_BY_SIZE. Each
   * tensor's position is the rightmost positional maximum at least its size. Repeatedly, the
   * unassigned tensor of highest priority (leftmost position, then smallest positive distance
   * between its usage interval and those of an object's tensors, then largest size; ties by record
   * position) goes to the object at that smallest distance (growing it if needed), or to a new
   * object when no object is free over its interval; then the distances of the others are updated.
   */
  static Assignment greedyBySizeDistPriority(List<UsageRecord> records, Budget budget) {
    int n = records.size();
    long[] positionalMax =
        TaskProfiles.positionalMaximums(records, TaskProfiles.of(records, budget));
    SizeDistPriority[] info = new SizeDistPriority[n];
    for (int i = 0; i < n; i++) {
      SizeDistPriority p = new SizeDistPriority();
      p.tensorUsageId = i;
      p.tensorSize = records.get(i).size();
      // the first position whose maximum is below the size (positional maximums never increase,
      // so a binary search finds what the source's linear scan finds)
      int pos = 0;
      int hi = positionalMax.length;
      while (pos < hi) {
        int mid = (pos + hi) >>> 1;
        if (positionalMax[mid] >= p.tensorSize) {
          pos = mid + 1;
        } else {
          hi = mid;
        }
      }
      if (pos == 0) {
        throw new IllegalStateException("Variable pos must be positive.");
      }
      p.position = pos - 1;
      info[i] = p;
    }
    int[] ids = new int[n];
    Arrays.fill(ids, -1);
    List<Long> sizes = new ArrayList<>();
    for (int it = 0; it < n; it++) {
      poll(budget, it, "greedy-by-size (shared) at tensor " + it);
      int bestInfo = -1;
      for (int k = 0; k < n; k++) {
        if (ids[info[k].tensorUsageId] != -1) {
          continue;
        }
        if (bestInfo == -1 || info[k].before(info[bestInfo])) {
          bestInfo = k;
        }
      }
      int bestRec = info[bestInfo].tensorUsageId;
      int bestObj = info[bestInfo].bestObject;
      boolean newObject = false;
      if (info[bestInfo].bestDist == NOT_ASSIGNED) {
        newObject = true;
        bestObj = sizes.size();
        ids[bestRec] = bestObj;
        sizes.add(records.get(bestRec).size());
      } else {
        ids[bestRec] = bestObj;
        sizes.set(bestObj, Math.max(sizes.get(bestObj), records.get(bestRec).size()));
      }
      UsageRecord assigned = records.get(bestRec);
      for (int k = 0; k < n; k++) {
        SizeDistPriority p = info[k];
        int rec = p.tensorUsageId;
        if (ids[rec] != -1) {
          continue;
        }
        if (!newObject && p.dist[bestObj] == NOT_ASSIGNED) {
          continue;
        }
        UsageRecord r = records.get(rec);
        long dist = NOT_ASSIGNED;
        if (r.last() < assigned.first()) {
          dist = (long) assigned.first() - r.last();
        } else if (assigned.last() < r.first()) {
          dist = (long) r.first() - assigned.last();
        }
        if (newObject) {
          p.pushDist(dist);
        } else if (dist == NOT_ASSIGNED) {
          p.dist[bestObj] = NOT_ASSIGNED;
          if (p.bestObject == bestObj) {
            p.recalcBestDist();
          }
        } else {
          p.dist[bestObj] = Math.min(p.dist[bestObj], dist);
        }
        if (dist < p.bestDist) {
          p.bestDist = dist;
          p.bestObject = bestObj;
        }
      }
    }
    return new Assignment(ids, toArray(sizes));
  }

  /** {@code BestGreedy}: greedy-by-size (shared), replaced by greedy-by-breadth if smaller. */
  static Assignment bestGreedy(List<UsageRecord> records, Budget budget) {
    Assignment bySize = greedyBySizeDistPriority(records, budget);
    Assignment byBreadth = greedyByBreadth(records, budget);
    return byBreadth.totalSize() < bySize.totalSize() ? byBreadth : bySize;
  }

  /**
   * {@code MinCostFlowAssignment}: the {@code MinCostFlowSolver} of {@code
   * min_cost_flow_assignment.cc}. Left vertex {@code i} and right vertex {@code n + i} stand for
   * tensor {@code i}; the source feeds every left vertex (cost 0) and every right vertex (cost: the
   * tensor's size, a new object); left {@code j} reaches right {@code i} when {@code j}'s last task
   * precedes {@code i}'s first (cost: how much {@code i} would grow {@code j}'s object); every
   * right vertex drains to the sink. A min-cost max-flow by successive shortest paths, each found
   * with the source's level-synchronous queue (SPFA) in edge insertion order, is read back as
   * chains of saturated left→right edges: one shared object per chain.
   */
  static Assignment minCostFlow(List<UsageRecord> records, Budget budget) {
    long edges = reuseEdges(records);
    if (edges > MAX_REUSE_EDGES) {
      // one edge per pair of tensors that do not overlap in time: quadratic in the tensors
      throw new BudgetExhausted(
          "min-cost flow needs "
              + edges
              + " reuse edges, more than the memory cap of "
              + MAX_REUSE_EDGES);
    }
    MinCostFlow solver = new MinCostFlow(records, budget);
    solver.solve(budget);
    return solver.assignment();
  }

  /** The most left-to-right edges the min-cost flow graph may have (about 40 bytes each). */
  static final long MAX_REUSE_EDGES = 1L << 24;

  /** The number of left-to-right edges: pairs {@code (j, i)} with {@code j.last < i.first}. */
  static long reuseEdges(List<UsageRecord> records) {
    int n = records.size();
    int[] last = new int[n];
    for (int i = 0; i < n; i++) {
      last[i] = records.get(i).last();
    }
    Arrays.sort(last);
    long edges = 0;
    for (UsageRecord r : records) {
      // records whose last task precedes r's first one
      int lo = 0;
      int hi = n;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (last[mid] < r.first()) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      edges += lo;
    }
    return edges;
  }

  private static final class MinCostFlow {
    private final List<UsageRecord> records;
    private final int numTensors;
    private final int source;
    private final int sink;
    private int[] dst = new int[16];
    private int[] cap = new int[16];
    private long[] cost = new long[16];
    private int edgeCount;
    private final int[][] edgesFrom;
    private final int[] edgesFromCount;

    MinCostFlow(List<UsageRecord> records, Budget budget) {
      this.records = records;
      numTensors = records.size();
      source = 2 * numTensors;
      sink = source + 1;
      edgesFrom = new int[sink + 1][];
      edgesFromCount = new int[sink + 1];
      for (int v = 0; v <= sink; v++) {
        edgesFrom[v] = new int[4];
      }
      List<Integer> oldRecordIds = new ArrayList<>();
      PriorityQueue<InUse> inUse = objectsInUse();
      for (int i = 0; i < numTensors; i++) {
        UsageRecord r = records.get(i);
        while (!inUse.isEmpty() && inUse.peek().lastTask() < r.first()) {
          oldRecordIds.add(inUse.poll().objectId());
        }
        if (i % 256 == 0) {
          poll(budget, 0, "min-cost flow graph at tensor " + i);
        }
        inUse.add(new InUse(r.last(), i));
        addEdge(source, i, 1, 0);
        addEdge(rightTwin(i), sink, 1, 0);
        addEdge(source, rightTwin(i), 1, r.size());
        for (int old : oldRecordIds) {
          long c = Math.max(0, r.size() - records.get(old).size());
          addEdge(old, rightTwin(i), 1, c);
        }
      }
    }

    private int rightTwin(int v) {
      return v + numTensors;
    }

    private int leftTwin(int v) {
      return v - numTensors;
    }

    private boolean isRight(int v) {
      return v >= numTensors && v < 2 * numTensors;
    }

    /** An edge and its reverse; edge {@code e}'s reverse is {@code e ^ 1}. */
    private void addEdge(int src, int to, int capacity, long c) {
      if (edgeCount + 2 > dst.length) {
        int len = 2 * dst.length;
        dst = Arrays.copyOf(dst, len);
        cap = Arrays.copyOf(cap, len);
        cost = Arrays.copyOf(cost, len);
      }
      link(src, edgeCount);
      dst[edgeCount] = to;
      cap[edgeCount] = capacity;
      cost[edgeCount++] = c;
      link(to, edgeCount);
      dst[edgeCount] = src;
      cap[edgeCount] = 0;
      cost[edgeCount++] = -c;
    }

    private void link(int v, int edge) {
      if (edgesFromCount[v] == edgesFrom[v].length) {
        edgesFrom[v] = Arrays.copyOf(edgesFrom[v], 2 * edgesFrom[v].length);
      }
      edgesFrom[v][edgesFromCount[v]++] = edge;
    }

    void solve(Budget budget) {
      int vertices = sink + 1;
      int[] prevEdge = new int[vertices];
      long[] dist = new long[vertices];
      int[] lastItInQueue = new int[vertices];
      int[] cur = new int[vertices];
      int[] next = new int[vertices];
      long augmentations = 0;
      while (true) {
        poll(budget, augmentations, "min-cost flow after " + augmentations + " augmentations");
        Arrays.fill(dist, Long.MAX_VALUE);
        Arrays.fill(lastItInQueue, 0);
        int it = 1;
        int curSize = 0;
        cur[curSize++] = source;
        lastItInQueue[source] = it;
        dist[source] = 0;
        while (curSize > 0) {
          ++it;
          int nextSize = 0;
          for (int q = 0; q < curSize; q++) {
            int v = cur[q];
            for (int k = 0; k < edgesFromCount[v]; k++) {
              int e = edgesFrom[v][k];
              if (cap[e] > 0) {
                int u = dst[e];
                long newDist = dist[v] + cost[e];
                if (newDist < dist[u]) {
                  dist[u] = newDist;
                  prevEdge[u] = e;
                  if (lastItInQueue[u] != it) {
                    next[nextSize++] = u;
                    lastItInQueue[u] = it;
                  }
                }
              }
            }
          }
          int[] swap = cur;
          cur = next;
          next = swap;
          curSize = nextSize;
        }
        if (dist[sink] == Long.MAX_VALUE) {
          break;
        }
        for (int v = sink; v != source; ) {
          cap[prevEdge[v]]--;
          int rev = prevEdge[v] ^ 1;
          cap[rev]++;
          v = dst[rev];
        }
        augmentations++;
      }
    }

    Assignment assignment() {
      int[] ids = new int[numTensors];
      Arrays.fill(ids, -1);
      List<Long> sizes = new ArrayList<>();
      for (int k = 0; k < edgesFromCount[source]; k++) {
        int e = edgesFrom[source][k];
        if (cap[e] == 0 && isRight(dst[e])) {
          sizes.add(assignChain(leftTwin(dst[e]), sizes.size(), ids));
        }
      }
      return new Assignment(ids, toArray(sizes));
    }

    /**
     * {@code AssignTensorsToNewSharedObject}: gives {@code tensor} and every tensor reached from it
     * over saturated left→right edges the object {@code objectId}; returns their largest size. The
     * source recurses; an explicit stack visits the same tensors.
     */
    private long assignChain(int tensor, int objectId, int[] ids) {
      long max = 0;
      ArrayDeque<Integer> stack = new ArrayDeque<>();
      stack.push(tensor);
      ids[tensor] = objectId;
      while (!stack.isEmpty()) {
        int t = stack.pop();
        max = Math.max(max, records.get(t).size());
        for (int k = 0; k < edgesFromCount[t]; k++) {
          int e = edgesFrom[t][k];
          int v = dst[e];
          if (cap[e] == 0 && isRight(v) && ids[leftTwin(v)] == -1) {
            ids[leftTwin(v)] = objectId;
            stack.push(leftTwin(v));
          }
        }
      }
      return max;
    }
  }

  private static long[] toArray(List<Long> values) {
    long[] out = new long[values.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = values.get(i);
    }
    return out;
  }
}
