package io.github.memplan.core.dsa;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FixedOffsetsTest {

  @Test
  void misfitNamesTheFirstMisalignedOrOverlongFixedBuffer() {
    Buffer free = Buffer.of("free", 0, 2, 8);
    Buffer odd = Buffer.of("odd", 0, 2, 8).withAlignment(4).withFixedOffset(6);
    Buffer high = Buffer.of("high", 0, 2, 8).withFixedOffset(10);
    assertThat(FixedOffsets.misfit(DsaInstance.of("none", List.of(free)))).isEmpty();
    assertThat(FixedOffsets.misfit(DsaInstance.of("odd", List.of(free, odd, high))))
        .hasValue("buffer 'odd' is fixed at 6, not a multiple of its alignment 4");
    assertThat(FixedOffsets.misfit(DsaInstance.of("high", List.of(high)).withCapacity(17)))
        .hasValue("buffer 'high' is fixed to end past the capacity 17");
    assertThat(FixedOffsets.misfit(DsaInstance.of("fits", List.of(high)).withCapacity(18)))
        .isEmpty();
  }

  @Test
  void collideOnlyWhenFixedBuffersShareTimeAndAddress() {
    Buffer a = Buffer.of("a", 0, 2, 8).withFixedOffset(0);
    Buffer b = Buffer.of("b", 1, 3, 8).withFixedOffset(4);
    Buffer later = Buffer.of("later", 2, 4, 8).withFixedOffset(0);
    Buffer free = Buffer.of("free", 0, 4, 8);
    assertThat(FixedOffsets.collide(DsaInstance.of("x", List.of(free)))).isFalse();
    assertThat(FixedOffsets.collide(DsaInstance.of("x", List.of(a, later, free)))).isFalse();
    assertThat(FixedOffsets.collide(DsaInstance.of("x", List.of(a, b)))).isTrue();
  }

  @Test
  void gcdAndTheSizeBound() {
    assertThat(Alignment.gcd(0, 12)).isEqualTo(12);
    assertThat(Alignment.gcd(12, 18)).isEqualTo(6);
    assertThat(Alignment.gcd(7, 0)).isEqualTo(7);
    assertThat(Alignment.lcm(4, 6, "t")).isEqualTo(12);
    // a buffer that is all gap adds no load but still needs its size below the peak
    Buffer ghost =
        new Buffer("ghost", 0, 2, 64, 1, List.of(Gap.empty(0, 2)), java.util.OptionalLong.empty());
    DsaInstance in = DsaInstance.of("g", List.of(Buffer.of("a", 0, 2, 8), ghost));
    assertThat(LowerBounds.maxLoad(in)).isEqualTo(8);
    assertThat(LowerBounds.maxLoadAndSizes(in)).isEqualTo(64);
  }
}
