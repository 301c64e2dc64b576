package io.github.memplan.baseline.tflite;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaOutcomes;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The shared-object form of a TFLite GPU delegate memory strategy: {@code AssignObjectsToTensors}
 * followed by {@code ObjectsToOffsets} ({@code
 * tensorflow/lite/delegates/gpu/common/memory_management.cc}). The strategy assigns each tensor to
 * a shared object (see {@link GpuStrategy} and the methods of {@code SharedObjects}, which cite
 * each file); an object is as large as its largest tensor, and the objects are laid side by side in
 * object-id order, so the peak is the sum of the object sizes. For every strategy but
 * GREEDY_BY_SIZE this is also what the delegate's offset API, {@code AssignOffsetsToTensors},
 * returns; GREEDY_BY_SIZE's offset form is {@link TfliteGreedyBySizePlanner}.
 *
 * <p>Departures: the records are the instance's buffers in order of first use, ties by instance
 * order (the delegate builds them per tensor; the in-order, equality and min-cost-flow strategies
 * assume first-use order); {@code std::sort} ties are broken by that order; an object's offset is
 * rounded up to the least common multiple of its tensors' alignments ({@code ObjectsToOffsets} has
 * no alignment); consecutive tasks with the same live tensors are merged (see {@code
 * TaskProfiles}), which changes no result; gaps are ignored (a buffer occupies its whole size over
 * its lifetime); fixed offsets are refused. GREEDY_IN_ORDER runs without the optional reallocation
 * graph.
 */
public final class TfliteSharedObjectsPlanner implements Planner<DsaInstance, DsaSolution> {
  private final GpuStrategy strategy;

  public TfliteSharedObjectsPlanner(GpuStrategy strategy) {
    this.strategy = Objects.requireNonNull(strategy, "strategy");
  }

  public GpuStrategy strategy() {
    return strategy;
  }

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    List<UsageRecord> records = UsageRecord.inFirstUseOrder(instance, strategy.plannerId());
    SharedObjects.Assignment assignment;
    try {
      assignment = SharedObjects.run(strategy, records, ctx.budget());
    } catch (SharedObjects.BudgetExhausted e) {
      return Outcome.noSolution(
          OptionalLong.of(LowerBounds.maxLoad(instance)), "budget exhausted: " + e.getMessage());
    }
    long[] offsets = toOffsets(records, assignment, instance.size());
    return DsaOutcomes.fromOffsets(
        instance, offsets, Map.of("objects", assignment.objectSizes().length));
  }

  /**
   * {@code ObjectsToOffsets}: object {@code k} starts where object {@code k - 1} ends (rounded up
   * to the alignments of its tensors); each tensor takes its object's offset.
   */
  static long[] toOffsets(
      List<UsageRecord> records, SharedObjects.Assignment assignment, int instanceSize) {
    int objects = assignment.objectSizes().length;
    long[] alignment = new long[objects];
    java.util.Arrays.fill(alignment, 1);
    for (int pos = 0; pos < records.size(); pos++) {
      int obj = assignment.objectIds()[pos];
      alignment[obj] =
          Alignment.lcm(
              alignment[obj], records.get(pos).alignment(), "tflite shared object " + obj);
    }
    long[] objectOffset = new long[objects];
    long total = 0;
    for (int k = 0; k < objects; k++) {
      total = Alignment.up(total, alignment[k]);
      objectOffset[k] = total;
      total = Math.addExact(total, assignment.objectSizes()[k]);
    }
    long[] offsets = new long[instanceSize];
    for (int pos = 0; pos < records.size(); pos++) {
      offsets[records.get(pos).index()] = objectOffset[assignment.objectIds()[pos]];
    }
    return offsets;
  }
}
