package io.github.memplan.solvers.lmem.timefold;

import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.solvers.dsa.timefold.OrderDecoding;
import io.github.memplan.solvers.lmem.BankRule;
import io.github.memplan.solvers.lmem.LmemRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The decoder of a placement order of one LMEM instance: each buffer in turn goes to the lowest
 * EU-aligned address at which it shares no byte with a buffer placed before it that is live in a
 * common timestep (held and wrapping lifetimes as {@link LmemBuffer#liveAt}; an in-place partner,
 * {@link LmemInstance#mayShare}, may be overlapped from its own address only), exactly the overlap
 * rule of {@link io.github.memplan.core.lmem.LmemValidator}. The bank rules of {@link LmemBanks}
 * shape the choice:
 *
 * <ul>
 *   <li>a {@link BankRule#HARD} rule is always obeyed: a buffer of at most one bank never straddles
 *       ({@code straddle=hard}); a buffer never shares a bank with a conflicting partner placed
 *       before it ({@code conflict=hard}). Going higher always obeys both (past the last excluded
 *       bank, at the start of a bank), so the decoder never breaks a hard rule; it may overflow the
 *       capacity instead, which the score counts;
 *   <li>a {@link BankRule#SOFT} rule is obeyed when that fits: the buffer goes to the lowest
 *       address obeying every rule that is not off, if it ends within the capacity; else to the
 *       lowest one obeying the conflict rule (a straddle is cheaper than a conflict), if that fits;
 *       else, under {@code conflict=soft}, to the fitting address with the fewest conflicts, then
 *       no straddle, then lowest, among the lowest clear addresses from each bank's start (a
 *       departure from plain first fit that lets one conflict replace several); else to the lowest
 *       one obeying only the hard rules, which overflows;
 *   <li>an {@link BankRule#OFF} rule is ignored.
 * </ul>
 *
 * Conflicts are only avoided with partners placed earlier; a later partner avoids this buffer in
 * its own turn. Immutable once built; precomputes, per buffer, the forbidden address intervals that
 * each time-overlapping neighbour imposes relative to the neighbour's address, and its conflict
 * partners ({@link LmemBanks.Engines#conflicting}).
 */
final class LmemDecoder {
  final int n;
  final long[] bytes;
  final long capacity;
  final long bankBytes;
  final long eu;
  final LmemRules rules;

  /**
   * Per buffer: the earlier-placed buffers that may block its bytes (time overlap, not in-place).
   */
  final int[][] obstacles;

  /** Per buffer: its in-place partners, which block its bytes except from their own address. */
  final int[][] sharers;

  /** Per buffer: the buffers that conflict with it when they share a bank. */
  final int[][] partners;

  /**
   * Per buffer: obstacles and partners, each once, ascending: whose moves can change its address.
   */
  final int[][] neighbours;

  /** The tiers of (avoid straddles, avoid conflicts) tried in turn, strictest first. */
  private final boolean[][] tiers;

  LmemDecoder(LmemInstance instance, LmemRules rules) {
    this.rules = rules;
    List<LmemBuffer> buffers = instance.buffers();
    n = buffers.size();
    capacity = instance.capacity();
    bankBytes = instance.bankBytes();
    eu = instance.euBytes();
    bytes = new long[n];
    for (int i = 0; i < n; i++) {
      bytes[i] = buffers.get(i).bytes();
    }
    int t = instance.timestepCount();
    long[][] live = new long[n][(t + 63) / 64];
    for (int i = 0; i < n; i++) {
      for (int r = 0; r < t; r++) {
        if (buffers.get(i).liveAt(r)) {
          live[i][r >> 6] |= 1L << r;
        }
      }
    }
    LmemBanks.Engines engines =
        rules.conflict() == BankRule.OFF ? null : LmemBanks.Engines.of(instance);
    obstacles = new int[n][];
    sharers = new int[n][];
    partners = new int[n][];
    neighbours = new int[n][];
    for (int x = 0; x < n; x++) {
      List<Integer> obs = new ArrayList<>();
      List<Integer> sha = new ArrayList<>();
      List<Integer> par = new ArrayList<>();
      List<Integer> nb = new ArrayList<>();
      for (int y = 0; y < n; y++) {
        if (y == x) {
          continue;
        }
        boolean meets = sharesRow(live[x], live[y]);
        boolean share = meets && instance.mayShare(x, y);
        boolean blocks = meets && !share;
        boolean conflicts = engines != null && engines.conflicting(x, y);
        if (blocks) {
          obs.add(y);
        }
        if (share) {
          sha.add(y);
        }
        if (conflicts) {
          par.add(y);
        }
        if (blocks || share || conflicts) {
          nb.add(y);
        }
      }
      obstacles[x] = obs.stream().mapToInt(Integer::intValue).toArray();
      sharers[x] = sha.stream().mapToInt(Integer::intValue).toArray();
      partners[x] = par.stream().mapToInt(Integer::intValue).toArray();
      neighbours[x] = nb.stream().mapToInt(Integer::intValue).toArray();
    }
    tiers = tiers(rules);
  }

  private static boolean sharesRow(long[] a, long[] b) {
    for (int w = 0; w < a.length; w++) {
      if ((a[w] & b[w]) != 0) {
        return true;
      }
    }
    return false;
  }

  private static boolean[][] tiers(LmemRules rules) {
    boolean hardS = rules.straddle() == BankRule.HARD;
    boolean hardC = rules.conflict() == BankRule.HARD;
    boolean anyS = rules.straddle() != BankRule.OFF;
    boolean anyC = rules.conflict() != BankRule.OFF;
    List<boolean[]> out = new ArrayList<>();
    for (boolean[] tier :
        List.of(
            new boolean[] {anyS, anyC},
            new boolean[] {hardS, anyC},
            new boolean[] {hardS, hardC})) {
      if (out.isEmpty() || !Arrays.equals(out.get(out.size() - 1), tier)) {
        out.add(tier);
      }
    }
    return out.toArray(new boolean[0][]);
  }

  /** Scratch space of {@link #place}; one per thread. */
  static final class Scratch {
    long[] lo = new long[16];
    long[] hi = new long[16];
    int[] bankLo = new int[16];
    int[] bankHi = new int[16];

    void ensure(int k) {
      if (lo.length < k) {
        int cap = Math.max(k, lo.length * 2);
        lo = new long[cap];
        hi = new long[cap];
        bankLo = new int[cap];
        bankHi = new int[cap];
      }
    }
  }

  static long alignUp(long v, long a) {
    return Math.floorDiv(v + a - 1, a) * a;
  }

  /** The address of buffer {@code x} at position {@code p} of the order. */
  long place(int x, int p, OrderDecoding.State state, Scratch s) {
    s.ensure(Math.max(obstacles[x].length + 2 * sharers[x].length, partners[x].length));
    int m = 0;
    long size = bytes[x];
    for (int y : obstacles[x]) {
      if (state.position(y) < p) {
        long ay = state.address(y);
        long h = ay + bytes[y];
        if (h > 0) {
          s.lo[m] = ay - size + 1;
          s.hi[m] = h;
          m++;
        }
      }
    }
    for (int y : sharers[x]) {
      if (state.position(y) < p) {
        // every start overlapping y but y's own address: (ay - size, ay) and (ay, ay + bytes)
        long ay = state.address(y);
        if (ay > 0) {
          s.lo[m] = ay - size + 1;
          s.hi[m] = ay;
          m++;
        }
        if (bytes[y] > 1) {
          s.lo[m] = ay + 1;
          s.hi[m] = ay + bytes[y];
          m++;
        }
      }
    }
    io.github.memplan.solvers.dsa.Intervals.sortByLow(s.lo, s.hi, 0, m - 1);
    int k = 0;
    for (int y : partners[x]) {
      if (state.position(y) < p) {
        long ay = state.address(y);
        s.bankLo[k] = (int) (ay / bankBytes);
        s.bankHi[k] = (int) ((ay + bytes[y] - 1) / bankBytes);
        k++;
      }
    }
    long a = -1;
    for (int i = 0; i < tiers.length; i++) {
      boolean[] tier = tiers[i];
      if (i == tiers.length - 1 && rules.conflict() == BankRule.SOFT) {
        long fewest = fewestConflicts(size, s, m, k);
        if (fewest >= 0) {
          return fewest;
        }
      }
      a = lowest(size, s, m, k, 0, tier[0], tier[1]);
      if (a + size <= capacity) {
        return a;
      }
    }
    return a;
  }

  /**
   * Under {@code conflict=soft}, when no conflict-free address fits: the fitting address with the
   * fewest conflicts with the partners placed before, then (under {@code straddle=soft}) no
   * straddle, then the lowest; among the lowest clear addresses from each bank's start, with and
   * without straddle avoidance. -1 if none fits.
   */
  private long fewestConflicts(long size, Scratch s, int m, int k) {
    boolean hardS = rules.straddle() == BankRule.HARD;
    boolean anyS = rules.straddle() != BankRule.OFF;
    long best = -1;
    long bestKey = Long.MAX_VALUE;
    for (long b = 0; b * bankBytes + size <= capacity; b++) {
      for (boolean straddle : anyS == hardS ? new boolean[] {hardS} : new boolean[] {true, false}) {
        long a = lowest(size, s, m, k, alignUp(b * bankBytes, eu), straddle, false);
        if (a + size > capacity) {
          continue;
        }
        long first = a / bankBytes;
        long last = (a + size - 1) / bankBytes;
        long conflicts = 0;
        for (int j = 0; j < k; j++) {
          if (s.bankLo[j] <= last && s.bankHi[j] >= first) {
            conflicts++;
          }
        }
        boolean straddles = anyS && size <= bankBytes && first != last;
        // conflicts, then straddles, then the address: the address is below 2^40 (an LMEM lane)
        long key = (conflicts << 41) | (straddles ? 1L << 40 : 0) | a;
        if (key < bestKey) {
          bestKey = key;
          best = a;
        }
      }
    }
    return best;
  }

  /**
   * The lowest aligned address from {@code from} (aligned) clear of the {@code m} forbidden
   * intervals (sorted by start) and, if asked, straddling no bank boundary and sharing no bank with
   * the {@code k} excluded bank ranges. Every bump is strictly upwards and beyond the last interval
   * and excluded bank only the straddle rule can bump, which a bank start within {@code eu} banks
   * satisfies, so it ends.
   */
  private long lowest(
      long size, Scratch s, int m, int k, long from, boolean straddle, boolean conflict) {
    long cand = from;
    int next = 0;
    boolean checkStraddle = straddle && size <= bankBytes;
    while (true) {
      while (next < m && s.lo[next] <= cand) {
        if (s.hi[next] > cand) {
          cand = alignUp(s.hi[next], eu);
        }
        next++;
      }
      long first = cand / bankBytes;
      long last = (cand + size - 1) / bankBytes;
      long bump = cand;
      if (checkStraddle && first != last) {
        bump = alignUp((first + 1) * bankBytes, eu);
      }
      if (conflict) {
        long over = -1;
        for (int j = 0; j < k; j++) {
          if (s.bankLo[j] <= last && s.bankHi[j] >= first) {
            over = Math.max(over, s.bankHi[j]);
          }
        }
        if (over >= 0) {
          bump = Math.max(bump, alignUp((over + 1) * bankBytes, eu));
        }
      }
      if (bump == cand) {
        return cand;
      }
      cand = bump;
    }
  }

  /** Decodes a whole order (every buffer exactly once) from scratch: the address of each buffer. */
  long[] decode(int[] order) {
    Scratch scratch = new Scratch();
    return OrderDecoding.decode(n, order, (x, p, state) -> place(x, p, state, scratch));
  }
}
