package io.github.memplan.datasets.dsa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.LowerBounds;
import org.junit.jupiter.api.Test;

class DsaTraceGeneratorTest {

  @Test
  void sameSeedSameInstanceOtherSeedAnother() {
    DsaInstance a = DsaTraceGenerator.generate(5_000, 7);
    assertThat(DsaTraceGenerator.generate(5_000, 7)).isEqualTo(a);
    assertThat(DsaTraceGenerator.generate(5_000, 8).buffers()).isNotEqualTo(a.buffers());
    assertThat(a.name()).isEqualTo("gen-5000-s7");
  }

  @Test
  void exactlyTheRequestedBuffersInsideTheSchedule() {
    for (int n : new int[] {1, 2, 999, 10_000}) {
      DsaInstance in = DsaTraceGenerator.generate(n, 3);
      assertThat(in.size()).isEqualTo(n);
      int end = in.horizon();
      for (int i = 0; i < n; i++) {
        Buffer b = in.buffer(i);
        assertThat(b.id()).isEqualTo(Integer.toString(i));
        assertThat(b.lower()).isLessThan(b.upper());
        assertThat(b.upper()).isLessThanOrEqualTo(end);
        assertThat(b.size() % 64).isZero();
        assertThat(b.size()).isPositive();
      }
    }
  }

  /**
   * The lifetime mix the Javadoc promises, within sampling error on 20,000 buffers: outputs are 72%
   * chain [t, t+2), and about 15% of ops add a one-step scratch buffer.
   */
  @Test
  void lifetimeMixAsDocumented() {
    DsaInstance in = DsaTraceGenerator.generate(20_000, 11);
    int one = 0;
    int two = 0;
    int longer = 0;
    int veryLong = 0;
    for (Buffer b : in.buffers()) {
      int len = b.upper() - b.lower();
      if (len == 1) {
        one++;
      } else if (len == 2) {
        two++;
      } else {
        longer++;
        if (len >= 42) {
          veryLong++;
        }
      }
    }
    int outputs = in.size() - one;
    assertThat((double) one / outputs).isBetween(0.13, 0.17);
    assertThat((double) two / outputs).isBetween(0.70, 0.74);
    assertThat((double) longer / outputs).isBetween(0.26, 0.30);
    assertThat((double) veryLong / outputs).isBetween(0.03, 0.05);
  }

  /** Sizes follow stages: the load varies along the schedule instead of growing with it. */
  @Test
  void peakLoadDoesNotScaleWithLength() {
    long small = LowerBounds.maxLoad(DsaTraceGenerator.generate(1_000, 5));
    long large = LowerBounds.maxLoad(DsaTraceGenerator.generate(100_000, 5));
    assertThat(large).isBetween(small, 50 * small);
    long granule = 4096;
    DsaInstance aligned = DsaTraceGenerator.generate(1_000, 5, granule);
    assertThat(aligned.buffers()).allMatch(b -> b.size() % granule == 0);
  }

  @Test
  void badArgumentsNamed() {
    assertThatThrownBy(() -> DsaTraceGenerator.generate(0, 1))
        .hasMessage("generator: buffers must be at least 1, not 0");
    assertThatThrownBy(() -> DsaTraceGenerator.generate(10, 1, 0))
        .hasMessage("generator: granule must be at least 1, not 0");
  }
}
