package io.github.memplan.core.dsa;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.solve.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Checks the sweep-line validator and the load profile against a timestep-by-timestep oracle on
 * seeded random instances with gaps, windows, zero sizes and clashing offsets.
 */
class DsaOracleCrossCheckTest {
  private static final Pattern PAIR = Pattern.compile("buffers '([^']+)' .* and '([^']+)' ");

  /** The bytes {@code [from, to)} past its offset that buffer {@code b} occupies at {@code t}. */
  private static long[] occupied(Buffer b, int t) {
    if (t < b.lower() || t >= b.upper() || b.size() == 0) {
      return null;
    }
    for (Gap g : b.gaps()) {
      if (g.lower() <= t && t < g.upper()) {
        return g.hasWindow() && g.windowUpper() > g.windowLower()
            ? new long[] {g.windowLower(), g.windowUpper()}
            : null;
      }
    }
    return new long[] {0, b.size()};
  }

  private static DsaInstance randomInstance(SplittableRandom r, int index) {
    int n = 1 + r.nextInt(9);
    List<Buffer> bs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int lower = r.nextInt(8);
      int upper = lower + 1 + r.nextInt(6);
      long size = r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(8);
      List<Gap> gaps = new ArrayList<>();
      int t = lower;
      while (t < upper && r.nextInt(3) == 0) {
        int gl = t + r.nextInt(upper - t);
        int gu = gl + 1 + r.nextInt(upper - gl);
        if (r.nextBoolean() || size == 0) {
          gaps.add(Gap.empty(gl, gu));
        } else {
          long wl = r.nextLong(size + 1);
          gaps.add(new Gap(gl, gu, wl, wl + r.nextLong(size - wl + 1)));
        }
        t = gu;
      }
      bs.add(new Buffer("b" + i, lower, upper, size, 1, gaps, OptionalLong.empty()));
    }
    return DsaInstance.of("cross-" + index, bs);
  }

  @Test
  void validatorAgreesWithATimestepOracle() {
    SplittableRandom r = new SplittableRandom(0xC0FFEE);
    DsaValidator validator = new DsaValidator();
    int withOverlap = 0;
    for (int k = 0; k < 2000; k++) {
      DsaInstance inst = randomInstance(r, k);
      long[] offsets = new long[inst.size()];
      for (int i = 0; i < offsets.length; i++) {
        offsets[i] = r.nextInt(12);
      }
      TreeSet<String> expected = new TreeSet<>();
      for (int i = 0; i < inst.size(); i++) {
        for (int j = i + 1; j < inst.size(); j++) {
          for (int t = 0; t < inst.horizon(); t++) {
            long[] a = occupied(inst.buffer(i), t);
            long[] b = occupied(inst.buffer(j), t);
            if (a != null
                && b != null
                && offsets[i] + a[0] < offsets[j] + b[1]
                && offsets[j] + b[0] < offsets[i] + a[1]) {
              expected.add(i + "-" + j);
            }
          }
        }
      }
      List<Violation> v = validator.validate(inst, new DsaSolution(offsets));
      TreeSet<String> actual = new TreeSet<>();
      boolean truncated = false;
      for (Violation x : v) {
        assertThat(x.rule()).isEqualTo("overlap");
        if (x.message().contains("more overlapping pairs")) {
          truncated = true;
          continue;
        }
        Matcher m = PAIR.matcher(x.message());
        assertThat(m.find()).as(x.message()).isTrue();
        int a = Integer.parseInt(m.group(1).substring(1));
        int b = Integer.parseInt(m.group(2).substring(1));
        actual.add(Math.min(a, b) + "-" + Math.max(a, b));
      }
      String what = "instance " + k + ", offsets " + new DsaSolution(offsets);
      if (truncated) {
        assertThat(expected).as(what).containsAll(actual);
      } else {
        assertThat(actual).as(what).isEqualTo(expected);
      }
      if (!expected.isEmpty()) {
        withOverlap++;
      }
    }
    // the generator must exercise both verdicts
    assertThat(withOverlap).isBetween(200, 1800);
  }

  @Test
  void loadProfileAndMaxLoadAgreeWithATimestepOracle() {
    SplittableRandom r = new SplittableRandom(0xBEEF);
    for (int k = 0; k < 2000; k++) {
      DsaInstance inst = randomInstance(r, k);
      long[] expected = new long[inst.horizon()];
      long max = 0;
      for (int t = 0; t < expected.length; t++) {
        for (Buffer b : inst.buffers()) {
          long[] o = occupied(b, t);
          expected[t] += o == null ? 0 : o[1] - o[0];
        }
        max = Math.max(max, expected[t]);
      }
      assertThat(LowerBounds.loadProfile(inst)).as("instance %d", k).containsExactly(expected);
      assertThat(LowerBounds.maxLoad(inst)).as("instance %d", k).isEqualTo(max);
    }
  }
}
