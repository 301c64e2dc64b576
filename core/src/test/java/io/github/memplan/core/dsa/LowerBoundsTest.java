package io.github.memplan.core.dsa;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class LowerBoundsTest {

  private static DsaInstance instance(Buffer... buffers) {
    return DsaInstance.of("test", List.of(buffers));
  }

  @Test
  void emptyInstance() {
    assertThat(LowerBounds.maxLoad(instance())).isZero();
    assertThat(LowerBounds.loadProfile(instance())).isEmpty();
  }

  @Test
  void singleBuffer() {
    DsaInstance inst = instance(Buffer.of("a", 2, 4, 7));
    assertThat(LowerBounds.maxLoad(inst)).isEqualTo(7);
    assertThat(LowerBounds.loadProfile(inst)).containsExactly(0, 0, 7, 7);
  }

  @Test
  void handWorkedStaircase() {
    // t:      0   1   2   3   4
    // a(4)    x   x
    // b(6)        x   x
    // c(5)            x   x
    // d(3)                x   x
    // load    4  10  11   8   3
    DsaInstance inst =
        instance(
            Buffer.of("a", 0, 2, 4),
            Buffer.of("b", 1, 3, 6),
            Buffer.of("c", 2, 4, 5),
            Buffer.of("d", 3, 5, 3));
    assertThat(LowerBounds.loadProfile(inst)).containsExactly(4, 10, 11, 8, 3);
    assertThat(LowerBounds.maxLoad(inst)).isEqualTo(11);
  }

  @Test
  void touchingLifetimesDoNotAddUp() {
    // a dies at 2 exactly when b is born: the load at 2 is b alone
    DsaInstance inst = instance(Buffer.of("a", 0, 2, 10), Buffer.of("b", 2, 4, 10));
    assertThat(LowerBounds.loadProfile(inst)).containsExactly(10, 10, 10, 10);
    assertThat(LowerBounds.maxLoad(inst)).isEqualTo(10);
  }

  @Test
  void idleTimestepsHaveZeroLoad() {
    DsaInstance inst = instance(Buffer.of("a", 0, 1, 3), Buffer.of("b", 3, 4, 5));
    assertThat(LowerBounds.loadProfile(inst)).containsExactly(3, 0, 0, 5);
    assertThat(LowerBounds.maxLoad(inst)).isEqualTo(5);
  }

  @Test
  void gapsCountOnlyTheirWindow() {
    // a (size 10) lives [0,6); during [1,3) it occupies nothing, during [3,5) only 4 bytes
    Buffer a =
        new Buffer(
            "a", 0, 6, 10, 1, List.of(Gap.empty(1, 3), new Gap(3, 5, 2, 6)), OptionalLong.empty());
    Buffer b = Buffer.of("b", 1, 5, 7);
    // t:    0   1   2   3   4   5
    // a    10   0   0   4   4  10
    // b     0   7   7   7   7   0
    // load 10   7   7  11  11  10
    DsaInstance inst = instance(a, b);
    assertThat(LowerBounds.loadProfile(inst)).containsExactly(10, 7, 7, 11, 11, 10);
    assertThat(LowerBounds.maxLoad(inst)).isEqualTo(11);
  }

  @Test
  void zeroSizeBuffersAddNothing() {
    DsaInstance inst = instance(Buffer.of("z", 0, 3, 0), Buffer.of("a", 1, 2, 5));
    assertThat(LowerBounds.loadProfile(inst)).containsExactly(0, 5, 0);
    assertThat(LowerBounds.maxLoad(inst)).isEqualTo(5);
  }

  @Test
  void aFixedOffsetRaisesTheBoundToItsEnd() {
    // the load is only 4, but f must sit at [100, 104)
    DsaInstance inst = instance(Buffer.of("f", 0, 1, 4).withFixedOffset(100));
    assertThat(LowerBounds.loadProfile(inst)).containsExactly(4);
    assertThat(LowerBounds.maxLoad(inst)).isEqualTo(104);
  }

  @Test
  void aFixedOffsetBelowTheLoadDoesNotChangeIt() {
    DsaInstance inst =
        instance(Buffer.of("f", 0, 2, 4).withFixedOffset(0), Buffer.of("a", 0, 2, 20));
    assertThat(LowerBounds.maxLoad(inst)).isEqualTo(24);
  }

  @Test
  void aZeroSizeFixedBufferStillCountsItsOffset() {
    // the peak is max(offset + size) over all buffers, zero-size ones included
    DsaInstance inst =
        instance(Buffer.of("z", 0, 1, 0).withFixedOffset(50), Buffer.of("a", 0, 1, 8));
    assertThat(LowerBounds.maxLoad(inst)).isEqualTo(50);
  }

  @Test
  void maxLoadIsTheMaximumOfTheProfileWithoutFixedOffsets() {
    DsaInstance inst =
        instance(
            Buffer.of("a", 0, 5, 3),
            Buffer.of("b", 1, 2, 9),
            Buffer.of("c", 1, 4, 2),
            Buffer.of("d", 3, 7, 6),
            Buffer.of("e", 6, 7, 1));
    // t:    0  1  2  3  4  5  6
    // a     3  3  3  3  3
    // b        9
    // c        2  2  2
    // d                 6  6  6  6
    // e                          1
    // load  3 14  5 11  9  6  7
    assertThat(LowerBounds.loadProfile(inst)).containsExactly(3, 14, 5, 11, 9, 6, 7);
    assertThat(LowerBounds.maxLoad(inst)).isEqualTo(14);
  }
}
