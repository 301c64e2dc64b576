package io.github.memplan.baseline.ort;

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
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * ONNX Runtime's sequential allocation planner ({@code microsoft/onnxruntime:
 * onnxruntime/core/framework/allocation_planner.cc}, {@code PlannerImpl::ComputeReusePlan}, {@code
 * FindReusableTensor}, {@code Reuse}): buffers are shared objects, reused only at exactly the same
 * size, never placed by offset.
 *
 * <p>Walking the steps in order, each step first plans the buffers it defines (those born at it, in
 * instance order): {@code FindReusableTensor} scans the free list <em>from its front</em> and takes
 * the first freed buffer of exactly the same size; otherwise the buffer is a new allocation ({@code
 * AllocKind::kAllocate}). Then the buffers whose use count drops to zero are pushed <em>to the
 * front</em> of the free list ({@code freelist_.push_front}): first the step's inputs read for the
 * last time (here: the buffers alive before the step whose last step it is, in instance order, for
 * ONNX Runtime's operand order), then its outputs nobody reads (born and dead at the step). The
 * free list is therefore last-in first-out: the most recently freed buffer of the right size is
 * reused. A buffer even one byte smaller or larger than every free one gets new memory.
 *
 * <p>In-place reuse ({@code FindReusableInput}, {@code AllocKind::kReuse}) is what the instance's
 * program records as aliases: the outputs of steps marked in place share their input's buffer.
 *
 * <p><b>Result</b>: each allocation is an object as large as its first buffer (all its buffers have
 * that size), laid side by side in creation order on the least common multiple of its buffers'
 * alignments, so the peak is the sum of the allocations.
 *
 * <p>Departures: ONNX Runtime compares element size and shape ({@code SameSize}: same element size
 * and {@code SameShape}); an instance knows only bytes, so equal byte sizes match (every pair ONNX
 * Runtime matches has equal bytes; the converse can fail, e.g. shapes {@code [2,3]} and {@code
 * [3,2]}). Memory locations, fences, optional types, scalars and the memory-pattern arena planner
 * ({@code mem_pattern_planner.h}) are not modelled. Buffers with a fixed offset keep it and the
 * allocations start above the highest of them; zero-size buffers take offset 0 and no allocation.
 * Gaps are not exploited.
 */
public final class ExactSizeReusePlanner implements Planner<DsaInstance, DsaSolution> {

  private static final class Allocation {
    final long size;
    long alignment = 1;
    long offset;

    Allocation(long size) {
      this.size = size;
    }
  }

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    int n = instance.size();
    long[] offsets = new long[n];
    List<Integer> defs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Buffer b = instance.buffer(i);
      if (b.fixedOffset().isPresent()) {
        offsets[i] = b.fixedOffset().getAsLong();
      } else if (b.size() > 0) {
        defs.add(i);
      }
    }
    List<Integer> frees = new ArrayList<>(defs);
    defs.sort(
        Comparator.<Integer>comparingInt(i -> instance.buffer(i).lower()).thenComparing(i -> i));
    // at one step: the inputs read for the last time (born earlier) before the unread outputs
    frees.sort(
        Comparator.<Integer>comparingInt(i -> instance.buffer(i).upper())
            .thenComparing(i -> instance.buffer(i).lower() == instance.buffer(i).upper() - 1)
            .thenComparing(i -> i));

    List<Allocation> allocations = new ArrayList<>();
    LinkedList<Allocation> freelist = new LinkedList<>();
    Allocation[] allocationOf = new Allocation[n];
    int reused = 0;
    int d = 0;
    int f = 0;
    while (f < frees.size()) {
      int t =
          d < defs.size()
              ? Math.min(instance.buffer(defs.get(d)).lower(), lastStep(instance, frees.get(f)))
              : lastStep(instance, frees.get(f));
      for (; d < defs.size() && instance.buffer(defs.get(d)).lower() == t; d++) {
        if (Lifetimes.stop(ctx.budget(), d)) {
          return Outcome.noSolution(
              OptionalLong.empty(), "budget exhausted after " + d + " of " + defs.size());
        }
        int i = defs.get(d);
        Buffer b = instance.buffer(i);
        Allocation a = null;
        for (Iterator<Allocation> it = freelist.iterator(); it.hasNext(); ) {
          Allocation candidate = it.next();
          if (candidate.size == b.size()) {
            it.remove();
            a = candidate;
            break;
          }
        }
        if (a == null) {
          a = new Allocation(b.size());
          allocations.add(a);
        } else {
          reused++;
        }
        a.alignment = Alignment.lcm(a.alignment, b.alignment(), "buffer '" + b.id() + "'");
        allocationOf[i] = a;
      }
      for (; f < frees.size() && lastStep(instance, frees.get(f)) == t; f++) {
        freelist.addFirst(allocationOf[frees.get(f)]);
      }
    }
    long cursor = Lifetimes.fixedTop(instance);
    for (Allocation a : allocations) {
      a.offset = Alignment.up(cursor, a.alignment);
      cursor = Math.addExact(a.offset, a.size);
    }
    for (int i = 0; i < n; i++) {
      if (allocationOf[i] != null) {
        offsets[i] = allocationOf[i].offset;
      }
    }
    return DsaOutcomes.fromOffsets(
        instance, offsets, Map.of("allocations", allocations.size(), "reused", reused));
  }

  private static int lastStep(DsaInstance instance, int i) {
    return instance.buffer(i).upper() - 1;
  }
}
