package io.github.memplan.baseline.tflite;

import io.github.memplan.core.solve.Budget;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code CalculateTaskProfiles} and {@code CalculatePositionalMaximums} of {@code
 * tensorflow/lite/delegates/gpu/common/memory_management/internal.cc}: for each task, the records
 * alive during it, in non-increasing order of size.
 *
 * <p>The source keeps one profile per task {@code 0 .. max(last_task)}; DSA instances can span a
 * million timesteps (MiniMalloc's suite), so consecutive tasks with the same live records are
 * merged into one profile and tasks where nothing is alive are dropped. Both strategies that read
 * profiles get the same answer: positional maximums are maxima over profiles (duplicates change
 * nothing), and in greedy-by-breadth every task after the first of a run of equal profiles finds
 * all its tensors assigned already.
 */
final class TaskProfiles {
  private TaskProfiles() {}

  /**
   * The distinct profiles in task order; each holds positions in {@code records}, sorted by
   * decreasing size, ties by position (the source's {@code std::sort} leaves ties unspecified).
   */
  static List<int[]> of(List<UsageRecord> records) {
    return of(records, Budget.unlimited());
  }

  /**
   * {@link #of(List)}, polling {@code budget} once per segment: throws {@link
   * SharedObjects.BudgetExhausted} when it runs out.
   */
  static List<int[]> of(List<UsageRecord> records, Budget budget) {
    int n = records.size();
    int[] points = new int[2 * n];
    for (int i = 0; i < n; i++) {
      points[2 * i] = records.get(i).first();
      points[2 * i + 1] = records.get(i).last() + 1;
    }
    Arrays.sort(points);
    int m = 0;
    for (int i = 0; i < points.length; i++) {
      if (m == 0 || points[m - 1] != points[i]) {
        points[m++] = points[i];
      }
    }
    int segments = Math.max(0, m - 1);
    int[] count = new int[segments];
    int[] from = new int[n];
    int[] to = new int[n];
    for (int i = 0; i < n; i++) {
      UsageRecord r = records.get(i);
      from[i] = Arrays.binarySearch(points, 0, m, r.first());
      to[i] = Arrays.binarySearch(points, 0, m, r.last() + 1);
      for (int s = from[i]; s < to[i]; s++) {
        count[s]++;
      }
      if (i % 256 == 255 && budget.exhausted()) {
        throw new SharedObjects.BudgetExhausted("task profiles at record " + i);
      }
    }
    int[][] members = new int[segments][];
    for (int s = 0; s < segments; s++) {
      members[s] = new int[count[s]];
      count[s] = 0;
    }
    for (int i = 0; i < n; i++) {
      if (i % 256 == 255 && budget.exhausted()) {
        throw new SharedObjects.BudgetExhausted("task profiles at record " + i);
      }
      for (int s = from[i]; s < to[i]; s++) {
        members[s][count[s]++] = i;
      }
    }
    // one global order by decreasing size, ties by position: each profile sorts by rank in it
    Integer[] byRank = new Integer[n];
    for (int i = 0; i < n; i++) {
      byRank[i] = i;
    }
    Arrays.sort(
        byRank,
        (a, b) ->
            records.get(a).size() != records.get(b).size()
                ? Long.compare(records.get(b).size(), records.get(a).size())
                : Integer.compare(a, b));
    int[] rank = new int[n];
    for (int k = 0; k < n; k++) {
      rank[byRank[k]] = k;
    }
    List<int[]> out = new ArrayList<>();
    long work = 0;
    for (int s = 0; s < segments; s++) {
      int[] seg = members[s];
      if (seg.length == 0) {
        continue;
      }
      work += seg.length;
      if (work >= 1 << 16) {
        work = 0;
        if (budget.exhausted()) {
          throw new SharedObjects.BudgetExhausted("task profiles at segment " + s);
        }
      }
      for (int k = 0; k < seg.length; k++) {
        seg[k] = rank[seg[k]];
      }
      Arrays.sort(seg);
      for (int k = 0; k < seg.length; k++) {
        seg[k] = byRank[seg[k]];
      }
      out.add(seg);
    }
    return out;
  }

  /**
   * {@code CalculatePositionalMaximums}: element {@code i} is the largest {@code i}-th largest size
   * over all tasks, a lower bound on the size of the {@code i}-th shared object.
   */
  static long[] positionalMaximums(List<UsageRecord> records, List<int[]> profiles) {
    long[] max = new long[0];
    int len = 0;
    for (int[] profile : profiles) {
      if (profile.length > max.length) {
        max = Arrays.copyOf(max, Math.max(profile.length, 2 * max.length));
      }
      for (int i = 0; i < profile.length; i++) {
        long size = records.get(profile[i]).size();
        max[i] = i < len ? Math.max(max[i], size) : size;
      }
      len = Math.max(len, profile.length);
    }
    return Arrays.copyOf(max, len);
  }
}
