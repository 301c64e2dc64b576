package io.github.memplan.baseline.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaFixtures;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.Gap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The shared helpers, checked against direct computations. */
class LifetimesTest {

  /** The sweep finds exactly the pairs a quadratic check finds. */
  @Test
  void overlapsMatchPairwiseChecks() {
    for (DsaInstance instance : DsaFixtures.randomInstances(DsaFixtures.RANDOM_SEED + 3, 50)) {
      int[][] lists = Lifetimes.overlaps(instance);
      for (int i = 0; i < instance.size(); i++) {
        List<Integer> expected = new ArrayList<>();
        for (int j = 0; j < instance.size(); j++) {
          if (j != i && instance.buffer(i).overlapsInTime(instance.buffer(j))) {
            expected.add(j);
          }
        }
        assertThat(lists[i])
            .as("%s buffer %d", instance.name(), i)
            .containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
      }
    }
  }

  @Test
  void zeroSizeBuffersOverlapNothing() {
    DsaInstance instance =
        DsaInstance.of("z", List.of(Buffer.of("a", 0, 2, 4), Buffer.of("z", 0, 2, 0)));
    int[][] lists = Lifetimes.overlaps(instance);
    assertThat(lists[0]).isEmpty();
    assertThat(lists[1]).isEmpty();
  }

  /** Both sort paths agree with a stable boxed sort by (key, position). */
  @Test
  void sortByKeyIsAStableSortByKey() {
    SplittableRandom r = new SplittableRandom(5);
    for (int round = 0; round < 200; round++) {
      int len = r.nextInt(40);
      long[] key = new long[60];
      for (int i = 0; i < key.length; i++) {
        // even rounds: small keys (packed path); odd rounds: huge keys (merge sort path)
        key[i] = round % 2 == 0 ? r.nextInt(6) : Long.MAX_VALUE - r.nextInt(6);
      }
      int[] a = new int[len];
      for (int i = 0; i < len; i++) {
        a[i] = r.nextInt(60);
      }
      Integer[] expected = Arrays.stream(a).boxed().toArray(Integer[]::new);
      Arrays.sort(expected, Comparator.comparingLong(i -> key[i]));
      Lifetimes.sortByKey(a, len, key, new int[len], new long[len]);
      assertThat(Arrays.stream(a).boxed().toArray(Integer[]::new)).containsExactly(expected);
    }
  }

  /**
   * Names compare as C++ std::string: UTF-8 bytes, unsigned. U+FF21 (EF BC A1) sorts before an
   * emoji (F0 ...), although Java's UTF-16 order puts the emoji's surrogate (D83D) first.
   */
  @Test
  void namesCompareByUtf8Bytes() {
    String fullwidthA = "\uFF21";
    String emoji = "\uD83D\uDE00";
    assertThat(fullwidthA.compareTo(emoji)).isPositive();
    assertThat(Lifetimes.compareNames(fullwidthA, emoji)).isNegative();
    assertThat(Lifetimes.compareNames("ab", "abc")).isNegative();
    assertThat(Lifetimes.compareNames("b", "a")).isPositive();
  }

  @Test
  void lcmAndAlignUp() {
    assertThat(Alignment.lcm(8, 12, "x")).isEqualTo(24);
    assertThat(Alignment.up(13, 8)).isEqualTo(16);
    assertThat(Alignment.up(16, 8)).isEqualTo(16);
    assertThatThrownBy(() -> Alignment.lcm(Long.MAX_VALUE, Long.MAX_VALUE - 1, "buffer 'q'"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("buffer 'q'");
  }

  /**
   * The max load over whole buffers ignores gaps: a 4-byte buffer with an empty gap still counts.
   */
  @Test
  void wholeSizeLoadIgnoresGaps() {
    DsaInstance instance =
        DsaInstance.of(
            "gap",
            List.of(
                new Buffer("a", 0, 4, 4, 1, List.of(Gap.empty(1, 3)), OptionalLong.empty()),
                Buffer.of("b", 1, 3, 3)));
    assertThat(Lifetimes.wholeSizeMaxLoad(instance)).isEqualTo(7);
  }
}
