package io.github.memplan.core.lmem;

import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Status;
import io.github.memplan.core.solve.Violation;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** Builds honest outcomes for LMEM planners. */
public final class LmemOutcomes {
  private LmemOutcomes() {}

  private static final LmemValidator VALIDATOR = new LmemValidator();

  /**
   * The outcome of a heuristic that placed every buffer at {@code addresses}, checked by {@link
   * LmemValidator} first: {@link Status#ERROR} naming the first violation if it fails (a planner
   * bug must not leave the planner), else {@link Status#FEASIBLE} with the bound {@link
   * LmemLowerBounds#maxLive}. Never {@code OPTIMAL}: a peak equal to the bound proves the peak
   * optimal, but the bank preferences are part of the problem and a heuristic proves nothing about
   * them. The bank counts are added to the statistics.
   */
  public static Outcome<LmemSolution> fromAddresses(
      LmemInstance instance, long[] addresses, Map<String, ? extends Number> stats) {
    LmemSolution solution = new LmemSolution(addresses);
    List<Violation> violations = VALIDATOR.validate(instance, solution);
    if (!violations.isEmpty()) {
      return Outcome.<LmemSolution>error(
              "invalid placement of '"
                  + instance.name()
                  + "' ("
                  + violations.size()
                  + " violations), first: "
                  + violations.get(0))
          .withStats(stats);
    }
    LmemBanks.Report banks = LmemBanks.report(instance, solution);
    return Outcome.feasible(solution, OptionalLong.of(LmemLowerBounds.maxLive(instance)))
        .withStats(stats)
        .withStats(
            Map.of(
                "bank-conflicts", banks.conflictCount(), "bank-straddles", banks.straddleCount()));
  }

  /**
   * The outcome of a heuristic that found no placement: {@link Status#INFEASIBLE} when {@link
   * LmemLowerBounds#maxLive} exceeds the capacity (that proves it), else {@link
   * Status#FAILED_TO_PLACE} (as the greedy DSA baselines report running out of capacity: nothing
   * found, nothing proved, and not for lack of time), with the bound.
   */
  public static Outcome<LmemSolution> failed(
      LmemInstance instance, String why, Map<String, ? extends Number> stats) {
    return unplaced(instance, why, stats, Status.FAILED_TO_PLACE);
  }

  /**
   * The outcome of a search whose budget ended before it found a placement: {@link
   * Status#INFEASIBLE} when {@link LmemLowerBounds#maxLive} exceeds the capacity, else {@link
   * Status#NO_SOLUTION_IN_BUDGET}, with the bound.
   */
  public static Outcome<LmemSolution> searchEnded(
      LmemInstance instance, String why, Map<String, ? extends Number> stats) {
    return unplaced(instance, why, stats, Status.NO_SOLUTION_IN_BUDGET);
  }

  private static Outcome<LmemSolution> unplaced(
      LmemInstance instance, String why, Map<String, ? extends Number> stats, Status otherwise) {
    long lb = LmemLowerBounds.maxLive(instance);
    boolean proven = lb > instance.capacity();
    return new Outcome<LmemSolution>(
            proven ? Status.INFEASIBLE : otherwise,
            null,
            OptionalLong.of(lb),
            Map.of(),
            proven
                ? why + "; the live bytes " + lb + " exceed the capacity " + instance.capacity()
                : why)
        .withStats(stats);
  }
}
