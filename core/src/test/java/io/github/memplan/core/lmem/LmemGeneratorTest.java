package io.github.memplan.core.lmem;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LmemGeneratorTest {

  @Test
  void sameSeedSameInstance() {
    assertThat(LmemGenerator.generate("a", 3, 12, LmemGenerator.SMALL, true, true, 0.5))
        .isEqualTo(LmemGenerator.generate("a", 3, 12, LmemGenerator.SMALL, true, true, 0.5));
  }

  @Test
  void shapesFollowTheTimestepRules() {
    for (long seed = 0; seed < 50; seed++) {
      LmemInstance plain =
          LmemGenerator.generate("p", seed, 8, LmemGenerator.SMALL, false, false, 0.5);
      assertThat(plain.timestepCount()).isEqualTo(10);
      assertThat(plain.buffers()).noneMatch(LmemBuffer::wraps).noneMatch(LmemBuffer::held);
      assertThat(LmemLowerBounds.maxLive(plain)).isLessThanOrEqualTo(2048);
      for (InPlace p : plain.inPlace()) {
        LmemBuffer in = plain.buffers().get(p.input());
        LmemBuffer out = plain.buffers().get(p.output());
        assertThat(in.end()).isEqualTo(out.start());
        assertThat(in.bytes()).isGreaterThanOrEqualTo(out.bytes());
      }
      LmemInstance piped =
          LmemGenerator.generate("q", seed, 8, LmemGenerator.SMALL, true, true, 0.9);
      assertThat(piped.timestepCount()).isEqualTo(8);
      // the group input and output wrap around the loop boundary; weights are held
      assertThat(piped.buffers().get(0).wraps()).isTrue();
      assertThat(piped.buffers().stream().filter(LmemBuffer::wraps).count()).isGreaterThan(1);
      assertThat(piped.buffers())
          .filteredOn(b -> b.kind() == LmemBuffer.Kind.WEIGHT)
          .isNotEmpty()
          .allMatch(LmemBuffer::held);
    }
  }
}
