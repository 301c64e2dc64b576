package io.github.memplan.solvers.group.timefold;

import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.SliceRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A hand-made {@link RangeOracle} for the search's tests: base groups, global costs and a table of
 * group costs (ranges absent from the table are invalid). It counts the distinct ranges asked for.
 */
final class TableOracle implements RangeOracle {
  private final int size;
  private final List<int[]> bases;
  private final long[] global;
  private final Map<Long, Long> table = new TreeMap<>();
  final java.util.Set<Long> asked = new java.util.TreeSet<>();

  TableOracle(int size, List<int[]> bases, long[] global) {
    this.size = size;
    this.bases = bases;
    this.global = global.clone();
  }

  /** Sets the cost of the group {@code first..last}. */
  TableOracle with(int first, int last, long cost) {
    table.put(key(first, last), cost);
    return this;
  }

  /**
   * One base group of {@code n} ops with global cost 10 each; a group of k ops costs {@code 10k -
   * saving} with a seeded saving in [-5, 5k]. Ranges of more than {@code maxLen} ops are invalid
   * (as LMEM would refuse them), and so are ranges across a few seeded boundaries (as slicing would
   * refuse two ops together): like the real rules, every sub-range of a valid range is valid.
   */
  static TableOracle random(int n, int maxLen, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] g = new long[n];
    java.util.Arrays.fill(g, 10);
    TableOracle o = new TableOracle(n, List.of(new int[] {0, n - 1}), g);
    boolean[] blocked = new boolean[n];
    for (int i = 0; i < n; i++) {
      blocked[i] = r.nextInt(8) == 0;
    }
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n && j - i + 1 <= maxLen && !blocked[j - 1]; j++) {
        int k = j - i + 1;
        o.with(i, j, 10L * k - (r.nextLong(5L * k + 6) - 5));
      }
    }
    return o;
  }

  private long key(int first, int last) {
    return (long) first * size + last;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public List<int[]> baseGroups() {
    return bases;
  }

  @Override
  public long globalCost(int op) {
    return global[op];
  }

  @Override
  public OptionalLong groupCost(int first, int last) {
    asked.add(key(first, last));
    Long c = table.get(key(first, last));
    return c == null ? OptionalLong.empty() : OptionalLong.of(c);
  }

  @Override
  public SliceRules rules() {
    return SliceRules.TODAY;
  }

  @Override
  public String timestepMethod() {
    return "today";
  }

  @Override
  public Optional<Group> group(int first, int last) {
    throw new UnsupportedOperationException("a cost table has no groups");
  }

  /**
   * The cheapest total cost over all cuts of every base group, by brute force, with its runs;
   * invalid runs count as their ops run alone (what the planner returns for them).
   */
  long bruteForce(List<Run> bestRuns) {
    long total = 0;
    for (long g : global) {
      total += g;
    }
    for (int[] b : bases) {
      int m = b[1] - b[0]; // boundaries
      long bestSaving = Long.MIN_VALUE;
      List<Run> best = null;
      for (int mask = 0; mask < (1 << m); mask++) { // bit set: joined
        List<Run> runs = new ArrayList<>();
        long saving = 0;
        int i = 0;
        while (i < m) {
          if ((mask >> i & 1) == 0) {
            i++;
            continue;
          }
          int j = i;
          while (j < m && (mask >> j & 1) == 1) {
            j++;
          }
          Run run = new Run(b[0] + i, b[0] + j);
          Long c = table.get(key(run.first(), run.last()));
          if (c != null) {
            long gs = 0;
            for (int k = run.first(); k <= run.last(); k++) {
              gs += global[k];
            }
            saving += gs - c;
            runs.add(run);
          }
          i = j;
        }
        if (saving > bestSaving) {
          bestSaving = saving;
          best = runs;
        }
      }
      total -= bestSaving;
      bestRuns.addAll(best);
    }
    return total;
  }
}
