package io.github.memplan.baseline.tflite;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaOutcomes;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * TFLite's CPU arena planner: {@code ArenaPlanner::CalculateAllocations} over {@code
 * SimpleMemoryArena::Allocate} ({@code tensorflow/lite/arena_planner.cc}, {@code
 * tensorflow/lite/simple_memory_arena.cc}).
 *
 * <p>Order ({@code CreateTensorAllocationVector}): tensors that live through the whole inference
 * (allocated at node 0 and never deallocated: graph inputs kept for the whole run, see {@link
 * #wholeRun}) come first, by index; all others in non-increasing order of size, ties by first node.
 * Placement ({@code Allocate}): walking the allocations placed so far in order of offset, skipping
 * those whose node interval misses the tensor's, each gap between the highest end seen so far
 * (rounded up to the alignment) and the next allocation is a candidate; the tensor takes the
 * candidate with the smallest fit, else goes above the highest of them. The source measures a
 * candidate's fit from the unrounded end ({@code best_offset_fit = alloc.offset - current_offset})
 * but compares the rounded one against it; both quirks are kept. Zero-size tensors get offset 0 and
 * take no space.
 *
 * <p>Departures: ties the source's {@code std::sort} leaves open (same size and first node) are
 * broken by instance order; the source aligns every tensor to one {@code tensor_alignment}, here
 * each buffer uses its own alignment; buffers with a fixed offset are placed first, where they must
 * be (the source has none); TFLite's separate persistent arena ({@code kTfLiteArenaRwPersistent}:
 * op state, not graph tensors) has no counterpart; gaps are ignored. The source's in-place sharing
 * of an op's first input and output ({@code IdentifySharedTensors}) applies only where the instance
 * already merges those buffers (Reshape-like aliases of the GMEM builder).
 */
public final class TfliteArenaPlanner implements Planner<DsaInstance, DsaSolution> {

  /**
   * The tensors {@code CreateTensorAllocationVector} puts first: allocated at node 0 and never
   * deallocated. With the instance's program these are the buffers defined by an {@code Input} step
   * and read by the final {@code Return} step (graph inputs kept for the whole run); without one,
   * the buffers living {@code [0, horizon)}, which also counts a tensor defined at the first step
   * and last read by the last one (a departure only interval instances can cause).
   */
  static boolean[] wholeRun(DsaInstance instance, int horizon) {
    boolean[] whole = new boolean[instance.size()];
    var program = instance.programIfKnown();
    if (program.isEmpty()) {
      for (int i = 0; i < whole.length; i++) {
        Buffer b = instance.buffer(i);
        whole[i] = b.lower() == 0 && b.upper() == horizon;
      }
      return whole;
    }
    var steps = program.get().steps();
    java.util.Set<String> inputs = new java.util.HashSet<>();
    java.util.Set<String> returned = new java.util.HashSet<>();
    for (var step : steps) {
      if (step.kind().equals("Input")) {
        for (String v : step.outputs()) {
          inputs.add(program.get().bufferOf(v));
        }
      }
    }
    if (!steps.isEmpty() && steps.get(steps.size() - 1).kind().equals("Return")) {
      for (String v : steps.get(steps.size() - 1).inputs()) {
        returned.add(program.get().bufferOf(v));
      }
    }
    for (int i = 0; i < whole.length; i++) {
      String id = instance.buffer(i).id();
      whole[i] = inputs.contains(id) && returned.contains(id);
    }
    return whole;
  }

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    int n = instance.size();
    int horizon = instance.horizon();
    long[] offsets = new long[n];
    Arena arena = new Arena();
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Buffer b = instance.buffer(i);
      if (b.fixedOffset().isPresent()) {
        offsets[i] = b.fixedOffset().getAsLong();
        arena.place(offsets[i], b.size(), b.lower(), b.upper() - 1);
      } else {
        order.add(i);
      }
    }
    boolean[] whole = wholeRun(instance, horizon);
    order.sort(
        (x, y) -> {
          Buffer a = instance.buffer(x);
          Buffer b = instance.buffer(y);
          boolean wholeA = whole[x];
          boolean wholeB = whole[y];
          if (wholeA || wholeB) {
            return wholeA && wholeB ? Integer.compare(x, y) : wholeA ? -1 : 1;
          }
          if (a.size() != b.size()) {
            return Long.compare(b.size(), a.size());
          }
          if (a.lower() != b.lower()) {
            return Integer.compare(a.lower(), b.lower());
          }
          return Integer.compare(x, y);
        });
    for (int k = 0; k < order.size(); k++) {
      if (ctx.budget().exhausted(k)) {
        return Outcome.noSolution(
            OptionalLong.of(LowerBounds.maxLoad(instance)),
            "budget exhausted after placing " + k + " of " + order.size() + " buffers");
      }
      int i = order.get(k);
      Buffer b = instance.buffer(i);
      offsets[i] = arena.allocate(b.alignment(), b.size(), b.lower(), b.upper() - 1);
    }
    return DsaOutcomes.fromOffsets(instance, offsets, Map.of());
  }

  /** {@code SimpleMemoryArena}'s planning state: the active allocations, sorted by offset. */
  static final class Arena {
    private record Alloc(long offset, long size, int firstNode, int lastNode) {}

    private final List<Alloc> active = new ArrayList<>();
    private long highWaterMark;

    /**
     * {@code SimpleMemoryArena::Allocate}: the offset of a tensor of {@code size} bytes used from
     * node {@code firstNode} to node {@code lastNode} (inclusive).
     */
    long allocate(long alignment, long size, int firstNode, int lastNode) {
      if (size == 0) {
        return 0;
      }
      long bestOffset = -1;
      long bestOffsetFit = Long.MAX_VALUE;
      long currentOffset = 0;
      for (Alloc alloc : active) {
        if (alloc.lastNode() < firstNode || alloc.firstNode() > lastNode) {
          continue;
        }
        long alignedCurrentOffset = Alignment.up(currentOffset, alignment);
        if (alignedCurrentOffset + size <= alloc.offset()
            && alloc.offset() - alignedCurrentOffset < bestOffsetFit) {
          bestOffset = alignedCurrentOffset;
          bestOffsetFit = alloc.offset() - currentOffset;
        }
        currentOffset = Math.max(currentOffset, alloc.offset() + alloc.size());
        if (bestOffsetFit == 0) {
          break;
        }
      }
      if (bestOffset == -1) {
        bestOffset = Alignment.up(currentOffset, alignment);
      }
      place(bestOffset, size, firstNode, lastNode);
      return bestOffset;
    }

    /** Records an allocation (after every one at an offset not above it, like upper_bound). */
    void place(long offset, long size, int firstNode, int lastNode) {
      highWaterMark = Math.max(highWaterMark, offset + size);
      if (size == 0) {
        return;
      }
      int lo = 0;
      int hi = active.size();
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (active.get(mid).offset() <= offset) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      active.add(lo, new Alloc(offset, size, firstNode, lastNode));
    }

    long highWaterMark() {
      return highWaterMark;
    }
  }
}
