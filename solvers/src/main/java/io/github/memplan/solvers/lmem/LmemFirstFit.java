package io.github.memplan.solvers.lmem;

import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;

/**
 * A bank-aware first fit for LMEM placements, the warm start of the LMEM search planners (not a
 * baseline: the TPU-MLIR allocators live in {@code baseline} and solvers never import them).
 * Buffers are taken by area ({@code bytes × cyclic lifetime}) descending, then index; each goes to
 * the lowest EU-aligned address where it overlaps no placed buffer it shares a timestep with (an
 * in-place partner may be overlapped only from the same address, as {@link
 * io.github.memplan.core.lmem.LmemValidator} rules) and, in order of preference, (1) breaks no rule
 * that is not off, (2) breaks no hard rule; with {@code bankAware} false it skips (1). A buffer
 * with no such address makes the first fit fail.
 *
 * <p>The lowest address of each kind is among {@code 0}, the EU-aligned ends of placed buffers, the
 * addresses of placed in-place partners and the EU-aligned bank starts: the addresses a buffer may
 * not take form open intervals whose right ends are exactly those points (a placed buffer's range,
 * a partner's range but its start; the banks of a conflict partner; the straddling positions within
 * a bank), so the scan over these candidates is exact for each step.
 */
public final class LmemFirstFit {
  private LmemFirstFit() {}

  /** The placement, or {@code null} when some buffer has no address obeying the hard rules. */
  public static long[] place(LmemInstance instance, LmemRules rules, boolean bankAware) {
    return place(instance, rules, bankAware, LmemBanks.Engines.of(instance), Overlaps.of(instance));
  }

  public static long[] place(
      LmemInstance instance,
      LmemRules rules,
      boolean bankAware,
      LmemBanks.Engines engines,
      Overlaps overlaps) {
    List<LmemBuffer> buffers = instance.buffers();
    int n = buffers.size();
    int t = instance.timestepCount();
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(
        order,
        Comparator.<Integer>comparingLong(i -> -buffers.get(i).bytes() * buffers.get(i).lifetime(t))
            .thenComparingInt(i -> i));
    long[] addr = new long[n];
    boolean[] placed = new boolean[n];
    long eu = instance.euBytes();
    long bank = instance.bankBytes();
    for (int i : order) {
      long s = buffers.get(i).bytes();
      List<Integer> near = new ArrayList<>();
      List<Integer> sharers = new ArrayList<>();
      List<Long> cands = new ArrayList<>();
      cands.add(0L);
      for (int j = 0; j < n; j++) {
        if (placed[j] && (overlaps.clash(i, j) || overlaps.share(i, j))) {
          (overlaps.clash(i, j) ? near : sharers).add(j);
          cands.add(alignUp(addr[j] + buffers.get(j).bytes(), eu));
          if (overlaps.share(i, j)) {
            cands.add(addr[j]);
          }
        }
      }
      for (int b = 1; b < instance.banks(); b++) {
        cands.add(alignUp(b * bank, eu));
      }
      cands.sort(null);
      long best = -1;
      long fallback = -1;
      for (long a : cands) {
        if (a + s > instance.capacity()) {
          break;
        }
        if (!fits(buffers, addr, near, a, s) || !fitsPartners(buffers, addr, sharers, a, s)) {
          continue;
        }
        int level = level(instance, rules, engines, addr, placed, i, a, s);
        if (level == 0 && bankAware) {
          best = a;
          break;
        }
        if (level <= 1 && fallback < 0) {
          fallback = a;
          if (!bankAware) {
            break;
          }
        }
      }
      long a = best >= 0 ? best : fallback;
      if (a < 0) {
        return null;
      }
      addr[i] = a;
      placed[i] = true;
    }
    return addr;
  }

  private static boolean fits(
      List<LmemBuffer> buffers, long[] addr, List<Integer> near, long a, long s) {
    for (int j : near) {
      if (a < addr[j] + buffers.get(j).bytes() && addr[j] < a + s) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code [a, a + s)} meets each in-place partner only from the partner's address. */
  private static boolean fitsPartners(
      List<LmemBuffer> buffers, long[] addr, List<Integer> sharers, long a, long s) {
    for (int j : sharers) {
      if (a != addr[j] && a < addr[j] + buffers.get(j).bytes() && addr[j] < a + s) {
        return false;
      }
    }
    return true;
  }

  /** 0: breaks no rule that is on; 1: breaks only soft rules; 2: breaks a hard rule. */
  private static int level(
      LmemInstance instance,
      LmemRules rules,
      LmemBanks.Engines engines,
      long[] addr,
      boolean[] placed,
      int i,
      long a,
      long s) {
    int level = 0;
    if (rules.straddle() != BankRule.OFF && LmemBanks.straddles(instance, a, s)) {
      level = rules.straddle() == BankRule.HARD ? 2 : 1;
    }
    if (rules.conflict() != BankRule.OFF && level < 2) {
      for (int j = 0; j < placed.length; j++) {
        if (placed[j]
            && LmemBanks.shareBank(instance, a, s, addr[j], instance.buffers().get(j).bytes())
            && engines.conflicting(i, j)) {
          return rules.conflict() == BankRule.HARD ? 2 : 1;
        }
      }
    }
    return level;
  }

  static long alignUp(long v, long a) {
    long r = v % a;
    return r == 0 ? v : v + a - r;
  }

  /**
   * Which pairs must not share an address: live in a common timestep (held buffers in all, wrapping
   * lifetimes cyclically) and not an in-place pair; and which may start at the same address: the
   * in-place pairs, as {@link io.github.memplan.core.lmem.LmemValidator} rules.
   */
  public static final class Overlaps {
    private final BitSet[] clash;
    private final BitSet[] share;

    private Overlaps(BitSet[] clash, BitSet[] share) {
      this.clash = clash;
      this.share = share;
    }

    public static Overlaps of(LmemInstance instance) {
      List<LmemBuffer> buffers = instance.buffers();
      int n = buffers.size();
      int t = instance.timestepCount();
      BitSet[] live = new BitSet[n];
      for (int i = 0; i < n; i++) {
        live[i] = new BitSet(t);
        for (int r = 0; r < t; r++) {
          if (buffers.get(i).liveAt(r)) {
            live[i].set(r);
          }
        }
      }
      BitSet[] clash = new BitSet[n];
      for (int i = 0; i < n; i++) {
        clash[i] = new BitSet(n);
      }
      for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
          if (live[i].intersects(live[j])) {
            clash[i].set(j);
            clash[j].set(i);
          }
        }
      }
      BitSet[] share = new BitSet[n];
      for (int i = 0; i < n; i++) {
        share[i] = new BitSet(n);
      }
      for (var p : instance.inPlace()) {
        clash[p.input()].clear(p.output());
        clash[p.output()].clear(p.input());
        share[p.input()].set(p.output());
        share[p.output()].set(p.input());
      }
      return new Overlaps(clash, share);
    }

    /** Whether {@code i} and {@code j} must occupy disjoint addresses. */
    public boolean clash(int i, int j) {
      return clash[i].get(j);
    }

    /** Whether {@code i} and {@code j} are an in-place pair: disjoint or at the same address. */
    boolean share(int i, int j) {
      return share[i].get(j);
    }

    /** The buffers {@code i} must not share an address with. */
    BitSet partners(int i) {
      return clash[i];
    }
  }
}
