package io.github.memplan.core.dsa;

import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * Reusable DSA test material: instances with hand-checked optima, a seeded random instance
 * generator, and the brute-force optimum of tiny instances. Every DSA planner's test reaches these
 * through {@link DsaPlannerContract}; solver tests may use them directly.
 */
public final class DsaFixtures {
  private DsaFixtures() {}

  /** The seed of the contract's random instances. */
  public static final long RANDOM_SEED = 0x6D656D706C616EL; // "memplan"

  /** The most buffers {@link #bruteForce} accepts (fixed-offset and zero-size ones not counted). */
  public static final int BRUTE_FORCE_MAX_BUFFERS = 9;

  /**
   * An instance whose optimal peak is known.
   *
   * @param name short, file-safe; also the test's display name
   * @param instance the instance (unbounded capacity)
   * @param optimum the least peak of any valid placement
   * @param why the reasoning that proves {@code optimum}
   */
  public record Fixture(String name, DsaInstance instance, long optimum, String why) {
    public boolean hasGaps() {
      return instance.buffers().stream().anyMatch(b -> !b.gaps().isEmpty());
    }

    public boolean hasFixedOffsets() {
      return instance.buffers().stream().anyMatch(b -> b.fixedOffset().isPresent());
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static Fixture fixture(String name, long optimum, String why, Buffer... buffers) {
    return new Fixture(name, DsaInstance.of(name, List.of(buffers)), optimum, why);
  }

  /**
   * The fixtures with known optima. Each optimum is argued in {@link Fixture#why()}; those without
   * gaps are also confirmed by {@link #bruteForce} in {@code DsaFixturesTest}.
   */
  public static List<Fixture> knownOptima() {
    return List.of(
        fixture("empty", 0, "no buffers: every peak is 0"),
        fixture("one-buffer", 7, "a single buffer at 0", Buffer.of("a", 0, 3, 7)),
        fixture(
            "zero-size",
            5,
            "zero-size buffers occupy nothing; at offset 0 they add nothing to the peak, which is"
                + " then a's size",
            Buffer.of("a", 0, 3, 5),
            Buffer.of("z", 0, 3, 0),
            Buffer.of("y", 1, 2, 0)),
        fixture(
            "disjoint-lifetimes",
            9,
            "lifetimes [0,2), [2,4), [4,6) only touch (half-open), so all three can sit at 0;"
                + " the peak is the largest size, 9",
            Buffer.of("a", 0, 2, 5),
            Buffer.of("b", 2, 4, 9),
            Buffer.of("c", 4, 6, 3)),
        fixture(
            "all-overlapping",
            15,
            "all three live at timestep 0, so the max load 3+5+7 = 15 is a bound; stacking"
                + " reaches it",
            Buffer.of("a", 0, 4, 3),
            Buffer.of("b", 0, 4, 5),
            Buffer.of("c", 0, 4, 7)),
        fixture(
            "staircase",
            11,
            "loads per timestep 4, 10, 11, 8, 3, so max load 11 is a bound; b at 0, c at 6,"
                + " a at 6 (a and c never coexist), d at 0 (b dies at 3 when d is born)"
                + " reaches 11",
            Buffer.of("a", 0, 2, 4),
            Buffer.of("b", 1, 3, 6),
            Buffer.of("c", 2, 4, 5),
            Buffer.of("d", 3, 5, 3)),
        fixture(
            "reuse-after-death",
            10,
            "the long buffer (4) coexists with one short (6) at a time: max load 10; long at 0"
                + " and every short at 4 reaches it",
            Buffer.of("long", 0, 6, 4),
            Buffer.of("s1", 0, 2, 6),
            Buffer.of("s2", 2, 4, 6),
            Buffer.of("s3", 4, 6, 6)),
        fragmentation(),
        fixture(
            "alignment-padding",
            7,
            "both 3-byte buffers need offsets that are multiples of 4 and coexist, so they"
                + " cannot share one; one sits at 4 or higher: peak >= 7 > max load 6;"
                + " 0 and 4 reach it",
            Buffer.of("a", 0, 2, 3).withAlignment(4),
            Buffer.of("b", 0, 2, 3).withAlignment(4)),
        fixture(
            "alignment-order",
            8,
            "max load 3+5 = 8 is a bound; b (8-aligned) at 0 and a at 5 reach it (a first at 0"
                + " would push b to 8, peak 13)",
            Buffer.of("a", 0, 2, 3),
            Buffer.of("b", 0, 2, 5).withAlignment(8)),
        fixture(
            "fixed-offset",
            4,
            "f is fixed at [1,2) while b (2 bytes) is alive; b at 0 would cover byte 1, so b"
                + " sits at 2 or higher: peak >= 4 > max load 3; b at 2 reaches it",
            Buffer.of("f", 0, 2, 1).withFixedOffset(1),
            Buffer.of("b", 0, 2, 2)),
        fixture(
            "gap-window",
            4,
            "a (4 bytes) occupies only its first byte during its gap [1,3), when b (3 bytes) is"
                + " alive: loads 4, 4, 4, 4, so max load 4 is a bound; a at 0, b at 1 reaches it"
                + " (ignoring the gap costs 7)",
            new Buffer("a", 0, 4, 4, 1, List.of(new Gap(1, 3, 0, 1)), OptionalLong.empty()),
            Buffer.of("b", 1, 3, 3)));
  }

  /**
   * A 7-buffer instance whose optimum, 5, exceeds its max load, 4: the space is fragmented, not
   * scarce. With sizes 1 and 2:
   *
   * <pre>
   *   t:        0  1  2  3  4      load
   *   A (2)     x  x               t0: A+B = 4
   *   B (2)     x                  t1: A+X+Y = 4
   *   X (1)        x  x  x         t2: X+Y+Z = 3
   *   Y (1)        x  x            t3: X+Z+C = 4
   *   Z (1)           x  x         t4: C+D = 4
   *   C (2)              x  x
   *   D (2)                 x
   * </pre>
   *
   * Suppose peak 4. At t0, A and B fill [0,4), so A holds one half, [0,2) or [2,4). At t1, X and Y
   * fill the other half: X and Y share a half. Symmetrically at t4 and t3, X and Z share a half
   * (the one C leaves). So Y and Z both hold the slot of X's half that X does not; but Y and Z
   * coexist at t2. Contradiction, so the optimum is at least 5; A at 0, B at 2, X at 2, Y at 3, Z
   * at 4, C at 0, D at 2 reaches 5.
   */
  public static Fixture fragmentation() {
    return fixture(
        "fragmentation",
        5,
        "X shares a half with Y (forced at t0-t1) and with Z (forced at t3-t4), but Y and Z"
            + " coexist at t2; so peak 4 = max load is impossible; 5 is reached (see Javadoc)",
        Buffer.of("A", 0, 2, 2),
        Buffer.of("B", 0, 1, 2),
        Buffer.of("X", 1, 4, 1),
        Buffer.of("Y", 1, 3, 1),
        Buffer.of("Z", 2, 4, 1),
        Buffer.of("C", 3, 5, 2),
        Buffer.of("D", 4, 5, 2));
  }

  /**
   * {@code count} random instances drawn from one generator seeded with {@code seed}: 1 to 40
   * buffers, lifetimes inside [0, 50), sizes 1 to 1000, and in about half of them alignments of 8
   * or 64 (all buffers alike, or mixed with 1). Instance {@code i} is named {@code random-i}.
   */
  public static List<DsaInstance> randomInstances(long seed, int count) {
    SplittableRandom master = new SplittableRandom(seed);
    List<DsaInstance> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(randomInstance(master.split(), "random-" + i));
    }
    return out;
  }

  /** One random instance (see {@link #randomInstances}) drawn from {@code r}. */
  public static DsaInstance randomInstance(SplittableRandom r, String name) {
    int n = 1 + r.nextInt(40);
    // lifetimes: short, medium or anything, so that density varies between instances
    int maxLength =
        switch (r.nextInt(3)) {
          case 0 -> 3;
          case 1 -> 12;
          default -> 50;
        };
    int alignmentMode = r.nextInt(4); // 0, 1: none; 2: all alike; 3: mixed
    long common = r.nextBoolean() ? 8 : 64;
    long[] mixed = {1, 8, 64};
    List<Buffer> bs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int lower = r.nextInt(50);
      int upper = lower + 1 + r.nextInt(Math.min(maxLength, 50 - lower));
      long size = 1 + r.nextInt(1000);
      long alignment =
          switch (alignmentMode) {
            case 2 -> common;
            case 3 -> mixed[r.nextInt(3)];
            default -> 1;
          };
      bs.add(Buffer.of("b" + i, lower, upper, size).withAlignment(alignment));
    }
    return DsaInstance.of(name, bs);
  }

  /**
   * An optimal placement of a tiny instance, by {@link BruteForcePlanner} with no budget limit.
   *
   * @throws IllegalArgumentException if the instance has gaps, more than {@link
   *     #BRUTE_FORCE_MAX_BUFFERS} buffers to place, or no placement
   */
  public static DsaSolution bruteForce(DsaInstance instance) {
    if (instance.buffers().stream().anyMatch(b -> !b.gaps().isEmpty())) {
      throw new IllegalArgumentException(
          "brute force ignores gaps; '" + instance.name() + "' has some");
    }
    long toPlace =
        instance.buffers().stream().filter(b -> b.fixedOffset().isEmpty() && b.size() > 0).count();
    if (toPlace > BRUTE_FORCE_MAX_BUFFERS) {
      throw new IllegalArgumentException(
          "brute force is for at most " + BRUTE_FORCE_MAX_BUFFERS + " buffers, got " + toPlace);
    }
    Outcome<DsaSolution> out = new BruteForcePlanner().solve(instance, SolveContext.unlimited());
    if (out.status() != Status.OPTIMAL) {
      throw new IllegalArgumentException(
          "no optimum for '" + instance.name() + "': " + out.status() + " " + out.message());
    }
    return out.solution();
  }

  /** The least peak of a tiny instance (see {@link #bruteForce}). */
  public static long bruteForcePeak(DsaInstance instance) {
    return instance.peak(bruteForce(instance));
  }
}
