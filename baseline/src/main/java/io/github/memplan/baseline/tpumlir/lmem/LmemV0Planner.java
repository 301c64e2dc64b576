package io.github.memplan.baseline.tpumlir.lmem;

import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemOutcomes;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * {@code lmem-v0}: TPU-MLIR's documented 2022 LMEM packing, {@code assign_lmem_addr} and {@code
 * alloc} of {@code GroupOps.cpp} at commit 1cf8ff8c2 ({@code reference/tpu-mlir.md} §2.13; seed
 * {@code tpu-mlir-layergroup.zh.rst}, "LMEM分配": "按照op顺序依次分配, 优先分配timestep长的, 次分配lmem大的",
 * "优先不要跨bank").
 *
 * <ol>
 *   <li>If the group is sliced, all weights first: repeatedly the unplaced one with the longest
 *       lifetime, then the largest size, {@code alloc(size)} against the weights placed so far.
 *   <li>Then for each op id in order, that is each timestep where a TIU op runs: repeatedly the
 *       unplaced buffer alive there with the longest lifetime, then the largest size, {@code
 *       alloc(size)} against the placed buffers alive there. A buffer loaded in a row without an op
 *       (row 0 of a v0 table) thus competes at its reader's row with that op's results, as in v0,
 *       where the load's id interval starts at its reader's id.
 *   <li>{@code alloc(size)}: pass 1, only if {@code size <= bankBytes}: the lowest EU-aligned
 *       address free of the allocated ranges, where a candidate straddling a bank boundary moves to
 *       the next bank's start; pass 2: the lowest EU-aligned free address. Fail if the end exceeds
 *       the capacity.
 * </ol>
 *
 * <p>How the instance is read, and departures:
 *
 * <ul>
 *   <li><b>Sliced</b> ({@code nsecs·hsecs > 1} in v0) is read as "some buffer is {@code held}": the
 *       instance marks weights held exactly when the group runs several iterations (§2.8(d)), the
 *       counterpart of v0's weights getting {@code [0, ∞)}. The weight phase takes the held buffers
 *       (of any kind, since {@code hold_in_lmem} tensors are resident too); non-held weights are
 *       placed with the activations, as v0 does when unsliced.
 *   <li><b>Op ids become timesteps.</b> v0 iterates op ids and orders by the span {@code end -
 *       start} of a buffer's interval; {@code V0Timesteps} gives each buffer v0's interval in
 *       timesteps, where consecutive ops without a transfer between them share one, so the span is
 *       v0's timestep span. Lifetime here is the number of rows of a buffer's life (span + 1, the
 *       same order), counted cyclically for wrapping buffers (v0 has no wraps). Several ops of one
 *       row are one op id here: they see the same live buffers in rows. Rows without a TIU op come
 *       after all op rows, for instances whose buffers live only there (none in v0's tables).
 *   <li><b>Held weights</b> all span every row, so among them the order is the largest first, as
 *       with the 2022-08 resident interval {@code [0, ∞)} ({@code reference/tpu-mlir.md} §2.13).
 *   <li><b>Allocated ranges</b> are the placed buffers whose lives overlap the candidate's. For a
 *       plain interval placed at its first row this is exactly v0's "placed buffers alive at this
 *       id"; for a buffer that wraps (software pipelining postdates v0) v0's set would miss buffers
 *       it meets later in the loop and produce overlaps.
 *   <li>Ties beyond lifetime and size go to the buffer listed first, as v0 keeps the first of its
 *       list on a tie ({@code find_max_unalloc_lmem} compares strictly).
 *   <li>In-place pairs are ignored: v0 has no in-place LMEM reuse.
 * </ul>
 *
 * <p>A failed {@code alloc} ends the run with {@code FAILED_TO_PLACE} (or {@code INFEASIBLE} when
 * the live bytes alone exceed the capacity). The budget is polled before every placement, one step
 * each.
 */
public final class LmemV0Planner implements Planner<LmemInstance, LmemSolution> {

  @Override
  public Outcome<LmemSolution> solve(LmemInstance instance, SolveContext ctx) {
    List<LmemBuffer> buffers = instance.buffers();
    int n = buffers.size();
    int t = instance.timestepCount();
    long[] addr = new long[n];
    boolean[] placed = new boolean[n];
    Arrays.fill(addr, -1);
    Comparator<Integer> order =
        Comparator.<Integer>comparingInt(i -> -buffers.get(i).lifetime(t))
            .thenComparingLong(i -> -buffers.get(i).bytes())
            .thenComparingInt(i -> i);
    List<Integer> sequence = new ArrayList<>();
    boolean sliced = buffers.stream().anyMatch(LmemBuffer::held);
    if (sliced) {
      List<Integer> weights = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (buffers.get(i).held()) {
          weights.add(i);
        }
      }
      weights.sort(order);
      sequence.addAll(weights);
      weights.forEach(i -> placed[i] = true);
    }
    // v0 iterates the op ids: the rows where a TIU op runs, in order; then, for instances whose
    // table names no op in some buffer's rows, the remaining rows
    List<Integer> rows = new ArrayList<>();
    for (int ts = 0; ts < t; ts++) {
      if (!instance.timesteps().get(ts).tiu().isEmpty()) {
        rows.add(ts);
      }
    }
    for (int ts = 0; ts < t; ts++) {
      if (instance.timesteps().get(ts).tiu().isEmpty()) {
        rows.add(ts);
      }
    }
    for (int ts : rows) {
      List<Integer> here = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (!placed[i] && buffers.get(i).liveAt(ts)) {
          here.add(i);
        }
      }
      here.sort(order);
      sequence.addAll(here);
      here.forEach(i -> placed[i] = true);
    }
    List<Integer> done = new ArrayList<>();
    for (int b : sequence) {
      if (ctx.budget().exhausted(done.size())) {
        return Outcome.<LmemSolution>noSolution(
                java.util.OptionalLong.empty(),
                "budget exhausted after " + done.size() + " of " + n + " buffers")
            .withStats(Map.of("placed", done.size()));
      }
      long a = alloc(instance, b, done, addr);
      if (a < 0) {
        LmemBuffer x = buffers.get(b);
        return LmemOutcomes.failed(
            instance,
            "alloc failed for buffer '"
                + x.id()
                + "' ("
                + x.bytes()
                + " bytes) after "
                + done.size()
                + " of "
                + n
                + " buffers",
            Map.of("placed", done.size()));
      }
      addr[b] = a;
      done.add(b);
    }
    return LmemOutcomes.fromAddresses(instance, addr, Map.of("placed", n));
  }

  /** v0's {@code alloc}: pass 1 avoiding straddles (buffers up to a bank), pass 2 plain. */
  private static long alloc(LmemInstance inst, int b, List<Integer> done, long[] addr) {
    LmemBuffer x = inst.buffers().get(b);
    List<long[]> ranges = new ArrayList<>();
    for (int p : done) {
      LmemBuffer y = inst.buffers().get(p);
      if (x.overlapsInTime(y, inst.timestepCount())) {
        ranges.add(new long[] {addr[p], addr[p] + y.bytes()});
      }
    }
    ranges.sort(Comparator.<long[]>comparingLong(r -> r[0]).thenComparingLong(r -> r[1]));
    if (x.bytes() <= inst.bankBytes()) {
      long a = firstFit(inst, ranges, x.bytes(), true);
      if (a + x.bytes() <= inst.capacity()) {
        return a;
      }
    }
    long a = firstFit(inst, ranges, x.bytes(), false);
    return a + x.bytes() <= inst.capacity() ? a : -1;
  }

  /**
   * The lowest EU-aligned address whose range {@code [a, a + size)} meets no range; with {@code
   * banks}, a candidate that straddles a bank boundary moves to the next bank's start. May return
   * an address beyond the capacity; the caller checks.
   */
  private static long firstFit(LmemInstance inst, List<long[]> ranges, long size, boolean banks) {
    long a = 0;
    boolean moved = true;
    while (moved) {
      moved = false;
      if (banks && a / inst.bankBytes() != (a + size - 1) / inst.bankBytes()) {
        a = alignUp((a / inst.bankBytes() + 1) * inst.bankBytes(), inst.euBytes());
        moved = true;
      }
      for (long[] r : ranges) {
        if (r[0] < a + size && a < r[1]) {
          a = alignUp(r[1], inst.euBytes());
          moved = true;
          break;
        }
      }
    }
    return a;
  }

  static long alignUp(long x, long align) {
    return Math.floorDiv(x + align - 1, align) * align;
  }
}
