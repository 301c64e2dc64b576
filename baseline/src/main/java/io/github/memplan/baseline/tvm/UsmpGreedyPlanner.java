package io.github.memplan.baseline.tvm;

import io.github.memplan.baseline.support.Lifetimes;
import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaOutcomes;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * TVM USMP's {@code greedy_by_size} and {@code greedy_by_conflicts} ({@code apache/tvm:
 * src/tir/usmp/algo/greedy.cc}, {@code GreedySize}, {@code GreedyConflicts} and {@code
 * GreedyBase::PostSortAllocation}, read at commit {@code b3f39b4c7b}; conflicts as built by {@code
 * src/tir/usmp/analysis/extract_buffer_info.cc}: two buffers conflict when their lifetimes
 * overlap).
 *
 * <p>The buffers are sorted once and placed in that order. {@link Order#BY_SIZE}: size descending,
 * then number of conflicts descending, then name <em>descending</em> (the source's {@code
 * std::string} comparison {@code a > b}). {@link Order#BY_CONFLICTS}: conflicts descending, then
 * size descending, then name descending. Each buffer then goes <em>on top of every conflicting
 * buffer already placed</em>: its offset is the largest {@code round_up(offset + size, alignment)}
 * over its placed conflicts (rounded with the conflict's alignment, as the source does), or 0. No
 * gap below a placed conflict is ever filled, even one the buffer would fit: this is what sets
 * these two planners apart from first-fit and best-fit planners, and why TVM's own MobileNet v1
 * test plans 4.85 MB with {@code greedy_by_size} against 3.24 MB with {@code hill_climb}.
 *
 * <p>Departures: one pool (the instance's memory; USMP's pool candidates and size hints reduce to
 * it); the capacity is checked on the finished plan (a peak above it is reported as no solution,
 * which is where the source stops with "the space available in the provided pools exceeded"; the
 * source also re-creates an erased pool candidate from a later conflict and can then overlap a
 * conflict that ended past the pool, which is not reproduced); the offset is further rounded up to
 * the buffer's own alignment (USMP buffers share one alignment, so this changes nothing there);
 * buffers with a fixed offset keep it and count as placed conflicts from the start; zero-size
 * buffers take offset 0 and are nobody's conflict. Gaps are not exploited.
 */
public final class UsmpGreedyPlanner implements Planner<DsaInstance, DsaSolution> {

  /** The sort order of the two USMP greedy algorithms. */
  public enum Order {
    /** {@code greedy_by_size}: size, then conflicts, then name, each descending. */
    BY_SIZE,
    /** {@code greedy_by_conflicts}: conflicts, then size, then name, each descending. */
    BY_CONFLICTS
  }

  private final Order order;

  public UsmpGreedyPlanner(Order order) {
    this.order = Objects.requireNonNull(order, "order");
  }

  public Order order() {
    return order;
  }

  /**
   * The source's sort of {@code indices} (buffers with bytes): by size then conflicts, or conflicts
   * then size, then name, all descending.
   */
  static Comparator<Integer> comparator(DsaInstance instance, int[][] conflicts, Order order) {
    Comparator<Integer> bySize =
        Comparator.<Integer>comparingLong(i -> instance.buffer(i).size()).reversed();
    Comparator<Integer> byConflicts =
        Comparator.<Integer>comparingInt(i -> conflicts[i].length).reversed();
    Comparator<Integer> byNameDescending =
        (a, b) -> Lifetimes.compareNames(instance.buffer(b).id(), instance.buffer(a).id());
    Comparator<Integer> first = order == Order.BY_SIZE ? bySize : byConflicts;
    Comparator<Integer> second = order == Order.BY_SIZE ? byConflicts : bySize;
    return first.thenComparing(second).thenComparing(byNameDescending);
  }

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    int n = instance.size();
    int[][] conflicts = Lifetimes.overlaps(instance, ctx.budget());
    if (conflicts == null) {
      return Outcome.noSolution(
          OptionalLong.empty(), "budget exhausted while listing overlapping lifetimes");
    }
    long[] offsets = new long[n];
    boolean[] placed = new boolean[n];
    List<Integer> toPlace = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Buffer b = instance.buffer(i);
      if (b.fixedOffset().isPresent()) {
        offsets[i] = b.fixedOffset().getAsLong();
        placed[i] = b.size() > 0;
      } else if (b.size() > 0) {
        toPlace.add(i);
      }
    }
    toPlace.sort(comparator(instance, conflicts, order));
    for (int k = 0; k < toPlace.size(); k++) {
      if (Lifetimes.stop(ctx.budget(), k)) {
        return Outcome.noSolution(
            OptionalLong.empty(),
            "budget exhausted after " + k + " of " + toPlace.size() + " buffers");
      }
      int i = toPlace.get(k);
      Buffer b = instance.buffer(i);
      long offset = 0;
      for (int c : conflicts[i]) {
        if (placed[c]) {
          Buffer cb = instance.buffer(c);
          long next = Alignment.up(offsets[c] + cb.size(), cb.alignment());
          offset = Math.max(offset, Alignment.up(next, b.alignment()));
        }
      }
      offsets[i] = offset;
      placed[i] = true;
    }
    return DsaOutcomes.fromOffsets(instance, offsets, Map.of("placed", toPlace.size()));
  }
}
