package io.github.memplan.core.dsa;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.solve.Violation;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class DsaValidatorTest {
  private final DsaValidator validator = new DsaValidator();

  private static DsaSolution at(long... offsets) {
    return new DsaSolution(offsets);
  }

  private static DsaInstance instance(Buffer... buffers) {
    return DsaInstance.of("test", List.of(buffers));
  }

  private List<String> rules(DsaInstance instance, DsaSolution solution) {
    return validator.validate(instance, solution).stream().map(Violation::rule).toList();
  }

  @Test
  void emptyInstanceAndEmptySolutionAreValid() {
    assertThat(validator.validate(instance(), at())).isEmpty();
    assertThat(validator.isValid(instance(), at())).isTrue();
  }

  @Test
  void aValidPackingHasNoViolations() {
    DsaInstance inst =
        instance(Buffer.of("a", 0, 3, 4), Buffer.of("b", 1, 4, 6), Buffer.of("c", 3, 5, 4));
    // a [0,4) and b [4,10) share time 1-2; c reuses a's space once a is dead at 3
    assertThat(validator.validate(inst, at(0, 4, 0))).isEmpty();
  }

  @Nested
  class Count {
    @Test
    void tooFewOrTooManyOffsetsIsOneCountViolationAndNothingElse() {
      DsaInstance inst = instance(Buffer.of("a", 0, 1, 4), Buffer.of("b", 0, 1, 4));
      List<Violation> few = validator.validate(inst, at(0));
      assertThat(few).extracting(Violation::rule).containsExactly("count");
      assertThat(few.get(0).message()).contains("1 offsets for 2 buffers of 'test'");
      assertThat(rules(inst, at(0, 0, 0))).containsExactly("count");
      assertThat(rules(instance(), at(5))).containsExactly("count");
    }
  }

  @Nested
  class Negative {
    @Test
    void negativeOffsetIsReportedOnceAndNotAsOverlap() {
      DsaInstance inst = instance(Buffer.of("a", 0, 2, 4), Buffer.of("b", 0, 2, 4));
      List<Violation> v = validator.validate(inst, at(-4, 0));
      assertThat(v).extracting(Violation::rule).containsExactly("negative");
      assertThat(v.get(0).message()).contains("'a'").contains("-4");
    }

    @Test
    void negativeOffsetOfAZeroSizeBufferIsStillNegative() {
      assertThat(rules(instance(Buffer.of("z", 0, 1, 0)), at(-1))).containsExactly("negative");
    }
  }

  @Nested
  class Alignment {
    @Test
    void offsetMustBeAMultipleOfTheAlignment() {
      DsaInstance inst = instance(Buffer.of("a", 0, 1, 10).withAlignment(8));
      assertThat(rules(inst, at(0))).isEmpty();
      assertThat(rules(inst, at(64))).isEmpty();
      List<Violation> v = validator.validate(inst, at(12));
      assertThat(v).extracting(Violation::rule).containsExactly("alignment");
      assertThat(v.get(0).message()).contains("'a'").contains("12").contains("8");
    }

    @Test
    void alignmentOneAcceptsEveryOffset() {
      assertThat(rules(instance(Buffer.of("a", 0, 1, 10)), at(7))).isEmpty();
    }

    @Test
    void zeroSizeBuffersMustStillBeAligned() {
      assertThat(rules(instance(Buffer.of("z", 0, 1, 0).withAlignment(4)), at(2)))
          .containsExactly("alignment");
    }
  }

  @Nested
  class FixedOffset {
    @Test
    void aFixedBufferMustSitAtItsOffset() {
      DsaInstance inst = instance(Buffer.of("f", 0, 2, 4).withFixedOffset(16));
      assertThat(rules(inst, at(16))).isEmpty();
      List<Violation> v = validator.validate(inst, at(0));
      assertThat(v).extracting(Violation::rule).containsExactly("fixed-offset");
      assertThat(v.get(0).message()).contains("'f'").contains("16").contains("0");
    }

    @Test
    void fixedBuffersTakePartInOverlapChecks() {
      DsaInstance inst =
          instance(Buffer.of("f", 0, 2, 4).withFixedOffset(2), Buffer.of("b", 1, 3, 4));
      assertThat(rules(inst, at(2, 0))).containsExactly("overlap");
      assertThat(rules(inst, at(2, 6))).isEmpty();
    }
  }

  @Nested
  class Capacity {
    @Test
    void bufferMustEndAtOrBelowTheCapacity() {
      DsaInstance inst = instance(Buffer.of("a", 0, 1, 10)).withCapacity(100);
      assertThat(rules(inst, at(90))).isEmpty();
      List<Violation> v = validator.validate(inst, at(91));
      assertThat(v).extracting(Violation::rule).containsExactly("capacity");
      assertThat(v.get(0).message()).contains("'a'").contains("101").contains("100");
    }

    @Test
    void aBufferLargerThanTheCapacityNeverFits() {
      DsaInstance inst = instance(Buffer.of("a", 0, 1, 10)).withCapacity(8);
      assertThat(rules(inst, at(0))).containsExactly("capacity");
    }

    @Test
    void zeroSizeBufferMaySitAtTheCapacityButNotBeyond() {
      DsaInstance inst = instance(Buffer.of("z", 0, 1, 0)).withCapacity(8);
      assertThat(rules(inst, at(8))).isEmpty();
      assertThat(rules(inst, at(9))).containsExactly("capacity");
    }

    @Test
    void unboundedCapacityStillCatchesOffsetsWhoseEndOverflows() {
      DsaInstance inst = instance(Buffer.of("a", 0, 1, 10), Buffer.of("b", 0, 1, 10));
      List<Violation> v = validator.validate(inst, at(Long.MAX_VALUE - 5, 0));
      assertThat(v).extracting(Violation::rule).containsExactly("capacity");
      assertThat(v.get(0).message()).doesNotContain("-");
      assertThat(rules(inst, at(Long.MAX_VALUE - 10, 0))).isEmpty();
    }
  }

  @Nested
  class Overlap {
    @Test
    void buffersAliveTogetherMustNotShareAddresses() {
      DsaInstance inst = instance(Buffer.of("a", 0, 3, 8), Buffer.of("b", 2, 4, 8));
      List<Violation> v = validator.validate(inst, at(0, 4));
      assertThat(v).extracting(Violation::rule).containsExactly("overlap");
      assertThat(v.get(0).message())
          .contains("'a' [0, 8)")
          .contains("'b' [4, 12)")
          .contains("timesteps [2, 3)");
    }

    @Test
    void touchingLifetimesDoNotOverlap() {
      // a lives [0,2), b lives [2,4): half-open, so they never coexist and may share bytes
      DsaInstance inst = instance(Buffer.of("a", 0, 2, 8), Buffer.of("b", 2, 4, 8));
      assertThat(rules(inst, at(0, 0))).isEmpty();
      assertThat(rules(inst, at(0, 3))).isEmpty();
    }

    @Test
    void touchingAddressRangesDoNotOverlap() {
      // a is [0,8), b is [8,16): half-open, so they are adjacent, not overlapping
      DsaInstance inst = instance(Buffer.of("a", 0, 4, 8), Buffer.of("b", 0, 4, 8));
      assertThat(rules(inst, at(0, 8))).isEmpty();
      assertThat(rules(inst, at(8, 0))).isEmpty();
      assertThat(rules(inst, at(0, 7))).containsExactly("overlap");
      assertThat(rules(inst, at(1, 8))).containsExactly("overlap");
    }

    @Test
    void containedAndIdenticalRangesOverlap() {
      DsaInstance inst = instance(Buffer.of("big", 0, 4, 100), Buffer.of("small", 1, 2, 1));
      assertThat(rules(inst, at(0, 50))).containsExactly("overlap");
      assertThat(rules(inst, at(0, 0))).containsExactly("overlap");
      assertThat(rules(inst, at(0, 99))).containsExactly("overlap");
      assertThat(rules(inst, at(0, 100))).isEmpty();
    }

    @Test
    void oneTimestepOfSharedLifeIsEnough() {
      DsaInstance inst = instance(Buffer.of("a", 0, 3, 4), Buffer.of("b", 2, 9, 4));
      assertThat(rules(inst, at(0, 0))).containsExactly("overlap");
    }

    @Test
    void everyOverlappingPairIsReported() {
      DsaInstance inst =
          instance(Buffer.of("a", 0, 2, 4), Buffer.of("b", 0, 2, 4), Buffer.of("c", 0, 2, 4));
      assertThat(rules(inst, at(0, 0, 0))).containsExactly("overlap", "overlap", "overlap");
    }

    @Test
    void manyOverlapsAreCappedWithASummary() {
      int n = 8; // 8 buffers at one place: 28 overlapping pairs
      Buffer[] bs = new Buffer[n];
      for (int i = 0; i < n; i++) {
        bs[i] = Buffer.of("b" + i, 0, 1, 1);
      }
      List<Violation> v = validator.validate(instance(bs), new DsaSolution(new long[n]));
      assertThat(v).hasSize(DsaValidator.MAX_REPORTED + 1);
      assertThat(v).allMatch(x -> x.rule().equals("overlap"));
      assertThat(v.get(v.size() - 1).message())
          .startsWith((28 - DsaValidator.MAX_REPORTED) + " more");
    }

    @Test
    void overlapsAreFoundAcrossDeadBuffersInTheSweep() {
      // b dies before c is born; a (long-lived) must still be compared against c
      DsaInstance inst =
          instance(Buffer.of("a", 0, 10, 4), Buffer.of("b", 1, 2, 4), Buffer.of("c", 5, 6, 4));
      assertThat(rules(inst, at(0, 4, 4))).isEmpty();
      List<Violation> v = validator.validate(inst, at(0, 4, 2));
      assertThat(v).extracting(Violation::rule).containsExactly("overlap");
      assertThat(v.get(0).message()).contains("'a'").contains("'c'");
    }

    @Test
    void severalRulesAreReportedTogether() {
      DsaInstance inst =
          instance(
                  Buffer.of("a", 0, 2, 4).withAlignment(4),
                  Buffer.of("b", 0, 2, 4).withFixedOffset(0),
                  Buffer.of("c", 0, 2, 4))
              .withCapacity(10);
      assertThat(rules(inst, at(2, 4, 8)))
          .containsExactlyInAnyOrder("alignment", "fixed-offset", "capacity", "overlap");
    }
  }

  @Nested
  class Gaps {
    @Test
    void duringAnEmptyGapTheBufferOccupiesNothing() {
      Buffer a = new Buffer("a", 0, 6, 8, 1, List.of(Gap.empty(2, 4)), OptionalLong.empty());
      DsaInstance inst = instance(a, Buffer.of("b", 2, 4, 8));
      assertThat(rules(inst, at(0, 0))).isEmpty();
    }

    @Test
    void outsideTheGapTheBufferOccupiesItsWholeSize() {
      Buffer a = new Buffer("a", 0, 6, 8, 1, List.of(Gap.empty(2, 4)), OptionalLong.empty());
      // b lives [1,3): it meets a's full extent at timestep 1
      DsaInstance inst = instance(a, Buffer.of("b", 1, 3, 8));
      assertThat(rules(inst, at(0, 0))).containsExactly("overlap");
      // and at timestep 4 after the gap
      DsaInstance late = instance(a, Buffer.of("c", 3, 5, 8));
      assertThat(rules(late, at(0, 0))).containsExactly("overlap");
    }

    @Test
    void duringAGapWithAWindowOnlyTheWindowIsOccupied() {
      // a occupies [off+2, off+5) during [2,4)
      Buffer a = new Buffer("a", 0, 6, 8, 1, List.of(new Gap(2, 4, 2, 5)), OptionalLong.empty());
      DsaInstance below = instance(a, Buffer.of("b", 2, 4, 2));
      assertThat(rules(below, at(0, 0))).isEmpty(); // b [0,2) touches the window at 2
      DsaInstance above = instance(a, Buffer.of("b", 2, 4, 3));
      assertThat(rules(above, at(0, 5))).isEmpty(); // b [5,8) touches the window's end
      assertThat(rules(above, at(0, 4))).containsExactly("overlap");
      assertThat(rules(below, at(0, 1))).containsExactly("overlap");
    }

    @Test
    void twoGappedBuffersOverlapOnlyWhereTheirPiecesMeet() {
      Buffer a = new Buffer("a", 0, 4, 4, 1, List.of(Gap.empty(1, 4)), OptionalLong.empty());
      Buffer b = new Buffer("b", 0, 4, 4, 1, List.of(Gap.empty(0, 1)), OptionalLong.empty());
      // a occupies only timestep 0, b only timesteps 1..3
      assertThat(rules(instance(a, b), at(0, 0))).isEmpty();
    }

    @Test
    void anEmptyWindowOccupiesNothing() {
      Buffer a = new Buffer("a", 0, 4, 4, 1, List.of(new Gap(1, 3, 2, 2)), OptionalLong.empty());
      assertThat(rules(instance(a, Buffer.of("b", 1, 3, 4)), at(0, 0))).isEmpty();
    }
  }

  @Nested
  class ZeroSize {
    @Test
    void zeroSizeBuffersNeverOverlapAnything() {
      DsaInstance inst =
          instance(Buffer.of("a", 0, 4, 8), Buffer.of("z", 0, 4, 0), Buffer.of("y", 1, 2, 0));
      assertThat(rules(inst, at(0, 0, 0))).isEmpty();
      assertThat(rules(inst, at(0, 4, 4))).isEmpty();
    }
  }
}
