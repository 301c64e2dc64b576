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

  /** Trace {@code t}: network {@code n} loaded, then three inferences one after the other. */
  static final DeviceProblem P =
      new DeviceProblem(
          new DeviceTrace(
              "t",
              List.of(new Network("n", 100, 100, List.of(64L), List.of(64L), List.of(), 0)),
              List.of(
                  DeviceEvent.load("n"),
                  DeviceEvent.start("n", 0),
                  DeviceEvent.finish("n", 0),
                  DeviceEvent.start("n", 1),
                  DeviceEvent.finish("n", 1),
                  DeviceEvent.start("n", 2),
                  DeviceEvent.finish("n", 2))),
          L);

  static DeviceRun run(boolean separate, BufferRecord... r) {
    return new DeviceRun(
        "t", "x", L, separate, List.of(r), List.of(), List.of(), 0, 0, 0, 0, 0, 0, 0);
  }

  static List<Violation> check(boolean separate, BufferRecord... r) {
    return new DeviceRunValidator().validate(P, run(separate, r));
  }

  @Test
  void theRunIsOfTheProblemsTraceLayoutAndEvents() {
    BufferRecord code = rec(0, BufferKind.CODE, 0, 100, 0, -1);
    assertThat(new DeviceRunValidator().isValid(P, run(true, code))).isTrue();
    DeviceProblem otherTrace =
        new DeviceProblem(new DeviceTrace("u", P.trace().networks(), P.trace().events()), L);
    assertThat(new DeviceRunValidator().validate(otherTrace, run(true, code)))
        .extracting(Violation::rule)
        .containsExactly("trace");
    DeviceProblem otherLayout =
        new DeviceProblem(P.trace(), DeviceLayout.of(1 << 20, 1 << 17, 1 << 12));
    assertThat(new DeviceRunValidator().validate(otherLayout, run(true, code)))
        .extracting(Violation::rule)
        .containsExactly("layout");
    assertThat(check(true, rec(0, BufferKind.CODE, 0, 100, 7, -1)))
        .extracting(Violation::rule)
        .containsExactly("event");
    assertThat(check(false, rec(0, BufferKind.INPUT, 1000, 100, 1, 7)))
        .extracting(Violation::rule)
        .containsExactly("event");
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
