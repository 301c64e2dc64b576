package io.github.memplan.solvers.group.timefold;

import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.SliceRules;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the cut search needs to know about one problem: its base groups, the cost of each op run
 * alone and, for any op range of a base group, the cost of its cheapest valid group (empty when no
 * shape secs make it valid). Costs are under the problem's objective. Implementations memoise: the
 * search asks for the same range many times. Not thread-safe; one per solve.
 */
public interface RangeOracle {

  /** Number of ops in the order. */
  int size();

  /** The maximal runs of groupable ops, as {@code [first, last]} pairs, ascending. */
  List<int[]> baseGroups();

  /** Cost of op {@code op} run alone ("global layer"). */
  long globalCost(int op);

  /** Cost of the cheapest valid group of ops {@code first..last} ({@code first < last}). */
  OptionalLong groupCost(int first, int last);

  /** That group itself, with its secs, slices, timesteps and LMEM addresses. */
  Optional<Group> group(int first, int last);

  /** The slicing rules of every group it gives. */
  SliceRules rules();

  /** Id of the timestep method of every group it gives. */
  String timestepMethod();

  /**
   * {@code g} with its GDMA transfers moved to lower its cost (never costlier), or {@code g}
   * itself; an oracle that cannot move transfers answers {@code g}.
   */
  default Group withMoves(Group g) {
    return g;
  }

  /** Whether some range was answered empty because the budget ran out. */
  default boolean outOfBudget() {
    return false;
  }

  /** Counters for the outcome's statistics. */
  default Map<String, Long> stats() {
    return Map.of();
  }
}
