package io.github.memplan.core.lmem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link LmemBuffer}'s lives: plain, wrapped past the loop boundary, and held. */
class LmemBufferTest {
  private static LmemBuffer life(int start, int end) {
    return new LmemBuffer("b", LmemBuffer.Kind.ACTIVATION, start, end, 16, false);
  }

  /**
   * {@link LmemBuffer#overlapsInTime} (interval arithmetic) says what a scan of {@link
   * LmemBuffer#liveAt} over every timestep says, for every pair of lives in groups of 1 to 7
   * timesteps, starts and ends one past the last timestep included.
   */
  @Test
  void overlapsInTimeAgreesWithATimestepScanOnEveryPairOfLives() {
    List<String> differ = new ArrayList<>();
    int pairs = 0;
    for (int t = 1; t <= 7; t++) {
      for (int s1 = 0; s1 <= t; s1++) {
        for (int e1 = 0; e1 <= t; e1++) {
          for (int s2 = 0; s2 <= t; s2++) {
            for (int e2 = 0; e2 <= t; e2++) {
              LmemBuffer x = life(s1, e1);
              LmemBuffer y = life(s2, e2);
              boolean scan = false;
              for (int ts = 0; ts < t; ts++) {
                scan |= x.liveAt(ts) && y.liveAt(ts);
              }
              pairs++;
              if (scan != x.overlapsInTime(y, t)) {
                differ.add("T=" + t + " [" + s1 + "," + e1 + "] [" + s2 + "," + e2 + "]");
              }
            }
          }
        }
      }
    }
    assertThat(pairs).isEqualTo(8771);
    assertThat(differ).isEmpty();
  }

  @Test
  void aWrappedLifeMeetsBothEndsOfTheLoopAndAHeldOneMeetsEverything() {
    assertThat(life(4, 1).overlapsInTime(life(0, 0), 6)).isTrue();
    assertThat(life(4, 1).overlapsInTime(life(5, 5), 6)).isTrue();
    assertThat(life(4, 1).overlapsInTime(life(2, 3), 6)).isFalse();
    LmemBuffer held = new LmemBuffer("w", LmemBuffer.Kind.WEIGHT, 3, 3, 16, true);
    assertThat(held.overlapsInTime(life(0, 0), 6)).isTrue();
  }
}
