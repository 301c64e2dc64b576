package io.github.memplan.solvers.dsa.bnb;

import io.github.memplan.core.solve.Budget;
import io.github.memplan.solvers.dsa.SearchModel;
import java.util.Arrays;

/**
 * One depth-first search for a placement of a {@link SearchModel}'s buffers below a capacity: the
 * decision procedure of MiniMalloc ({@code SolverImpl::SearchSolutions} in google/minimalloc {@code
 * src/solver.cc}), over canonical sequences of gravity placements.
 *
 * <p>Each unplaced buffer has a minimum offset {@code m}: the highest {@code offset + eff} over the
 * placed buffers it is co-active with, aligned up (a buffer with a fixed offset starts at it). A
 * node tries the unplaced buffers in order of {@code (m, static rank)} and places each at its
 * {@code m}. The rules, as in MiniMalloc:
 *
 * <ul>
 *   <li><b>canonical</b>: a placement's {@code (m, rank)} is not below the previous one's;
 *   <li><b>dominance</b>: no buffer is placed at or above {@code min(m + size)} over the unplaced
 *       ones (that buffer would fit underneath; the candidates are sorted by {@code m}, so the loop
 *       stops there);
 *   <li><b>cross-section inference</b>: in every section, the floor (the top of its placed buffers,
 *       at least the smallest {@code m} of its unplaced ones and at least the current offset) plus
 *       the bytes of its unplaced buffers must not exceed the capacity;
 *   <li><b>hatless pruning</b>: a buffer co-active with no unplaced buffer keeps its {@code m} for
 *       ever, so no sibling with a larger key can lead to a solution: after its subtree fails the
 *       node fails;
 *   <li><b>dynamic decomposition</b>: when no unplaced buffer crosses a section boundary, the two
 *       sides are searched one after the other, each with a fresh static order.
 * </ul>
 *
 * <p>Departures, none of which loses a solution: a buffer whose {@code m + size} exceeds the
 * capacity (or whose {@code m} passes its fixed offset) fails the node at once; a sub-partition
 * keeps the parent's offset as its lower frontier (the projection of a canonical sequence onto a
 * sub-partition starts there), with any rank allowed at that offset; and a split that leaves a
 * single non-empty side goes on with the same order and frontier instead of restarting.
 *
 * <p>Counts one budget step per node and polls the budget every 64 nodes.
 */
final class Search {
  static final int FOUND = 0;
  static final int NOT_FOUND = 1;
  static final int ABORTED = 2;
  static final int TIMEOUT = 3;

  /**
   * Which rules prune (all of them in the planner; tests switch single ones off). Without the
   * canonical rule every gravity order is searched, and the rules that rest on it go too: the
   * current offset as a floor, and hatless pruning.
   */
  record Rules(
      boolean canonical,
      boolean dominance,
      boolean inference,
      boolean hatless,
      boolean decomposition,
      boolean twins) {
    static final Rules ALL = new Rules(true, true, true, true, true, true);

    Rules(
        boolean canonical,
        boolean dominance,
        boolean inference,
        boolean hatless,
        boolean decomposition) {
      this(canonical, dominance, inference, hatless, decomposition, true);
    }

    Rules {
      if (!canonical && hatless) {
        throw new IllegalArgumentException("hatless pruning needs canonical sequences");
      }
    }
  }

  /** Steps counted across all searches of one planner run. */
  static final class Counter {
    long steps;
  }

  private static final int T_M = 0;
  private static final long NONE = Long.MAX_VALUE;

  private final SearchModel md;
  private final long cap;
  private final Budget budget;
  private final Counter counter;
  private final Preorder preorder;
  private final Rules rules;

  private final long[] off;
  private final long[] m;
  private final long[] floor;

  /** Per section, the member that last showed an unplaced buffer low enough (a hint only). */
  private final int[] witness;

  private final long[] total;
  private final int[] cuts;
  private final int[] rank;
  private final long[] solution;

  private int[] tType = new int[1024];
  private int[] tIdx = new int[1024];
  private long[] tOld = new long[1024];
  private int tTop;

  /** The floors that placements overwrote, a span at a time, restored in reverse. */
  private long[] fStack = new long[1024];

  private int fTop;

  private final int[] bufStamp;
  private int bufStampValue;
  private int[][] pool = new int[16][];
  private int[] side;

  private boolean hatless;
  private java.util.List<String> trace;
  private long nodesLeft;
  private long nodes;

  Search(SearchModel md, long cap, Budget budget, Counter counter, Preorder preorder) {
    this(md, cap, budget, counter, preorder, Rules.ALL);
  }

  Search(SearchModel md, long cap, Budget budget, Counter counter, Preorder preorder, Rules rules) {
    this.rules = rules;
    this.md = md;
    this.cap = cap;
    this.budget = budget;
    this.counter = counter;
    this.preorder = preorder;
    int n = md.n;
    int s = md.sections;
    off = new long[n];
    m = new long[n];
    floor = new long[s];
    witness = new int[s];
    total = new long[s];
    cuts = new int[md.cuts.length];
    rank = new int[n];
    solution = new long[n];
    bufStamp = new int[n];
    side = new int[Math.max(16, n)];
  }

  long nodes() {
    return nodes;
  }

  /** Records the search's steps into {@code sink} (for tests; slows nothing when unset). */
  void traceInto(java.util.List<String> sink) {
    this.trace = sink;
  }

  private void note(String what, int b, long at) {
    trace.add(what + " " + md.instance.buffer(md.index[b]).id() + (at >= 0 ? "@" + at : ""));
  }

  /** The offsets of the last successful run, by searched buffer. */
  long[] solution() {
    return solution.clone();
  }

  /**
   * Searches with at most {@code nodeLimit} nodes: {@link #FOUND}, {@link #NOT_FOUND} (no placement
   * fits: proven when the model has no windows), {@link #ABORTED} (node limit) or {@link #TIMEOUT}.
   */
  int run(long nodeLimit) {
    int n = md.n;
    Arrays.fill(off, -1);
    for (int i = 0; i < n; i++) {
      m[i] = md.fixed[i] >= 0 ? md.fixed[i] : 0;
      if (m[i] + md.size[i] > cap || m[i] % md.align[i] != 0) {
        return NOT_FOUND;
      }
    }
    System.arraycopy(md.load, 0, total, 0, md.sections);
    Arrays.fill(floor, 0);
    System.arraycopy(md.cuts, 0, cuts, 0, cuts.length);
    tTop = 0;
    fTop = 0;
    nodesLeft = nodeLimit;
    if (!check(0, md.sections, 0)) {
      return NOT_FOUND;
    }
    if (n == 0) {
      return FOUND;
    }
    // the initial partitions: components between zero cuts
    int lo = 0;
    for (int s = 0; s < md.sections; s++) {
      if (s == md.sections - 1 || cuts[s] == 0) {
        int hi = s + 1;
        int count = 0;
        int[] bufs = new int[n];
        for (int i = 0; i < n; i++) {
          if (md.first[i] >= lo && md.first[i] < hi) {
            bufs[count++] = i;
          }
        }
        if (count > 0) {
          int st = subSolve(lo, hi, bufs, count, 0, 0);
          if (st != FOUND) {
            return st;
          }
        }
        lo = hi;
      }
    }
    return FOUND;
  }

  private int[] pool(int depth, int len) {
    if (depth >= pool.length) {
      pool = Arrays.copyOf(pool, Math.max(depth + 1, pool.length * 2));
    }
    int[] a = pool[depth];
    if (a == null || a.length < len) {
      a = new int[Math.max(len, 8)];
      pool[depth] = a;
    }
    return a;
  }

  private int subSolve(int lo, int hi, int[] bufs, int count, long fOff, int depth) {
    int[] saved = new int[count];
    for (int k = 0; k < count; k++) {
      saved[k] = rank[bufs[k]];
    }
    int[] sorted = preorder.sort(md, bufs, count, total);
    for (int k = 0; k < count; k++) {
      rank[sorted[k]] = k;
    }
    int[] ord = pool(depth, count);
    System.arraycopy(sorted, 0, ord, 0, count);
    sortByKey(ord, 0, count);
    int st = search(lo, hi, ord, count, fOff, -1, depth);
    for (int k = 0; k < count; k++) {
      rank[bufs[k]] = saved[k];
    }
    return st;
  }

  private boolean before(int a, int b) {
    return m[a] != m[b] ? m[a] < m[b] : rank[a] < rank[b];
  }

  private void sortByKey(int[] a, int from, int to) {
    for (int i = from + 1; i < to; i++) {
      int x = a[i];
      int j = i - 1;
      while (j >= from && before(x, a[j])) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = x;
    }
  }

  private int search(int lo, int hi, int[] ord, int len, long fOff, int fRank, int depth) {
    if (nodesLeft-- <= 0) {
      return ABORTED;
    }
    nodes++;
    counter.steps++;
    if ((nodes & 63) == 0 && budget.exhausted(counter.steps)) {
      return TIMEOUT;
    }
    if (len == 0) {
      if (trace != null) {
        trace.add("leaf");
      }
      return FOUND;
    }
    long minHeight = NONE;
    for (int k = 0; k < len; k++) {
      int u = ord[k];
      minHeight = Math.min(minHeight, m[u] + md.size[u]);
    }
    // every section must keep o + its unplaced bytes within the capacity, whichever buffer
    // goes at o (in b's own sections the floor rises by what the total drops)
    long limit = rules.dominance() ? minHeight : NONE;
    long maxTotal = 0;
    if (rules.inference() && rules.canonical()) {
      for (int s = lo; s < hi; s++) {
        maxTotal = Math.max(maxTotal, total[s]);
      }
      limit = Math.min(limit, cap - maxTotal + 1);
    }
    for (int k = 0; k < len; k++) {
      int b = ord[k];
      long mb = m[b];
      if (mb >= limit) {
        if (trace != null) {
          note(mb > cap - maxTotal ? "inference-cut" : "dominance-cut", b, mb);
        }
        break;
      }
      if (rules.canonical() && (mb < fOff || (mb == fOff && rank[b] < fRank))) {
        continue;
      }
      if (md.fixed[b] >= 0 && mb != md.fixed[b]) {
        continue;
      }
      if (rules.twins() && onTwinOutOfOrder(b, mb)) {
        if (trace != null) {
          note("twin-cut", b, mb);
        }
        continue;
      }
      int mark = tTop;
      off[b] = mb;
      solution[b] = mb;
      boolean ok = place(b, mb);
      boolean noHat = hatless;
      int st = NOT_FOUND;
      if (trace != null) {
        note("place", b, mb);
      }
      if (!ok) {
        if (trace != null) {
          note("capacity-fail", b, mb);
        }
      } else if (!check(lo, hi, mb)) {
        if (trace != null) {
          note("inference-fail", b, mb);
        }
      } else {
        st = descend(lo, hi, ord, len, b, mb, mark, depth);
      }
      unplace(b, mark);
      if (st != NOT_FOUND) {
        return st;
      }
      if (noHat && rules.hatless()) {
        if (trace != null) {
          note("hatless-cut", b, -1);
        }
        break;
      }
    }
    return NOT_FOUND;
  }

  /**
   * Whether {@code b} at {@code mb} would sit directly on a placed twin that is smaller (or as
   * large and later in instance order). Swapping two stacked twins moves no other buffer, and
   * putting the larger one below lowers {@code sum(size^2 * offset)}. Dominance and the other rules
   * keep every placement that minimises this weighted sum (moving any buffer down lowers it too),
   * and such a placement has the larger twin below; so the other order need not be searched.
   */
  private boolean onTwinOutOfOrder(int b, long mb) {
    for (int x : md.twins[b]) {
      if (off[x] >= 0
          && off[x] + md.size[x] == mb
          && (md.size[b] > md.size[x] || (md.size[b] == md.size[x] && b < x))) {
        return true;
      }
    }
    return false;
  }

  private void push(int type, int idx, long old) {
    if (tTop == tType.length) {
      int len = tTop * 2;
      tType = Arrays.copyOf(tType, len);
      tIdx = Arrays.copyOf(tIdx, len);
      tOld = Arrays.copyOf(tOld, len);
    }
    tType[tTop] = type;
    tIdx[tTop] = idx;
    tOld[tTop] = old;
    tTop++;
  }

  /** Places {@code b} at {@code o}; false if some buffer can no longer fit. */
  private boolean place(int b, long o) {
    for (int sp = md.spanFrom[b]; sp < md.spanFrom[b + 1]; sp++) {
      long top = o + md.winHi[sp];
      long w = md.winHi[sp] - md.winLo[sp];
      int from = md.spanLo[sp];
      int len = md.spanHi[sp] - from;
      if (fTop + len > fStack.length) {
        fStack = Arrays.copyOf(fStack, Math.max(fStack.length * 2, fTop + len));
      }
      System.arraycopy(floor, from, fStack, fTop, len);
      fTop += len;
      for (int s = from; s < from + len; s++) {
        floor[s] = top;
        total[s] -= w;
      }
    }
    hatless = true;
    int[] ovl = md.ovl[b];
    for (int k = 0; k < ovl.length; k++) {
      int u = ovl[k];
      if (off[u] >= 0) {
        continue;
      }
      hatless = false;
      long h = o + md.eff(b, k);
      long old = m[u];
      if (old >= h) {
        continue;
      }
      h = SearchModel.alignUp(h, md.align[u]);
      push(T_M, u, old);
      m[u] = h;
      if ((md.fixed[u] >= 0 && h > md.fixed[u]) || h > cap - md.size[u]) {
        return false;
      }
    }
    return true;
  }

  private void unplace(int b, int mark) {
    while (tTop > mark) {
      tTop--;
      m[tIdx[tTop]] = tOld[tTop];
    }
    for (int sp = md.spanFrom[b + 1] - 1; sp >= md.spanFrom[b]; sp--) {
      long w = md.winHi[sp] - md.winLo[sp];
      int from = md.spanLo[sp];
      int len = md.spanHi[sp] - from;
      fTop -= len;
      System.arraycopy(fStack, fTop, floor, from, len);
      for (int s = from; s < from + len; s++) {
        total[s] += w;
      }
    }
    off[b] = -1;
  }

  private boolean check(int lo, int hi, long o) {
    if (!rules.inference()) {
      return true;
    }
    if (!rules.canonical()) {
      o = 0; // without canonical order, later buffers may go below the current one
    }
    for (int s = lo; s < hi; s++) {
      long t = total[s];
      if (t == 0) {
        continue;
      }
      long room = cap - t;
      if (Math.max(o, floor[s]) > room || !unplacedAtOrBelow(s, room)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether some unplaced buffer of section {@code s} has its minimum offset at or below {@code
   * room}: the section's floor is at least the smallest such minimum. Computed when asked rather
   * than kept up to date on every placement (which would touch every section of every buffer whose
   * minimum rises); the member that answered last time is tried first.
   */
  private boolean unplacedAtOrBelow(int s, long room) {
    int[] mem = md.members[s];
    int w = witness[s];
    if (w < mem.length) {
      int x = mem[w];
      if (off[x] < 0 && m[x] <= room) {
        return true;
      }
    }
    for (int k = 0; k < mem.length; k++) {
      int x = mem[k];
      if (off[x] < 0 && m[x] <= room) {
        witness[s] = k;
        return true;
      }
    }
    return false;
  }

  /** After placing {@code b} at {@code o}: decomposes if a cut reached zero, else recurses. */
  private int descend(int lo, int hi, int[] ord, int len, int b, long o, int mark, int depth) {
    int firstB = md.first[b];
    int lastB = md.last[b];
    int zeroCuts = 0;
    for (int s = firstB; s + 1 < lastB; s++) {
      if (--cuts[s] == 0) {
        zeroCuts++;
      }
    }
    int st;
    int[] child = pool(depth + 1, len);
    int childLen = childOrder(ord, len, b, mark, child);
    if (zeroCuts == 0 || childLen == 0 || !rules.decomposition()) {
      st = search(lo, hi, child, childLen, o, rank[b], depth + 1);
    } else {
      st = split(lo, hi, child, childLen, firstB, lastB, o, rank[b], depth + 1);
    }
    for (int s = firstB; s + 1 < lastB; s++) {
      cuts[s]++;
    }
    return st;
  }

  private int split(
      int lo, int hi, int[] child, int childLen, int firstB, int lastB, long o, int rb, int depth) {
    // cut points inside b's range; the rest of the partition has none (b did not change them)
    int[] points = new int[lastB - firstB + 1];
    int np = 0;
    points[np++] = lo;
    for (int s = firstB; s + 1 < lastB; s++) {
      if (cuts[s] == 0) {
        points[np++] = s + 1;
      }
    }
    points[np++] = hi;
    int[] part = new int[childLen];
    int[] counts = new int[np - 1];
    for (int k = 0; k < childLen; k++) {
      int u = child[k];
      int r = Arrays.binarySearch(points, 0, np, md.first[u]);
      part[k] = r >= 0 ? r : -r - 2;
      counts[part[k]]++;
    }
    int nonEmpty = 0;
    int only = -1;
    for (int r = 0; r < np - 1; r++) {
      if (counts[r] > 0) {
        nonEmpty++;
        only = r;
      }
    }
    if (nonEmpty == 1) {
      return search(points[only], points[only + 1], child, childLen, o, rb, depth);
    }
    if (trace != null) {
      StringBuilder sb = new StringBuilder("split");
      for (int r = 0; r < np - 1; r++) {
        if (counts[r] > 0) {
          sb.append(" [").append(points[r]).append(",").append(points[r + 1]).append(")");
        }
      }
      trace.add(sb.toString());
    }
    int[][] groups = new int[np - 1][];
    int[] fill = new int[np - 1];
    for (int r = 0; r < np - 1; r++) {
      groups[r] = new int[counts[r]];
    }
    for (int k = 0; k < childLen; k++) {
      groups[part[k]][fill[part[k]]++] = child[k];
    }
    for (int r = 0; r < np - 1; r++) {
      if (counts[r] == 0) {
        continue;
      }
      int st = subSolve(points[r], points[r + 1], groups[r], counts[r], o, depth);
      if (st != FOUND) {
        return st;
      }
    }
    return FOUND;
  }

  /** The unplaced buffers of {@code ord} without {@code b}, re-sorted after b's placement. */
  private int childOrder(int[] ord, int len, int b, int mark, int[] child) {
    bufStampValue++;
    int sideLen = 0;
    for (int t = mark; t < tTop; t++) {
      if (tType[t] == T_M) {
        int u = tIdx[t];
        bufStamp[u] = bufStampValue;
        side[sideLen++] = u;
      }
    }
    sortByKey(side, 0, sideLen);
    int c = 0;
    int si = 0;
    for (int k = 0; k < len; k++) {
      int u = ord[k];
      if (u == b || bufStamp[u] == bufStampValue) {
        continue;
      }
      while (si < sideLen && before(side[si], u)) {
        child[c++] = side[si++];
      }
      child[c++] = u;
    }
    while (si < sideLen) {
      child[c++] = side[si++];
    }
    return c;
  }
}
