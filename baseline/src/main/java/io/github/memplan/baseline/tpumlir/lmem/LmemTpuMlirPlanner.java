package io.github.memplan.baseline.tpumlir.lmem;

import io.github.memplan.core.lmem.InPlace;
import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemOutcomes;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.Timestep;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * {@code lmem-tpumlir}: today's {@code LmemAllocator::assignLmemAddr} ({@code
 * lib/Dialect/Tpu/Transforms/LayerGroup/LmemAllocator.cpp}; {@code reference/tpu-mlir.md} §2.10),
 * step by step:
 *
 * <ol>
 *   <li>Every round, the remaining buffers are sorted by {@code conflict} descending, {@code area =
 *       bytes × cyclic lifetime} descending (a held buffer lives in every row), start timestep
 *       ascending, creation index ascending. {@code conflict(b)} is 1 when {@code b} is still in a
 *       row's TIU set (operands and results of its TIU ops; scratch left out, as in the source) or
 *       GDMA set (only rows with TIU ops have one). A placed buffer leaves every set; a row's GDMA
 *       set is cleared once its TIU set is empty, its TIU set once it holds one buffer and the GDMA
 *       set is empty.
 *   <li>The first buffer goes to address 0.
 *   <li>Each later round updates every remaining buffer {@code b} with the last placed buffer
 *       {@code r} ({@code global_find_avail_lmem_localtion}): if {@code r} and {@code b} meet the
 *       {@link LmemBanks} engine condition, {@code r}'s banks join {@code b}'s excluded banks; if
 *       their lives overlap, {@code [r.addr, align_up(r.addr + r.bytes, EU))} leaves {@code
 *       avail[b]} ({@code update_avail_lmems}), and when that split a free range ({@code
 *       space_split}: a range that started at {@code r.addr} or below ran past the removed end) and
 *       {@code r} and {@code b} are an {@link io.github.memplan.core.lmem.InPlace} pair, {@code
 *       insert_inplace_local_mem} puts {@code r}'s range {@code [r.addr, r.addr + r.bytes)} back
 *       into {@code avail[b]} as a slot of its own, sorted by start after equal starts; not when
 *       {@code b} is the pair's input and a weight (the source returns early for a weight); ranges
 *       smaller than {@code b} are dropped. {@code candidate(b)} ({@code find_avail_lmem_location})
 *       is the start of the lowest part of {@code avail[b]}, minus the excluded banks, that fits;
 *       else the first range of {@code avail[b]} (accepting a bank conflict); if {@code avail[b]}
 *       is empty the allocation fails. The partners of a pair share a TIU op, so the slot lies in
 *       excluded banks and is taken only as that fallback.
 *   <li>The buffer with the smallest candidate is placed there (ties: sort order).
 * </ol>
 *
 * <p>Departures: the source recomputes buffer sizes and decides {@code allow_hold} (cancelling
 * holds whose sum exceeds the LMEM) before this loop; here sizes and {@code held} come from the
 * instance as they are. The pair conditions that depend on the op and the table ({@code
 * isInplaceOp}, lifetimes, {@code need_store}) are the instance's ({@code core.group.InPlaceOps}).
 * An in-place slot is only ever taken at its start, the partner's address (the meaning of a pair,
 * {@link io.github.memplan.core.lmem.InPlace}): a later removal that touches a slot removes it
 * whole, where the source cuts it like any free range and could place {@code b} on a remnant,
 * partly over its partner; a slot neither counts toward {@code space_split} nor is searched past
 * its start for banks outside the excluded ones. The engine condition for excluded banks counts
 * scratch as TIU use ({@link LmemBanks}); the priority term does not, as in the source. The budget
 * is polled once per round.
 *
 * <p>In-place rule read at {@code sophgo/tpu-mlir} commit 08951f713a ({@code LmemAllocator.cpp}:
 * {@code update_avail_lmems}, {@code insert_inplace_local_mem}, {@code find_avail_lmem_location}).
 */
public final class LmemTpuMlirPlanner implements Planner<LmemInstance, LmemSolution> {

  @Override
  public Outcome<LmemSolution> solve(LmemInstance instance, SolveContext ctx) {
    List<LmemBuffer> buffers = instance.buffers();
    int n = buffers.size();
    int t = instance.timestepCount();
    long eu = instance.euBytes();
    long bank = instance.bankBytes();
    LmemBanks.Engines engines = LmemBanks.Engines.of(instance);
    RowSets sets = new RowSets(instance);
    long[] area = new long[n];
    for (int i = 0; i < n; i++) {
      area[i] = buffers.get(i).bytes() * buffers.get(i).lifetime(t);
    }
    long[] addr = new long[n];
    List<List<long[]>> avail = new ArrayList<>();
    BitSet[] excluded = new BitSet[n];
    List<Integer> remaining = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      avail.add(new ArrayList<>(List.of(new long[] {0, instance.capacity(), FREE})));
      excluded[i] = new BitSet();
      remaining.add(i);
    }
    int last = -1;
    int rounds = 0;
    int acceptedConflicts = 0;
    while (!remaining.isEmpty()) {
      if (ctx.budget().exhausted(rounds)) {
        return Outcome.<LmemSolution>noSolution(
                OptionalLong.empty(),
                "budget exhausted after " + (n - remaining.size()) + " of " + n + " buffers")
            .withStats(Map.of("rounds", rounds));
      }
      rounds++;
      Comparator<Integer> order =
          Comparator.<Integer>comparingInt(i -> sets.conflict(i) ? 0 : 1)
              .thenComparingLong(i -> -area[i])
              .thenComparingInt(i -> buffers.get(i).start())
              .thenComparingInt(i -> i);
      remaining.sort(order);
      int pick;
      long pickAddr;
      if (last < 0) {
        pick = remaining.get(0);
        if (buffers.get(pick).bytes() > instance.capacity()) {
          return fail(instance, buffers.get(pick), rounds);
        }
        pickAddr = 0;
      } else {
        LmemBuffer r = buffers.get(last);
        long rEnd = LmemV0Planner.alignUp(addr[last] + r.bytes(), eu);
        pick = -1;
        pickAddr = Long.MAX_VALUE;
        boolean pickConflicts = false;
        for (int b : remaining) {
          LmemBuffer x = buffers.get(b);
          List<long[]> free = avail.get(b);
          if (x.overlapsInTime(r, t)) {
            boolean split = remove(free, addr[last], rEnd);
            if (split && slotFor(instance, b, last)) {
              insertSlot(free, addr[last], addr[last] + r.bytes());
            }
          }
          free.removeIf(g -> g[1] - g[0] < x.bytes());
          if (engines.conflicting(b, last)) {
            excluded[b].set(
                LmemBanks.firstBank(instance, addr[last]),
                LmemBanks.lastBank(instance, addr[last], r.bytes()) + 1);
          }
          if (free.isEmpty()) {
            return fail(instance, x, rounds);
          }
          long c = outsideBanks(free, excluded[b], x.bytes(), bank, eu);
          boolean conflicts = c < 0;
          if (conflicts) {
            c = free.get(0)[0];
          }
          if (c < pickAddr) {
            pick = b;
            pickAddr = c;
            pickConflicts = conflicts;
          }
        }
        if (pickConflicts) {
          acceptedConflicts++;
        }
      }
      addr[pick] = pickAddr;
      remaining.remove(Integer.valueOf(pick));
      sets.placed(pick);
      last = pick;
    }
    return LmemOutcomes.fromAddresses(
        instance, addr, Map.of("rounds", rounds, "accepted-conflicts", acceptedConflicts));
  }

  private static Outcome<LmemSolution> fail(LmemInstance instance, LmemBuffer x, int rounds) {
    return LmemOutcomes.failed(
        instance,
        "no free range for buffer '" + x.id() + "' (" + x.bytes() + " bytes)",
        Map.of("rounds", rounds));
  }

  /** A free range of {@code avail[b]}: {@code {lo, hi, FREE}}. */
  private static final long FREE = 0;

  /** An in-place slot of {@code avail[b]}: {@code {lo, hi, SLOT}}, taken only at {@code lo}. */
  private static final long SLOT = 1;

  /**
   * Removes {@code [lo, hi)} from the free list ({@code update_avail_lmems}); returns {@code
   * space_split}: whether a free range starting at {@code lo} or below ran past {@code hi}. A slot
   * that {@code [lo, hi)} touches leaves whole.
   */
  private static boolean remove(List<long[]> free, long lo, long hi) {
    boolean split = false;
    List<long[]> out = new ArrayList<>();
    for (long[] g : free) {
      if (g[1] <= lo || hi <= g[0]) {
        out.add(g);
        continue;
      }
      if (g[2] == SLOT) {
        continue;
      }
      split |= g[0] <= lo && g[1] > hi;
      if (g[0] < lo) {
        out.add(new long[] {g[0], lo, FREE});
      }
      if (hi < g[1]) {
        out.add(new long[] {hi, g[1], FREE});
      }
    }
    free.clear();
    free.addAll(out);
    return split;
  }

  /**
   * Whether {@code insert_inplace_local_mem} offers the placed buffer {@code r}'s range to {@code
   * b}: they are an in-place pair, and {@code b} is not a weight taking its result's slot.
   */
  private static boolean slotFor(LmemInstance instance, int b, int r) {
    for (InPlace p : instance.inPlace()) {
      if (p.input() == r && p.output() == b) {
        return true;
      }
      if (p.input() == b
          && p.output() == r
          && instance.buffers().get(b).kind() != LmemBuffer.Kind.WEIGHT) {
        return true;
      }
    }
    return false;
  }

  /** Inserts the slot {@code [lo, hi)} before the first range starting above {@code lo}. */
  private static void insertSlot(List<long[]> free, long lo, long hi) {
    int k = 0;
    while (k < free.size() && free.get(k)[0] <= lo) {
      k++;
    }
    free.add(k, new long[] {lo, hi, SLOT});
  }

  /**
   * The lowest EU-aligned start of a part of a free range outside the excluded banks with room for
   * {@code size} bytes, or -1.
   */
  private static long outsideBanks(
      List<long[]> free, BitSet excluded, long size, long bank, long eu) {
    for (long[] g : free) {
      long a = g[0];
      if (g[2] == SLOT) {
        int first = (int) (a / bank);
        int last = (int) ((a + size - 1) / bank);
        int clash = excluded.nextSetBit(first);
        if (a + size <= g[1] && (clash < 0 || clash > last)) {
          return a;
        }
        continue;
      }
      while (a + size <= g[1]) {
        int k = (int) (a / bank);
        if (excluded.get(k)) {
          a = LmemV0Planner.alignUp((k + 1) * bank, eu);
          continue;
        }
        int clash = excluded.nextSetBit(k);
        long limit = clash < 0 ? g[1] : Math.min(g[1], clash * bank);
        if (a + size <= limit) {
          return a;
        }
        a = clash < 0 ? g[1] : LmemV0Planner.alignUp((clash + 1) * bank, eu);
      }
    }
    return -1;
  }

  /** The per-row TIU and GDMA sets behind {@code conflict(b)}, updated as buffers are placed. */
  private static final class RowSets {
    private final BitSet[] tiu;
    private final BitSet[] gdma;

    /** Per buffer, the number of rows whose TIU or GDMA set holds it. */
    private final int[] rows;

    RowSets(LmemInstance instance) {
      int t = instance.timestepCount();
      tiu = new BitSet[t];
      gdma = new BitSet[t];
      rows = new int[instance.buffers().size()];
      for (int r = 0; r < t; r++) {
        Timestep row = instance.timesteps().get(r);
        tiu[r] = new BitSet();
        gdma[r] = new BitSet();
        for (Timestep.TiuOp op : row.tiu()) {
          op.operands().forEach(tiu[r]::set);
          op.results().forEach(tiu[r]::set);
        }
        if (!row.tiu().isEmpty()) {
          row.gdma().forEach(gdma[r]::set);
        }
        settle(r);
        count(r, +1);
      }
    }

    /** Adds {@code sign} to the count of every buffer in row {@code r}'s sets. */
    private void count(int r, int sign) {
      BitSet union = (BitSet) tiu[r].clone();
      union.or(gdma[r]);
      for (int b = union.nextSetBit(0); b >= 0; b = union.nextSetBit(b + 1)) {
        rows[b] += sign;
      }
    }

    private void settle(int r) {
      if (tiu[r].isEmpty()) {
        gdma[r].clear();
      }
      if (tiu[r].cardinality() == 1 && gdma[r].isEmpty()) {
        tiu[r].clear();
      }
    }

    void placed(int b) {
      // a row without b is unchanged (and settled already)
      for (int r = 0; r < tiu.length; r++) {
        if (!tiu[r].get(b) && !gdma[r].get(b)) {
          continue;
        }
        count(r, -1);
        tiu[r].clear(b);
        gdma[r].clear(b);
        settle(r);
        count(r, +1);
      }
    }

    boolean conflict(int b) {
      return rows[b] > 0;
    }
  }
}
