package io.github.memplan.solvers.dsa.timefold;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.dsa.Gap;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The lowest-offset decoder on hand-worked cases, and its defining property on random ones. */
class DecoderTest {

  private static long[] decode(DsaInstance inst, int... order) {
    return new Decoder(inst).decode(order);
  }

  @Test
  void plainBuffersStackOnlyOnTheirTimeNeighbours() {
    // a [0,2) 4 B, b [1,3) 2 B, c [2,4) 3 B: c meets b (at 4..6) but not a, so it fits under b
    DsaInstance inst =
        DsaInstance.of(
            "plain",
            List.of(Buffer.of("a", 0, 2, 4), Buffer.of("b", 1, 3, 2), Buffer.of("c", 2, 4, 3)));
    assertThat(decode(inst, 0, 1, 2)).containsExactly(0, 4, 0);
    // the other way round: c at 0, b above c at 3..5, and a (4 B) no longer fits below b: 5
    assertThat(decode(inst, 2, 1, 0)).containsExactly(5, 3, 0);
  }

  @Test
  void alignmentRoundsUpPastEachObstacle() {
    // a [0,4) 5 B at 0; b (alignment 8, 3 B) goes to 8, not 5; c (alignment 4, 2 B): 4 meets a,
    // 8 meets b, so 12
    DsaInstance inst =
        DsaInstance.of(
            "aligned",
            List.of(
                Buffer.of("a", 0, 4, 5),
                Buffer.of("b", 0, 4, 3).withAlignment(8),
                Buffer.of("c", 0, 4, 2).withAlignment(4)));
    assertThat(decode(inst, 0, 1, 2)).containsExactly(0, 8, 12);
  }

  @Test
  void fixedBuffersStayAndBlock() {
    // f fixed at 10 (5 B); x (8 B) fits below it at 0; y (8 B) finds 8..10 too small: 15
    DsaInstance inst =
        DsaInstance.of(
            "fixed",
            List.of(
                Buffer.of("f", 0, 4, 5).withFixedOffset(10),
                Buffer.of("x", 0, 4, 8),
                Buffer.of("y", 0, 4, 8)));
    assertThat(decode(inst, 0, 1, 2)).containsExactly(10, 0, 15);
  }

  @Test
  void emptyGapLetsAnotherBufferIn() {
    // a [0,10) 10 B occupies nothing during [3,6); b [3,6) 10 B can take the same addresses
    Buffer a = new Buffer("a", 0, 10, 10, 1, List.of(Gap.empty(3, 6)), OptionalLong.empty());
    DsaInstance inst = DsaInstance.of("gap", List.of(a, Buffer.of("b", 3, 6, 10)));
    assertThat(decode(inst, 0, 1)).containsExactly(0, 0);
    // with b spanning [2,6) it meets a's full size at step 2
    DsaInstance longer = DsaInstance.of("gap2", List.of(a, Buffer.of("b", 2, 6, 10)));
    assertThat(decode(longer, 0, 1)).containsExactly(0, 10);
  }

  @Test
  void windowedGapLetsAnotherBufferBesideTheWindow() {
    // a [0,10) 10 B keeps only bytes [0,4) during [3,6); b [3,6) 6 B fits in a's bytes 4..10
    Buffer a = new Buffer("a", 0, 10, 10, 1, List.of(new Gap(3, 6, 0, 4)), OptionalLong.empty());
    DsaInstance inst = DsaInstance.of("window", List.of(a, Buffer.of("b", 3, 6, 6)));
    long[] off = decode(inst, 0, 1);
    assertThat(off).containsExactly(0, 4);
    DsaPlannerContract.assertSolutionValid(inst, new DsaSolution(off));
    // b first, then a: a's window [0,4) at steps 3..6 must clear b at [0,6): a goes to 6
    assertThat(decode(inst, 1, 0)).containsExactly(6, 0);
  }

  /**
   * On random instances with alignments, gaps, windows and fixed offsets, in random orders: the
   * decode is valid, and no buffer could go lower (every smaller aligned offset collides with a
   * buffer placed before it), checked against the validator on the prefix.
   */
  @Test
  void everyBufferIsValidAndLowest() {
    SplittableRandom r = new SplittableRandom(20251125L);
    DsaValidator validator = new DsaValidator();
    for (int t = 0; t < 150; t++) {
      DsaInstance inst = randomWithGaps(r, "r" + t);
      int n = inst.size();
      int[] order = shuffledOrder(inst, r);
      long[] off = decode(inst, order);
      DsaPlannerContract.assertSolutionValid(inst, new DsaSolution(off));
      for (int p = 0; p < n; p++) {
        int x = order[p];
        Buffer b = inst.buffer(x);
        if (b.fixedOffset().isPresent()) {
          continue;
        }
        List<Buffer> prefix = new ArrayList<>();
        long[] prefixOff = new long[p + 1];
        for (int q = 0; q < p; q++) {
          prefix.add(inst.buffer(order[q]));
          prefixOff[q] = off[order[q]];
        }
        prefix.add(b);
        for (long o = 0; o < off[x]; o += b.alignment()) {
          prefixOff[p] = o;
          assertThat(
                  validator.isValid(
                      DsaInstance.of("prefix", prefix), new DsaSolution(prefixOff.clone())))
              .as("%s: buffer %s at %d is lower than its decode %d", inst.name(), b.id(), o, off[x])
              .isFalse();
        }
      }
    }
  }

  /** Fixed buffers first (they must not collide), the rest shuffled. */
  static int[] shuffledOrder(DsaInstance inst, SplittableRandom r) {
    List<Integer> fixed = new ArrayList<>();
    List<Integer> rest = new ArrayList<>();
    for (int i = 0; i < inst.size(); i++) {
      (inst.buffer(i).fixedOffset().isPresent() ? fixed : rest).add(i);
    }
    for (int i = rest.size() - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      Integer t = rest.get(i);
      rest.set(i, rest.get(j));
      rest.set(j, t);
    }
    fixed.addAll(rest);
    return fixed.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * A small random instance: lifetimes in [0,12), sizes up to 40, alignments 1, 2 or 4, some gaps
   * (empty or windowed) and at most one fixed buffer (at an aligned offset, so never colliding).
   */
  static DsaInstance randomWithGaps(SplittableRandom r, String name) {
    int n = 1 + r.nextInt(9);
    List<Buffer> bs = new ArrayList<>();
    boolean fixedDone = false;
    for (int i = 0; i < n; i++) {
      int lower = r.nextInt(10);
      int upper = lower + 1 + r.nextInt(12 - lower);
      long size = r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(40);
      long align = new long[] {1, 2, 4}[r.nextInt(3)];
      List<Gap> gaps = new ArrayList<>();
      if (upper - lower >= 3 && r.nextInt(3) == 0) {
        int gl = lower + 1 + r.nextInt(upper - lower - 2);
        int gu = gl + 1 + r.nextInt(upper - gl - 1);
        if (r.nextBoolean() || size == 0) {
          gaps.add(Gap.empty(gl, gu));
        } else {
          long wl = r.nextInt((int) size);
          long wu = wl + r.nextInt((int) (size - wl) + 1);
          gaps.add(new Gap(gl, gu, wl, wu));
        }
      }
      OptionalLong fixed = OptionalLong.empty();
      if (!fixedDone && r.nextInt(4) == 0) {
        fixed = OptionalLong.of(align * r.nextInt(20));
        fixedDone = true;
      }
      bs.add(new Buffer("b" + i, lower, upper, size, align, gaps, fixed));
    }
    return DsaInstance.of(name, bs);
  }
}
