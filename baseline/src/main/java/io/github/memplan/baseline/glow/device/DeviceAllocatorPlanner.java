package io.github.memplan.baseline.glow.device;

import io.github.memplan.core.device.DeviceProblem;
import io.github.memplan.core.device.DeviceRun;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.OptionalLong;

/**
 * One device allocator of {@link DeviceAllocators} as a planner: replays the problem's trace with a
 * fresh allocator on the problem's layout in {@link DeviceSimulator} and returns the run, always
 * {@code FEASIBLE} (a refused request is part of the run, counted by its metrics, not a failure of
 * the planner). Follows the seed {@code glow-esperanto-memory-management.rst} as {@link
 * DeviceAllocators} and {@link DeviceSimulator} say, with their departures.
 *
 * <p>No lower bound: a device run has no single objective but several counts (networks and
 * inferences served, failures, peak live and held bytes, fragmentation), and which requests are
 * served depends on the allocator, so no bound holds for every allocator on the same trace; the
 * outcome's bound is empty.
 *
 * <p>The budget is not polled: the replay is deterministic and linear in the trace's events (a
 * generated serving trace replays in milliseconds), and a prefix of a replay is not a run of the
 * trace. The seed and the random generator are not used.
 */
public final class DeviceAllocatorPlanner implements Planner<DeviceProblem, DeviceRun> {
  private final String id;

  /**
   * @param id an allocator id of {@link DeviceAllocators#IDS}
   */
  public DeviceAllocatorPlanner(String id) {
    if (!DeviceAllocators.IDS.contains(id)) {
      throw new IllegalArgumentException(
          "unknown allocator '"
              + id
              + "' (known: "
              + String.join(", ", DeviceAllocators.IDS)
              + ")");
    }
    this.id = id;
  }

  @Override
  public Outcome<DeviceRun> solve(DeviceProblem problem, SolveContext ctx) {
    DeviceRun run =
        DeviceSimulator.run(problem.trace(), DeviceAllocators.create(id, problem.layout()));
    return Outcome.feasible(run, OptionalLong.empty());
  }
}
