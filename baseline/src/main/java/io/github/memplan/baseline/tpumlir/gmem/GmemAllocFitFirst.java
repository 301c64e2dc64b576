package io.github.memplan.baseline.tpumlir.gmem;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.Arrays;
import java.util.Map;
import java.util.OptionalLong;

/**
 * TPU-MLIR's {@code GmemAllocFitFirst} ("FitFirstAssign"), one of the two GMEM allocators of the
 * current code: {@code lib/Support/GmemAllocatorMethod.cpp} ({@code sophgo/tpu-mlir}, unchanged up
 * to 36e3c625a, 2026-04; introduced by 30cc015d8, 2022-10), pseudo-code in {@code
 * reference/tpu-mlir.md} §1.6. Method names below are the source's.
 *
 * <p>The state is an album of snapshots; a snapshot is the address-ordered list of blocks {@code
 * (size, owner or free)} that tile memory from 0, ending with a free tail. Values are taken in live
 * start order ({@link GmemValues}). For each value {@code v}, a copy of the last snapshot is made;
 * {@code reuseGmemBlock} frees every block whose owner's live range does not overlap {@code v}'s
 * and {@code mergeFreeGmemBlocks} merges adjacent free blocks; {@code allocGmemBlock} selects the
 * <em>largest</em> free block other than the tail (the first of equal ones; the tail if there is
 * none): if it is larger than {@code v}, {@code v} takes its front and the rest stays free; if not,
 * {@code v} takes it whole, enlarged to {@code v}'s size, which shifts every later block up. The
 * snapshot joins the album. Then {@code backPropagateToAssignGaddr} walks the album from the last
 * snapshot to the first with a running offset: a free block starts at the offset; an owned block
 * starts at its owner's address if it has one, else at its own start in that snapshot, raised to
 * the offset if it is not above it; the offset moves to its end; an owner without an address takes
 * that start. The footprint is {@code max(addr + size)}.
 *
 * <p>Characteristic behaviour: despite its name it is a worst fit (largest hole) that may pick a
 * hole too small and grow it; addresses are fixed late, in the last snapshot that holds each value,
 * so a value's address can end up above where it was first put.
 *
 * <p>Validity. Back-propagation would break a plan if, in an earlier snapshot, the running offset
 * passed the address a block's owner already has (the block is then laid out above its real address
 * and the blocks after it are laid out from there). That never happens when values come in
 * live-start order: the offset before an owned block {@code v} in snapshot {@code i} is the largest
 * of {@code v}'s start there and, over the blocks {@code t} before it that already have an address,
 * {@code addr(t) + size(t) +} the sizes between {@code t} and {@code v}; the space between two
 * blocks that stay owned only grows from one snapshot to the next (frees, merges and splits keep
 * it, enlargements add to it), so by induction from the last snapshot holding {@code v} each of
 * these terms is at most {@code addr(v)}. Two values alive at the same time are both owned in the
 * snapshot of the later one, where each block sits at its final address, in order. The plan is
 * nevertheless checked, and an invalid one (a bug, not the source's behaviour) would be returned as
 * {@link Outcome#error}, never as a solution.
 *
 * <p>Departures: the tail is unbounded (the source's {@code 0xFFFFFFFF} tail and 32-bit sizes would
 * break past 4 GiB); ties in live start keep instance order (the source's quicksort is not stable);
 * sizes are padded to the instance's common alignment ({@link GmemValues}); gaps in lifetimes are
 * ignored (a buffer occupies its whole size throughout). Fixed offsets are not supported. The
 * source runs this with {@code neuronMemoryReuse} true by default, as here.
 */
public final class GmemAllocFitFirst implements Planner<DsaInstance, DsaSolution> {

  static final String METHOD = "FitFirstAssign";
  private static final long TAIL = Long.MAX_VALUE;
  private static final int FREE = -1;

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    GmemValues values = GmemValues.of(instance, "tpumlir-fitfirst");
    long[] addr = assign(values, ctx.budget());
    if (addr == null) {
      return Outcome.noSolution(OptionalLong.empty(), "budget exhausted (" + METHOD + ")");
    }
    return values.outcome(instance, addr, METHOD, Map.of("footprint", values.footprint(addr)));
  }

  /** A snapshot: block sizes and owners (value positions, or {@link #FREE}); starts are sums. */
  private static final class Snapshot {
    long[] size;
    int[] owner;
    int n;

    Snapshot(int capacity) {
      size = new long[Math.max(capacity, 2)];
      owner = new int[size.length];
    }

    Snapshot copy() {
      Snapshot c = new Snapshot(n + 1);
      System.arraycopy(size, 0, c.size, 0, n);
      System.arraycopy(owner, 0, c.owner, 0, n);
      c.n = n;
      return c;
    }

    void insert(int at, long blockSize, int blockOwner) {
      if (n == size.length) {
        size = Arrays.copyOf(size, n * 2);
        owner = Arrays.copyOf(owner, n * 2);
      }
      System.arraycopy(size, at, size, at + 1, n - at);
      System.arraycopy(owner, at, owner, at + 1, n - at);
      size[at] = blockSize;
      owner[at] = blockOwner;
      n++;
    }

    void trim() {
      size = Arrays.copyOf(size, n);
      owner = Arrays.copyOf(owner, n);
    }
  }

  /** The addresses of the values, or {@code null} when the budget ran out. */
  static long[] assign(GmemValues values, Budget budget) {
    int m = values.size();
    Snapshot[] album = new Snapshot[m + 1];
    Snapshot first = new Snapshot(1);
    first.insert(0, TAIL, FREE);
    album[0] = first;
    for (int j = 0; j < m; j++) {
      if (budget.exhausted(j)) {
        return null;
      }
      GmemValues.Value v = values.get(j);
      Snapshot snap = album[j].copy();
      reuseGmemBlock(snap, v, values);
      allocGmemBlock(snap, j, v.size());
      snap.trim();
      album[j + 1] = snap;
    }
    long[] addr = new long[m];
    Arrays.fill(addr, -1);
    for (int i = m; i >= 0; i--) {
      if (budget.exhausted()) {
        return null;
      }
      Snapshot snap = album[i];
      long offset = 0;
      long start = 0; // the block's own start in this snapshot
      for (int b = 0; b < snap.n; b++) {
        long size = snap.size[b];
        int v = snap.owner[b];
        if (v == FREE) {
          if (size != TAIL) {
            offset += size;
            start += size;
          }
          continue;
        }
        long blockStart = addr[v] == -1 ? start : addr[v];
        if (blockStart <= offset) {
          blockStart = offset;
        }
        offset = blockStart + size;
        if (addr[v] == -1) {
          addr[v] = blockStart;
        }
        start += size;
      }
    }
    return addr;
  }

  /** Frees every block whose owner is not alive with {@code v}, then merges free neighbours. */
  private static void reuseGmemBlock(Snapshot snap, GmemValues.Value v, GmemValues values) {
    for (int b = 0; b < snap.n; b++) {
      int o = snap.owner[b];
      if (o != FREE) {
        GmemValues.Value ov = values.get(o);
        if (ov.end() <= v.start() || ov.start() >= v.end()) {
          snap.owner[b] = FREE;
        }
      }
    }
    // mergeFreeGmemBlocks
    int w = 0;
    for (int b = 0; b < snap.n; b++) {
      if (w > 0 && snap.owner[w - 1] == FREE && snap.owner[b] == FREE) {
        snap.size[w - 1] = saturatedAdd(snap.size[w - 1], snap.size[b]);
      } else {
        snap.size[w] = snap.size[b];
        snap.owner[w] = snap.owner[b];
        w++;
      }
    }
    snap.n = w;
  }

  /** The largest free block before the tail (the first of equals), else the tail. */
  private static void allocGmemBlock(Snapshot snap, int v, long size) {
    int last = snap.n - 1;
    int selected = last;
    long maxFree = 0;
    for (int b = 0; b < last; b++) {
      if (snap.owner[b] == FREE && snap.size[b] > maxFree) {
        selected = b;
        maxFree = snap.size[b];
      }
    }
    long holeSize = snap.size[selected];
    snap.owner[selected] = v;
    snap.size[selected] = size;
    if (holeSize > size) {
      // occupy the front; the rest stays free right after it
      snap.insert(selected + 1, holeSize == TAIL ? TAIL : holeSize - size, FREE);
    }
    // otherwise the block grows to the value's size and the later blocks' starts (sums) shift up
  }

  private static long saturatedAdd(long a, long b) {
    return (a == TAIL || b == TAIL || a > TAIL - b) ? TAIL : a + b;
  }
}
