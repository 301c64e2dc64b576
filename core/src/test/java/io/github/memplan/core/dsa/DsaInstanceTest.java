package io.github.memplan.core.dsa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class DsaInstanceTest {

  @Test
  void rejectsNonPositiveCapacity() {
    assertThatThrownBy(() -> new DsaInstance("x", List.of(), 0, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("instance 'x'")
        .hasMessageContaining("capacity 0");
    assertThatThrownBy(() -> DsaInstance.of("x", List.of()).withCapacity(-5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("capacity -5");
  }

  @Test
  void rejectsDuplicateIds() {
    assertThatThrownBy(
            () -> DsaInstance.of("x", List.of(Buffer.of("a", 0, 1, 1), Buffer.of("a", 2, 3, 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("instance 'x'")
        .hasMessageContaining("'a' appears twice");
  }

  @Test
  void rejectsNulls() {
    assertThatThrownBy(() -> DsaInstance.of(null, List.of()))
        .isInstanceOf(NullPointerException.class);
    List<Buffer> withNull = new ArrayList<>();
    withNull.add(null);
    assertThatThrownBy(() -> DsaInstance.of("x", withNull))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void buffersAreAnImmutableCopy() {
    List<Buffer> bs = new ArrayList<>(List.of(Buffer.of("a", 0, 1, 1)));
    DsaInstance inst = DsaInstance.of("x", bs);
    bs.add(Buffer.of("b", 0, 1, 1));
    assertThat(inst.size()).isEqualTo(1);
    assertThatThrownBy(() -> inst.buffers().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void derivedQuantities() {
    DsaInstance inst =
        DsaInstance.of(
            "x",
            List.of(Buffer.of("a", 0, 3, 4), Buffer.of("b", 2, 7, 6), Buffer.of("z", 1, 2, 0)));
    assertThat(inst.horizon()).isEqualTo(7);
    assertThat(inst.totalBytes()).isEqualTo(10);
    assertThat(inst.bounded()).isFalse();
    assertThat(inst.capacity()).isEqualTo(DsaInstance.UNBOUNDED);
    assertThat(inst.withCapacity(64).bounded()).isTrue();
    assertThat(inst.withName("y").name()).isEqualTo("y");
    assertThat(inst.withName("y").buffers()).isEqualTo(inst.buffers());
    assertThat(inst.indexById()).containsEntry("a", 0).containsEntry("b", 1).containsEntry("z", 2);
    assertThat(inst.buffer(1).id()).isEqualTo("b");
    assertThat(DsaInstance.of("e", List.of()).horizon()).isZero();
  }

  @Test
  void peakIsTheHighestEndIncludingZeroSizeBuffers() {
    DsaInstance inst =
        DsaInstance.of("x", List.of(Buffer.of("a", 0, 3, 4), Buffer.of("z", 0, 3, 0)));
    assertThat(inst.peak(new DsaSolution(new long[] {0, 0}))).isEqualTo(4);
    assertThat(inst.peak(new DsaSolution(new long[] {8, 0}))).isEqualTo(12);
    assertThat(inst.peak(new DsaSolution(new long[] {0, 9}))).isEqualTo(9);
    assertThat(DsaInstance.of("e", List.of()).peak(new DsaSolution(new long[0]))).isZero();
  }

  @Test
  void peakRejectsASolutionOfTheWrongSize() {
    DsaInstance inst = DsaInstance.of("x", List.of(Buffer.of("a", 0, 3, 4)));
    assertThatThrownBy(() -> inst.peak(new DsaSolution(new long[] {0, 0})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 offsets for 1 buffers of 'x'");
  }

  // ---- Buffer ----

  @Test
  void bufferArgumentChecksNameTheBuffer() {
    assertThatThrownBy(() -> Buffer.of("", 0, 1, 1)).hasMessageContaining("empty");
    assertThatThrownBy(() -> Buffer.of("b", -1, 1, 1)).hasMessageContaining("'b': lower -1 < 0");
    assertThatThrownBy(() -> Buffer.of("b", 3, 3, 1)).hasMessageContaining("'b': upper 3");
    assertThatThrownBy(() -> Buffer.of("b", 3, 2, 1)).hasMessageContaining("'b': upper 2");
    assertThatThrownBy(() -> Buffer.of("b", 0, 1, -1)).hasMessageContaining("'b': size -1 < 0");
    assertThatThrownBy(() -> Buffer.of("b", 0, 1, 1).withAlignment(0))
        .hasMessageContaining("'b': alignment 0 < 1");
    assertThatThrownBy(() -> Buffer.of("b", 0, 1, 1).withFixedOffset(-2))
        .hasMessageContaining("'b': fixed offset -2 < 0");
    assertThatThrownBy(() -> Buffer.of(null, 0, 1, 1)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void bufferGapsMustBeSortedDisjointAndInside() {
    assertThatThrownBy(() -> gapped(0, 5, 10, Gap.empty(3, 6)))
        .hasMessageContaining("'b': gaps must be sorted, disjoint and inside [0, 5)");
    assertThatThrownBy(() -> gapped(2, 5, 10, Gap.empty(1, 3))).hasMessageContaining("inside");
    assertThatThrownBy(() -> gapped(0, 9, 10, Gap.empty(4, 6), Gap.empty(1, 3)))
        .hasMessageContaining("sorted");
    assertThatThrownBy(() -> gapped(0, 9, 10, Gap.empty(1, 4), Gap.empty(3, 6)))
        .hasMessageContaining("disjoint");
    assertThatThrownBy(() -> gapped(0, 9, 10, new Gap(1, 3, 0, 11)))
        .hasMessageContaining("'b': gap window ends at 11 > size 10");
    // touching gaps and a gap covering the whole lifetime are fine
    assertThat(gapped(0, 9, 10, Gap.empty(1, 4), Gap.empty(4, 6)).gaps()).hasSize(2);
    assertThat(gapped(0, 9, 10, new Gap(0, 9, 0, 10)).gaps()).hasSize(1);
  }

  private static Buffer gapped(int lower, int upper, long size, Gap... gaps) {
    return new Buffer("b", lower, upper, size, 1, List.of(gaps), OptionalLong.empty());
  }

  @Test
  void gapArgumentChecks() {
    assertThatThrownBy(() -> Gap.empty(3, 3)).hasMessageContaining("empty");
    assertThatThrownBy(() -> new Gap(0, 2, 5, 3)).hasMessageContaining("not a range");
    assertThatThrownBy(() -> new Gap(0, 2, -1, 3)).hasMessageContaining("not a range");
    assertThatThrownBy(() -> new Gap(0, 2, 2, -1)).hasMessageContaining("not a range");
    assertThat(Gap.empty(0, 2).hasWindow()).isFalse();
    assertThat(new Gap(0, 2, 0, 0).hasWindow()).isTrue();
  }

  @Test
  void bufferHelpers() {
    Buffer b = Buffer.of("b", 2, 5, 10);
    assertThat(b.length()).isEqualTo(3);
    assertThat(b.area()).isEqualTo(30);
    assertThat(b.alignment()).isEqualTo(1);
    assertThat(b.withAlignment(8).alignment()).isEqualTo(8);
    assertThat(b.withFixedOffset(4).fixedOffset()).hasValue(4);
    assertThat(b.withFixedOffset(4).withoutFixedOffset().fixedOffset()).isEmpty();
    assertThat(b.overlapsInTime(Buffer.of("c", 4, 6, 1))).isTrue();
    assertThat(b.overlapsInTime(Buffer.of("c", 5, 6, 1))).isFalse();
    assertThat(b.overlapsInTime(Buffer.of("c", 0, 2, 1))).isFalse();
    assertThat(b.overlapsInTime(Buffer.of("c", 0, 3, 1))).isTrue();
  }

  // ---- DsaSolution ----

  @Test
  void solutionIsImmutableAndComparesByValue() {
    long[] offsets = {1, 2, 3};
    DsaSolution s = new DsaSolution(offsets);
    offsets[0] = 99;
    assertThat(s.offset(0)).isEqualTo(1);
    s.offsets()[1] = 99;
    assertThat(s.offset(1)).isEqualTo(2);
    assertThat(s).isEqualTo(new DsaSolution(new long[] {1, 2, 3}));
    assertThat(s.hashCode()).isEqualTo(new DsaSolution(new long[] {1, 2, 3}).hashCode());
    assertThat(s).isNotEqualTo(new DsaSolution(new long[] {1, 2}));
    assertThat(s.toString()).contains("[1, 2, 3]");
  }
}
