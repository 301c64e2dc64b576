package io.github.memplan.core.device;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.solve.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeviceRunValidatorTest {
  static final DeviceLayout L = DeviceLayout.of(1 << 20, 1 << 16, 1 << 12);

  static BufferRecord rec(long id, BufferKind k, long off, long size, int a, int f) {
    BufferRecord.Common c = new BufferRecord.Common(id, k, "n", off, size, a, f);
    return switch (k) {
      case CODE -> new BufferRecord.CodeBuffer(c);
      case CONSTANT -> new BufferRecord.ConstantBuffer(c);
      case LOGGING -> new BufferRecord.LoggingBuffer(c);
      default -> new BufferRecord.PlaceholderBuffer(c, 0, 0);
    };
  }

  static List<Violation> check(boolean separate, BufferRecord... r) {
    DeviceRun run =
        new DeviceRun("t", "x", L, separate, List.of(r), List.of(), List.of(), 0, 0, 0, 0, 0, 0, 0);
    return DeviceRunValidator.validate(run);
  }

  @Test
  void layoutTilesTheDram() {
    assertThat(L.code()).isEqualTo(new Region("code", 0, 1 << 16));
    assertThat(L.data().end()).isEqualTo(L.logging().start());
    assertThat(L.logging().end()).isEqualTo(1 << 20);
    assertThat(DeviceLayout.of(16L << 30).code().size()).isEqualTo(1L << 30);
  }

  @Test
  void acceptsDisjointOrSequentialBuffers() {
    long log = L.logging().start();
    assertThat(
            check(
                true,
                rec(0, BufferKind.LOGGING, log, 1 << 12, -1, -1),
                rec(1, BufferKind.CODE, 0, 100, 0, -1),
                rec(2, BufferKind.INPUT, 1 << 16, 100, 1, 2),
                rec(3, BufferKind.INPUT, 1 << 16, 100, 2, 3)))
        .isEmpty();
  }

  @Test
  void findsOverlapsInTimeAndSpace() {
    assertThat(
            check(
                false,
                rec(0, BufferKind.INPUT, 1000, 100, 1, 5),
                rec(1, BufferKind.OUTPUT, 1099, 10, 4, 6)))
        .extracting(Violation::rule)
        .containsExactly("overlap");
    // a rollback within event 4 conflicts with what event 4 placed
    assertThat(
            check(
                false,
                rec(0, BufferKind.INPUT, 1000, 100, 4, 4),
                rec(1, BufferKind.OUTPUT, 1050, 10, 4, 6)))
        .extracting(Violation::rule)
        .containsExactly("overlap");
    // freed at 4, then placed at 4 by a later event is impossible, but freed at 4 and placed at 5
    // is fine
    assertThat(
            check(
                false,
                rec(0, BufferKind.INPUT, 1000, 100, 1, 4),
                rec(1, BufferKind.OUTPUT, 1050, 10, 5, 6)))
        .isEmpty();
  }

  @Test
  void codeOnlyInTheCodeRegion() {
    assertThat(check(true, rec(0, BufferKind.CODE, L.data().start(), 10, 0, -1)))
        .extracting(Violation::rule)
        .containsExactly("code-region");
    assertThat(check(true, rec(0, BufferKind.CONSTANT, 0, 10, 0, -1)))
        .extracting(Violation::rule)
        .containsExactly("region");
    assertThat(check(false, rec(0, BufferKind.CODE, L.data().start(), 10, 0, -1))).isEmpty();
    assertThat(check(false, rec(0, BufferKind.INPUT, L.logging().start(), 10, 0, -1)))
        .extracting(Violation::rule)
        .containsExactly("region");
    assertThat(check(false, rec(0, BufferKind.INPUT, (1 << 20) - 5, 10, 0, -1)))
        .extracting(Violation::rule)
        .containsExactly("bounds");
  }
}
