package io.github.memplan.solvers.dsa;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.Occupancy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sweep of a DSA instance that the search works on, after MiniMalloc's {@code sweeper.cc}
 * (google/minimalloc): <em>sections</em> (the sets of pieces alive just before each time at which a
 * piece ends, i.e. the maximal cross sections), each buffer's <em>spans</em> (the section ranges of
 * its pieces, with the window it occupies there), the co-active pairs with their <em>effective
 * sizes</em>, and the cut counts between neighbouring sections.
 *
 * <p>Only buffers that occupy something are searched. A buffer of size 0, or one whose whole
 * lifetime is an empty gap, is <em>trivial</em>: it sits at its fixed offset, or at 0.
 *
 * <p>The effective size {@code eff(i -> j)} is MiniMalloc's {@code Buffer::effective_size}: if
 * {@code j} lies above {@code i}, it must start at least {@code eff} bytes past {@code i}'s offset,
 * the largest {@code hi_i - lo_j} over the times both occupy a window. Without windows it is {@code
 * size_i}.
 */
public final class SearchModel {
  public final DsaInstance instance;

  /** Searched buffers. */
  public final int n;

  /** Instance index of each searched buffer. */
  public final int[] index;

  public final long[] size;
  public final long[] align;

  /** The fixed offset of each searched buffer, or -1. */
  public final long[] fixed;

  public final int[] lower;
  public final int[] upper;

  /** Number of sections. */
  public final int sections;

  /** The searched buffers occupying each section, ascending. */
  public final int[][] members;

  /** Bytes occupied in each section (windows honoured). */
  public final long[] load;

  /** Spans of buffer {@code i}: indices {@code spanFrom[i] .. spanFrom[i+1]-1}. */
  public final int[] spanFrom;

  public final int[] spanLo;
  public final int[] spanHi;
  public final long[] winLo;
  public final long[] winHi;

  /** Section range {@code [first, last)} from a buffer's first piece to its last. */
  public final int[] first;

  public final int[] last;

  /** Co-active buffers of each buffer, ascending. */
  public final int[][] ovl;

  /** {@code eff[i][k] = eff(i -> ovl[i][k])}; {@code null} when no buffer has a window. */
  public final long[][] eff;

  /** Whether some buffer occupies a partial window during a gap. */
  public final boolean windows;

  /** A divisor of every size, alignment, fixed offset and window bound (1 with windows). */
  public final long granularity;

  /** Offsets of the trivial buffers (by instance index), -1 for searched ones. */
  public final long[] trivialOffset;

  /** {@code max(offset + size)} over the trivial buffers. */
  final long trivialPeak;

  /** Cut counts: buffers whose section range crosses the boundary between {@code s} and s+1. */
  public final int[] cuts;

  /**
   * Twins of each buffer: the other buffers with the same lifetime and alignment, all without gaps
   * or fixed offsets and with sizes that are multiples of that alignment. Two twins stacked
   * directly on one another can trade places: together they fill the same addresses over the same
   * time either way.
   */
  public final int[][] twins;

  public SearchModel(DsaInstance instance) {
    this.instance = instance;
    int total = instance.size();
    List<List<Occupancy.Piece>> piecesOf = new ArrayList<>();
    trivialOffset = new long[total];
    int[] searchIdx = new int[total];
    List<Integer> searched = new ArrayList<>();
    boolean anyWindow = false;
    long trivPeak = 0;
    long g = 0;
    for (int i = 0; i < total; i++) {
      Buffer b = instance.buffer(i);
      List<Occupancy.Piece> ps = Occupancy.pieces(i, b);
      g = Alignment.gcd(g, b.size());
      if (b.alignment() > 1) {
        g = Alignment.gcd(g, b.alignment());
      }
      if (b.fixedOffset().isPresent()) {
        g = Alignment.gcd(g, b.fixedOffset().getAsLong());
      }
      if (ps.isEmpty()) {
        long off = b.fixedOffset().orElse(0);
        trivialOffset[i] = off;
        trivPeak = Math.max(trivPeak, off + b.size());
        searchIdx[i] = -1;
        continue;
      }
      for (Occupancy.Piece p : ps) {
        if (p.from() != 0 || p.to() != b.size()) {
          anyWindow = true;
        }
      }
      trivialOffset[i] = -1;
      searchIdx[i] = searched.size();
      searched.add(i);
      piecesOf.add(ps);
    }
    windows = anyWindow;
    granularity = anyWindow || g == 0 ? 1 : g;
    trivialPeak = trivPeak;

    n = searched.size();
    index = new int[n];
    size = new long[n];
    align = new long[n];
    fixed = new long[n];
    lower = new int[n];
    upper = new int[n];
    for (int k = 0; k < n; k++) {
      Buffer b = instance.buffer(searched.get(k));
      index[k] = searched.get(k);
      size[k] = b.size();
      align[k] = b.alignment();
      fixed[k] = b.fixedOffset().orElse(-1);
      lower[k] = b.lower();
      upper[k] = b.upper();
    }

    // pieces in one array: buffer, lower, upper, window
    int pieceCount = 0;
    for (List<Occupancy.Piece> ps : piecesOf) {
      pieceCount += ps.size();
    }
    int[] pBuf = new int[pieceCount];
    int[] pLo = new int[pieceCount];
    int[] pHi = new int[pieceCount];
    long[] pFrom = new long[pieceCount];
    long[] pTo = new long[pieceCount];
    spanFrom = new int[n + 1];
    int q = 0;
    for (int k = 0; k < n; k++) {
      spanFrom[k] = q;
      for (Occupancy.Piece p : piecesOf.get(k)) {
        pBuf[q] = k;
        pLo[q] = p.lower();
        pHi[q] = p.upper();
        pFrom[q] = p.from();
        pTo[q] = p.to();
        q++;
      }
    }
    spanFrom[n] = q;

    // events: ends before starts at equal times (lifetimes are half-open), then by piece
    long[] events = new long[2 * pieceCount];
    for (int p = 0; p < pieceCount; p++) {
      events[2 * p] = encode(pHi[p], 0, p);
      events[2 * p + 1] = encode(pLo[p], 1, p);
    }
    Arrays.sort(events);
    long pairCount = 0;
    int live = 0;
    for (long e : events) {
      if (((e >>> 31) & 1) == 1) {
        pairCount += live++;
      } else {
        live--;
      }
    }
    if (pairCount > MAX_PAIRS) {
      throw new TooDense(pairCount);
    }

    spanLo = new int[pieceCount];
    spanHi = new int[pieceCount];
    winLo = pFrom;
    winHi = pTo;
    List<int[]> sectionList = new ArrayList<>();
    // the active pieces, by buffer (a buffer's pieces never overlap in time)
    int[] activePiece = new int[n];
    Arrays.fill(activePiece, -1);
    int[] activeList = new int[n];
    int[] activePos = new int[n];
    int activeCount = 0;
    long lastSectionTime = Long.MIN_VALUE;

    // co-active pairs, discovered when a piece starts while another is active
    int[][] rows = new int[n][];
    long[][] effRows = anyWindow ? new long[n][] : null;
    int[] deg = new int[n];
    Map<Long, int[]> pairPos = new HashMap<>(); // pairs of multi-piece buffers: row positions
    for (long e : events) {
      int time = (int) (e >>> 32);
      boolean start = ((e >>> 31) & 1) == 1;
      int p = (int) (e & 0x7FFFFFFFL);
      int b = pBuf[p];
      if (!start) {
        if (lastSectionTime < time) {
          int[] snapshot = Arrays.copyOf(activeList, activeCount);
          Arrays.sort(snapshot);
          sectionList.add(snapshot);
          lastSectionTime = time;
        }
        spanHi[p] = sectionList.size();
        int pos = activePos[b];
        int moved = activeList[--activeCount];
        activeList[pos] = moved;
        activePos[moved] = pos;
        activePiece[b] = -1;
      } else {
        for (int a = 0; a < activeCount; a++) {
          int o = activeList[a];
          int op = activePiece[o];
          long effBo = pTo[p] - pFrom[op]; // o above b
          long effOb = pTo[op] - pFrom[p]; // b above o
          boolean multi = spanFrom[b + 1] - spanFrom[b] > 1 || spanFrom[o + 1] - spanFrom[o] > 1;
          long key = ((long) Math.min(b, o) << 32) | Math.max(b, o);
          if (multi) {
            int[] at = pairPos.get(key);
            if (at != null) {
              // at = {position in b's row, position in o's row}, keyed by (min, max)
              int inB = b < o ? at[0] : at[1];
              int inO = b < o ? at[1] : at[0];
              if (effRows != null) {
                effRows[b][inB] = Math.max(effRows[b][inB], effBo);
                effRows[o][inO] = Math.max(effRows[o][inO], effOb);
              }
              continue;
            }
          }
          int inB = append(rows, effRows, deg, b, o, effBo);
          int inO = append(rows, effRows, deg, o, b, effOb);
          if (multi) {
            pairPos.put(key, b < o ? new int[] {inB, inO} : new int[] {inO, inB});
          }
        }
        activePiece[b] = p;
        activePos[b] = activeCount;
        activeList[activeCount++] = b;
        spanLo[p] = sectionList.size();
      }
    }
    sections = sectionList.size();
    members = sectionList.toArray(new int[0][]);

    load = new long[sections];
    first = new int[n];
    last = new int[n];
    cuts = new int[Math.max(0, sections - 1)];
    for (int k = 0; k < n; k++) {
      first[k] = spanLo[spanFrom[k]];
      last[k] = spanHi[spanFrom[k + 1] - 1];
      for (int sp = spanFrom[k]; sp < spanFrom[k + 1]; sp++) {
        for (int s = spanLo[sp]; s < spanHi[sp]; s++) {
          load[s] += winHi[sp] - winLo[sp];
        }
      }
      for (int s = first[k]; s + 1 < last[k]; s++) {
        cuts[s]++;
      }
    }

    twins = new int[n][];
    Map<List<Long>, List<Integer>> classes = new HashMap<>();
    for (int k = 0; k < n; k++) {
      boolean plain =
          spanFrom[k + 1] - spanFrom[k] == 1
              && instance.buffer(index[k]).gaps().isEmpty()
              && fixed[k] < 0
              && size[k] % align[k] == 0;
      if (plain) {
        classes
            .computeIfAbsent(
                List.of((long) lower[k], (long) upper[k], align[k]), x -> new ArrayList<>())
            .add(k);
      }
    }
    for (int k = 0; k < n; k++) {
      twins[k] = new int[0];
    }
    for (List<Integer> cls : classes.values()) {
      if (cls.size() < 2) {
        continue;
      }
      for (int k : cls) {
        twins[k] = cls.stream().filter(x -> x != k).mapToInt(Integer::intValue).sorted().toArray();
      }
    }

    ovl = new int[n][];
    eff = anyWindow ? new long[n][] : null;
    for (int k = 0; k < n; k++) {
      int d = deg[k];
      int[] row = rows[k] == null ? new int[0] : Arrays.copyOf(rows[k], d);
      if (eff == null) {
        Arrays.sort(row);
        ovl[k] = row;
        continue;
      }
      long[] e = effRows[k] == null ? new long[0] : effRows[k];
      Integer[] idx = new Integer[d];
      for (int j = 0; j < d; j++) {
        idx[j] = j;
      }
      Arrays.sort(idx, (x, y) -> Integer.compare(row[x], row[y]));
      ovl[k] = new int[d];
      eff[k] = new long[d];
      for (int j = 0; j < d; j++) {
        ovl[k][j] = row[idx[j]];
        eff[k][j] = e[idx[j]];
      }
    }
  }

  /** The most co-active pairs a model holds (two int entries each, and as many in sections). */
  static final long MAX_PAIRS = 16_000_000;

  /** Thrown when an instance has more co-active pairs than {@link #MAX_PAIRS}. */
  public static final class TooDense extends RuntimeException {
    private static final long serialVersionUID = 1L;
    public final long pairs;

    TooDense(long pairs) {
      super(pairs + " co-active pairs, more than " + MAX_PAIRS);
      this.pairs = pairs;
    }
  }

  private static int append(
      int[][] rows, long[][] effRows, int[] deg, int from, int to, long effective) {
    int d = deg[from];
    if (rows[from] == null || rows[from].length == d) {
      int len = rows[from] == null ? 4 : d * 2;
      rows[from] = rows[from] == null ? new int[len] : Arrays.copyOf(rows[from], len);
      if (effRows != null) {
        effRows[from] = effRows[from] == null ? new long[len] : Arrays.copyOf(effRows[from], len);
      }
    }
    rows[from][d] = to;
    if (effRows != null) {
      effRows[from][d] = effective;
    }
    deg[from] = d + 1;
    return d;
  }

  private static long encode(int time, int kind, int piece) {
    // time is non-negative: sorts by time, then ends (0) before starts (1), then piece
    return ((long) time << 32) | ((long) kind << 31) | piece;
  }

  /** {@code eff(i -> ovl[i][k])}. */
  public long eff(int i, int k) {
    return eff == null ? size[i] : eff[i][k];
  }

  public static long alignUp(long value, long alignment) {
    long r = value % alignment;
    return r == 0 ? value : value + (alignment - r);
  }
}
