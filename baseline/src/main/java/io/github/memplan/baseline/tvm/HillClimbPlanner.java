package io.github.memplan.baseline.tvm;

import io.github.memplan.baseline.support.Lifetimes;
import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaOutcomes;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.IntSupplier;

/**
 * TVM USMP's {@code hill_climb} ({@code apache/tvm: src/tir/usmp/algo/hill_climb.cc}, {@code
 * HillClimbAllocator}, read at commit {@code 01e04237f9}): a local search over the placement order,
 * each order decoded by a first-fit greedy.
 *
 * <p><b>Decoder</b> ({@code greedy}): in the current order, each buffer starts at offset 0 and
 * walks up through its already-placed conflicts sorted by offset: a conflict moves it to {@code
 * round_up(conflict offset + size, conflict alignment)} when that is higher and the buffer, where
 * it stands, would reach into the conflict. It therefore stops in the lowest gap that fits, unlike
 * {@link UsmpGreedyPlanner}, which always goes on top. Under a bounded capacity, any placed
 * conflict whose rounded end leaves no room for the buffer below the capacity marks the buffer as
 * not fitting (it gets no space and is ignored by later buffers), as the source's per-conflict
 * {@code IsValidPlacement} check does.
 *
 * <p><b>Search</b> ({@code PlanMemory}): the initial order is {@code greedy_by_size}'s (size,
 * conflicts, name, each descending). For at most {@link #MAX_ATTEMPTS} attempts: decode; accept the
 * result if it is the first, or, when every buffer fits, if it is smaller than the last accepted
 * total, or else with probability {@code rnd() % 100 < 50 * (total - last) / total / attempt}
 * (integer arithmetic, so an equal total is never accepted); stop when an accepted total that fits
 * is at most the <em>memory pressure</em> (USMP passes the max load, {@code max_open_set_size} of
 * {@code extract_buffer_info.cc}); on rejection, undo the last swap and go back to the previous
 * decode. Then pick at random a buffer that sets the pool's high-water mark (among all such, in
 * order position), collect its <em>first-level</em> neighbours (its conflicts earlier in the order)
 * and <em>second-level</em> ones (for each of its conflicts, that conflict's conflicts earlier than
 * it, duplicates kept), and swap a random first-level buffer with a random second-level one (75%)
 * or another first-level one. The returned plan is the <em>last accepted</em> one, as in the
 * source, which is not always the best one seen. Statistics: {@code decodes}, {@code accepted},
 * {@code initial-peak} (the first decode's, -1 if it did not fit), {@code best-peak} (the best
 * accepted), {@code memory-pressure}; the message says why the search stopped.
 *
 * <p>Randomness: {@code rnd()} draws from the run's generator ({@link Rng#CONTEXT}, the default:
 * {@code nextInt() >>> 1}, in {@code [0, 2^31)}) or from glibc's {@code rand_r} with state 0
 * ({@link Rng#RAND_R}), which is what TVM calls on Linux, so that with it this planner follows
 * TVM's own trajectory; elsewhere TVM calls the unseeded {@code rand()}. Every call site and short
 * circuit of the source is kept, so the sequence of draws is the source's.
 *
 * <p>Departures: one pool, the instance's memory (USMP's pool candidates reduce to it); offsets are
 * further rounded to the buffer's own alignment (USMP buffers share one); buffers with a fixed
 * offset are placed before every decode, never move and never enter the neighbour lists; when only
 * such buffers set the high-water mark the search stops (no swap can lower it; the source has no
 * fixed buffers); zero-size buffers take offset 0 and are nobody's conflict; the second pick loops
 * at most {@value #PICK_GUARD} times (the source loops until the two picks differ, which always
 * happens but is not bounded); the budget is polled before every attempt and within long decodes,
 * and the number of attempts ({@code max-attempts}) and the memory pressure are parameters. Gaps
 * are not exploited.
 */
public final class HillClimbPlanner implements Planner<DsaInstance, DsaSolution> {

  /** The source's {@code _max_attempts}. */
  public static final int MAX_ATTEMPTS = 500;

  static final int PICK_GUARD = 10_000;

  /** Where {@code rnd()} draws from. */
  public enum Rng {
    /** The run's seeded generator from {@link SolveContext#random()}. */
    CONTEXT,
    /** glibc {@code rand_r} with state 0: TVM's sequence on Linux, the same for every seed. */
    RAND_R
  }

  private final int maxAttempts;
  private final OptionalLong memoryPressure;
  private final Rng rng;

  /** The source's settings: 500 attempts, the max load as memory pressure, the run's generator. */
  public HillClimbPlanner() {
    this(MAX_ATTEMPTS, OptionalLong.empty(), Rng.CONTEXT);
  }

  /**
   * @param maxAttempts decodes at most (the source: 500)
   * @param memoryPressure stop once an accepted plan's peak is at most this; empty for the max load
   *     over whole buffers, as USMP passes
   * @param rng where random draws come from
   */
  public HillClimbPlanner(int maxAttempts, OptionalLong memoryPressure, Rng rng) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("hill climb: max-attempts " + maxAttempts + " < 1");
    }
    this.maxAttempts = maxAttempts;
    this.memoryPressure = Objects.requireNonNull(memoryPressure, "memoryPressure");
    this.rng = Objects.requireNonNull(rng, "rng");
  }

  /** One decode: the offsets (-1 for a buffer that did not fit) and whether any did not fit. */
  private record Decode(long[] offsets, boolean couldNotFit) {}

  /** The scratch state of one run. */
  private static final class Run {
    final DsaInstance instance;
    final SolveContext ctx;
    final int[][] conflicts;
    final long capacity;
    final long[] base;
    final int[] scratch;
    final int[] sortScratch;
    final long[] packed;
    final long[] size;
    final long[] alignment;
    long steps;

    Run(DsaInstance instance, SolveContext ctx, int[][] conflicts, long[] base) {
      this.instance = instance;
      this.ctx = ctx;
      this.conflicts = conflicts;
      this.capacity = instance.capacity();
      this.base = base;
      int most = 0;
      for (int[] c : conflicts) {
        most = Math.max(most, c.length);
      }
      this.scratch = new int[most];
      this.sortScratch = new int[most];
      this.packed = new long[most];
      int n = instance.size();
      this.size = new long[n];
      this.alignment = new long[n];
      for (int i = 0; i < n; i++) {
        size[i] = instance.buffer(i).size();
        alignment[i] = instance.buffer(i).alignment();
      }
    }

    boolean fits(long offset, long size) {
      return size <= capacity - offset;
    }

    /** The source's {@code greedy}; null when the budget ran out during it. */
    Decode decode(int[] order) {
      long[] off = base.clone();
      boolean couldNotFit = false;
      for (int k = 0; k < order.length; k++) {
        if (++steps % Lifetimes.POLL_EVERY == 0 && ctx.budget().exhausted()) {
          return null;
        }
        int b = order[k];
        long bSize = size[b];
        int m = 0;
        for (int c : conflicts[b]) {
          if (off[c] >= 0) {
            scratch[m++] = c;
          }
        }
        Lifetimes.sortByKey(scratch, m, off, sortScratch, packed);
        boolean candidate = fits(0, bSize);
        long at = 0;
        for (int j = 0; j < m && candidate; j++) {
          int c = scratch[j];
          long next = Alignment.up(off[c] + size[c], alignment[c]);
          next = Alignment.up(next, alignment[b]);
          if (fits(next, bSize)) {
            if (next > at && at + bSize > off[c]) {
              at = next;
            }
          } else {
            candidate = false;
          }
        }
        if (candidate) {
          off[b] = at;
        } else {
          couldNotFit = true;
        }
      }
      return new Decode(off, couldNotFit);
    }

    /** The source's {@code find_highest}: the highest end of any placed buffer, -1 if none. */
    long highest(long[] off) {
      long top = -1;
      for (int i = 0; i < off.length; i++) {
        if (off[i] >= 0 && size[i] > 0) {
          top = Math.max(top, off[i] + size[i]);
        }
      }
      return top;
    }
  }

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    int n = instance.size();
    int[][] conflicts = Lifetimes.overlaps(instance, ctx.budget());
    if (conflicts == null) {
      return Outcome.noSolution(
          OptionalLong.empty(), "budget exhausted while listing overlapping lifetimes");
    }
    long[] base = new long[n];
    List<Integer> movable = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Buffer b = instance.buffer(i);
      if (b.fixedOffset().isPresent()) {
        base[i] = b.fixedOffset().getAsLong();
      } else if (b.size() == 0) {
        base[i] = 0;
      } else {
        base[i] = -1;
        movable.add(i);
      }
    }
    if (movable.isEmpty()) {
      return DsaOutcomes.fromOffsets(instance, base, Map.of());
    }
    movable.sort(
        UsmpGreedyPlanner.comparator(instance, conflicts, UsmpGreedyPlanner.Order.BY_SIZE));
    int[] order = movable.stream().mapToInt(Integer::intValue).toArray();
    int[] pos = new int[n];
    Arrays.fill(pos, -1);
    for (int p = 0; p < order.length; p++) {
      pos[order[p]] = p;
    }
    long desired = memoryPressure.orElseGet(() -> Lifetimes.wholeSizeMaxLoad(instance));
    IntSupplier rnd = rng == Rng.RAND_R ? new RandR(0)::next : () -> ctx.random().nextInt() >>> 1;
    Run run = new Run(instance, ctx, conflicts, base);
    long bound = LowerBounds.maxLoad(instance);

    int[] firstPos = new int[order.length];
    int[] secondPos = new int[Math.max(16, order.length)];
    int[] counts = new int[order.length];
    int[] top = new int[order.length];
    long totalSize = 0;
    int swapI1 = -1;
    int swapI2 = -1;
    long[] current = null;
    long[] result = null;
    int decodes = 0;
    int accepted = 0;
    long initialPeak = -1;
    long bestPeak = Long.MAX_VALUE;
    String stop = "max-attempts";
    for (int attempts = 0; attempts < maxAttempts; attempts++) {
      if (ctx.budget().exhausted(attempts)) {
        stop = "budget";
        break;
      }
      long[] rollback = current;
      Decode d = run.decode(order);
      if (d == null) {
        stop = "budget";
        break;
      }
      decodes++;
      current = d.offsets();
      long total = run.highest(current);
      if (total < 0) {
        return Outcome.failedToPlace(
            OptionalLong.empty(),
            "no buffer fits the capacity " + instance.capacity() + " (TVM: increase the pool)");
      }
      if (decodes == 1 && !d.couldNotFit()) {
        initialPeak = total;
      }
      boolean accept;
      if (totalSize == 0) {
        accept = true;
      } else if (d.couldNotFit()) {
        accept = false;
      } else if (totalSize > total) {
        accept = true;
      } else {
        accept = rnd.getAsInt() % 100 < (int) worsening(total, totalSize, attempts);
      }
      if (accept) {
        accepted++;
        result = current;
        if (!d.couldNotFit()) {
          if (total < bestPeak) {
            bestPeak = total;
            ctx.progress().improved(total, bound, "hill-climb attempt " + attempts);
          }
          totalSize = total;
          if (totalSize <= desired) {
            stop = "memory-pressure";
            break;
          }
        }
      } else {
        swap(order, pos, swapI2, swapI1);
        current = rollback;
      }
      long poolSize = run.highest(current);
      int nTop = 0;
      for (int p = 0; p < order.length; p++) {
        int b = order[p];
        if (current[b] >= 0 && current[b] + run.size[b] == poolSize) {
          top[nTop++] = b;
        }
      }
      if (nTop == 0) {
        stop = "fixed-top";
        break;
      }
      int node = top[rnd.getAsInt() % nTop];
      // the neighbour lists hold order positions, so that sorting them is sorting by position
      int nFirst = 0;
      int nSecond = 0;
      for (int c1 : conflicts[node]) {
        if (pos[c1] < 0) {
          continue;
        }
        if (pos[node] > pos[c1]) {
          firstPos[nFirst++] = pos[c1];
        }
        for (int c2 : conflicts[c1]) {
          if (pos[c2] >= 0 && pos[c1] > pos[c2]) {
            if (nSecond == secondPos.length) {
              secondPos = Arrays.copyOf(secondPos, 2 * secondPos.length);
            }
            secondPos[nSecond++] = pos[c2];
          }
        }
      }
      Arrays.sort(firstPos, 0, nFirst);
      countingSort(secondPos, nSecond, counts);
      if (nFirst == 0) {
        continue;
      }
      int swap1 = order[firstPos[rnd.getAsInt() % nFirst]];
      int swap2 = swap1;
      for (int guard = 0; swap2 == swap1 && guard < PICK_GUARD; guard++) {
        boolean fromSecond = nSecond > 0 && rnd.getAsInt() % 100 > 25;
        swap2 =
            fromSecond
                ? order[secondPos[rnd.getAsInt() % nSecond]]
                : order[firstPos[rnd.getAsInt() % nFirst]];
        if (nSecond < 2 && nFirst < 2) {
          break;
        }
      }
      if (swap1 == swap2) {
        continue;
      }
      swapI1 = pos[swap1];
      swapI2 = pos[swap2];
      swap(order, pos, swapI1, swapI2);
    }
    if (result == null) {
      return Outcome.noSolution(OptionalLong.empty(), "budget exhausted before the first decode");
    }
    for (int i = 0; i < n; i++) {
      if (result[i] < 0) {
        return Outcome.failedToPlace(
            OptionalLong.empty(),
            "buffer '"
                + instance.buffer(i).id()
                + "' does not fit the capacity "
                + instance.capacity()
                + " in the last accepted plan (TVM: increase the pool)");
      }
    }
    Map<String, Number> stats = new TreeMap<>();
    stats.put("decodes", decodes);
    stats.put("accepted", accepted);
    stats.put("initial-peak", initialPeak);
    stats.put("best-peak", bestPeak == Long.MAX_VALUE ? -1 : bestPeak);
    stats.put("memory-pressure", desired);
    return DsaOutcomes.fromOffsets(instance, result, stats).withMessage("stopped: " + stop);
  }

  /**
   * {@code 50 * (total - last) / total / attempts} in integer arithmetic ({@code total >= last >=
   * 0}), exact even where {@code 50 * (total - last)} would not fit 64 bits.
   */
  static long worsening(long total, long last, int attempts) {
    long delta = total - last;
    long scaled =
        delta <= Long.MAX_VALUE / 50
            ? 50 * delta / total
            : BigInteger.valueOf(delta)
                .multiply(BigInteger.valueOf(50))
                .divide(BigInteger.valueOf(total))
                .longValueExact();
    return scaled / attempts;
  }

  /**
   * Sorts the positions {@code a[0 .. len)}, each in {@code [0, counts.length)}, by counting;
   * {@code counts} must be all zero and is left so.
   */
  static void countingSort(int[] a, int len, int[] counts) {
    for (int i = 0; i < len; i++) {
      counts[a[i]]++;
    }
    int k = 0;
    for (int p = 0; k < len; p++) {
      for (; counts[p] > 0; counts[p]--) {
        a[k++] = p;
      }
    }
  }

  /** The source's {@code swap_buffers}: exchanges order positions {@code i1} and {@code i2}. */
  private static void swap(int[] order, int[] pos, int i1, int i2) {
    if (i1 == i2) {
      return;
    }
    int b1 = order[i1];
    int b2 = order[i2];
    order[i1] = b2;
    order[i2] = b1;
    pos[b1] = i2;
    pos[b2] = i1;
  }
}
