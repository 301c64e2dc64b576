package io.github.memplan.baseline.tvm;

import io.github.memplan.baseline.support.Lifetimes;
import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaOutcomes;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * TVM's TIR {@code StorageRewrite} memory sharing ({@code apache/tvm:
 * src/tir/transforms/storage_rewrite.cc}, {@code StoragePlanRewriter::PlanMemory}, {@code
 * FindAlloc}, {@code Free} and {@code PrepareNewAlloc}, read at commit {@code 06fc960d22}; seed
 * {@code tvm-tensor-management.zh.md}). It merges allocations into shared storage entries rather
 * than choosing offsets.
 *
 * <p><b>Liveness</b> ({@code LivenessAnalysis}): a buffer is generated at the first statement that
 * touches it and killed at the last; statement {@code t} is timestep {@code t}, so a buffer is
 * generated at {@code lower} and killed at {@code upper - 1}. At each statement every generated
 * buffer is allocated first (in instance order), then every killed buffer is freed (in instance
 * order), so a buffer never takes the entry of one that dies at the statement where it is born.
 *
 * <p><b>Allocation</b> ({@code FindAlloc}): sizes are in bits. Arrays of at most 32 bits get an
 * entry of their own and are never freed for reuse. Otherwise the free entries, a multimap keyed by
 * entry size, are searched within {@code [size / match_range, size * match_range]} ({@code
 * match_range = 16}, integer division): first the entries at least as large as the request,
 * smallest first (equal sizes in the order they were freed), then the smaller ones, largest first
 * (equal sizes most recently freed first). The first one found is taken and grows to the request if
 * smaller; if none, a new entry is created. {@code Free} puts the buffer's entry back under its
 * current size. A request more than 16 times larger or smaller than every free entry gets a new
 * entry even though a first-fit offset planner would place it over dead buffers.
 *
 * <p><b>In place</b>: the outputs of steps the instance's program marks in place are aliases of
 * their first input and share its buffer already (the outcome of {@code InplaceOpVerifier}
 * accepting {@code dst[i] = f(src[i])}). Further in-place sharing between a buffer that dies and
 * one born at the same statement would overlap them in time, which the instance forbids.
 *
 * <p><b>Result</b> ({@code PrepareNewAlloc}): each entry becomes one allocation as large as the
 * largest buffer it held. TVM emits them as separate {@code Allocate} nodes; here they are laid
 * side by side in creation order, each on the least common multiple of its buffers' alignments, so
 * the peak is the sum of the entry sizes (plus padding).
 *
 * <p>Departures: one storage scope, element type and attach scope for every buffer (the dtype and
 * thread-scope conditions of the search then always hold); sizes are the buffers' bytes times 8;
 * buffers with a fixed offset keep it and the entries start above the highest of them; zero-size
 * buffers take offset 0 and no entry (TVM would send them to its symbolic free list); {@code
 * match_range} is a parameter. Gaps are not exploited.
 */
public final class StorageRewritePlanner implements Planner<DsaInstance, DsaSolution> {

  /** The source's {@code match_range}. */
  public static final long MATCH_RANGE = 16;

  /** Arrays of at most this many bits are never shared ({@code const_nbits <= 32}). */
  static final long SMALL_ARRAY_BITS = 32;

  private final long matchRange;

  public StorageRewritePlanner() {
    this(MATCH_RANGE);
  }

  public StorageRewritePlanner(long matchRange) {
    if (matchRange < 1) {
      throw new IllegalArgumentException("storage rewrite: match-range " + matchRange + " < 1");
    }
    this.matchRange = matchRange;
  }

  private static final class Entry {
    long bits;
    long alignment = 1;
    long offset;

    Entry(long bits) {
      this.bits = bits;
    }
  }

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    int n = instance.size();
    long[] offsets = new long[n];
    List<Integer> gens = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Buffer b = instance.buffer(i);
      if (b.fixedOffset().isPresent()) {
        offsets[i] = b.fixedOffset().getAsLong();
      } else if (b.size() > 0) {
        gens.add(i);
      }
    }
    List<Integer> kills = new ArrayList<>(gens);
    gens.sort(
        Comparator.<Integer>comparingInt(i -> instance.buffer(i).lower()).thenComparing(i -> i));
    kills.sort(
        Comparator.<Integer>comparingInt(i -> instance.buffer(i).upper() - 1)
            .thenComparing(i -> i));

    List<Entry> entries = new ArrayList<>();
    NavigableMap<Long, ArrayDeque<Entry>> constFree = new TreeMap<>();
    Entry[] entryOf = new Entry[n];
    int reused = 0;
    int g = 0;
    int k = 0;
    while (g < gens.size() || k < kills.size()) {
      int t =
          g < gens.size()
              ? Math.min(instance.buffer(gens.get(g)).lower(), deathOf(instance, kills.get(k)))
              : deathOf(instance, kills.get(k));
      for (; g < gens.size() && instance.buffer(gens.get(g)).lower() == t; g++) {
        if (Lifetimes.stop(ctx.budget(), g)) {
          return Outcome.noSolution(
              OptionalLong.empty(), "budget exhausted after " + g + " of " + gens.size());
        }
        int i = gens.get(g);
        Buffer b = instance.buffer(i);
        long bits = bits(b);
        Entry e = findAlloc(constFree, bits);
        if (e == null) {
          e = new Entry(bits);
          entries.add(e);
        } else {
          reused++;
        }
        e.alignment = Alignment.lcm(e.alignment, b.alignment(), "buffer '" + b.id() + "'");
        entryOf[i] = e;
      }
      for (; k < kills.size() && deathOf(instance, kills.get(k)) == t; k++) {
        Entry e = entryOf[kills.get(k)];
        if (e.bits > SMALL_ARRAY_BITS) {
          constFree.computeIfAbsent(e.bits, key -> new ArrayDeque<>()).addLast(e);
        }
      }
    }

    long cursor = Lifetimes.fixedTop(instance);
    for (Entry e : entries) {
      e.offset = Alignment.up(cursor, e.alignment);
      cursor = Math.addExact(e.offset, e.bits / 8);
    }
    for (int i = 0; i < n; i++) {
      if (entryOf[i] != null) {
        offsets[i] = entryOf[i].offset;
      }
    }
    return DsaOutcomes.fromOffsets(
        instance, offsets, Map.of("entries", entries.size(), "reused", reused));
  }

  private static int deathOf(DsaInstance instance, int i) {
    return instance.buffer(i).upper() - 1;
  }

  private static long bits(Buffer b) {
    try {
      return Math.multiplyExact(b.size(), 8L);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "buffer '" + b.id() + "': size " + b.size() + " bytes overflows a bit count");
    }
  }

  /** The source's {@code FindAlloc} for a constant-size request; null means {@code NewAlloc}. */
  private Entry findAlloc(NavigableMap<Long, ArrayDeque<Entry>> constFree, long bits) {
    if (bits <= SMALL_ARRAY_BITS) {
      return null;
    }
    long lowest = bits / matchRange;
    long highest = bits > Long.MAX_VALUE / matchRange ? Long.MAX_VALUE : bits * matchRange;
    // the entries at least as large as the request, smallest first
    Map.Entry<Long, ArrayDeque<Entry>> up = constFree.ceilingEntry(bits);
    if (up != null && up.getKey() <= highest) {
      Entry e = up.getValue().pollFirst();
      if (up.getValue().isEmpty()) {
        constFree.remove(up.getKey());
      }
      return e;
    }
    // then the smaller ones, largest first
    Map.Entry<Long, ArrayDeque<Entry>> down = constFree.lowerEntry(bits);
    if (down != null && down.getKey() >= lowest) {
      Entry e = down.getValue().pollLast();
      if (down.getValue().isEmpty()) {
        constFree.remove(down.getKey());
      }
      e.bits = Math.max(e.bits, bits);
      return e;
    }
    return null;
  }
}
