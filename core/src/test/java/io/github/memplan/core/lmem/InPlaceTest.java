package io.github.memplan.core.lmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.lmem.LmemBuffer.Kind;
import io.github.memplan.core.solve.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What an in-place pair allows, in the instance and in the validator. */
class InPlaceTest {

  private static LmemBuffer act(String id, int start, int end) {
    return new LmemBuffer(id, Kind.ACTIVATION, start, end, 64, false);
  }

  @Test
  void lifetimesMustMeetInTheInPlaceOpsRowOnly() {
    // both forward, the input ends where the output starts
    assertThat(InPlace.lifetimesAllow(act("in", 0, 2), act("out", 2, 3))).isTrue();
    // the input ends a row earlier, or the output starts earlier: no
    assertThat(InPlace.lifetimesAllow(act("in", 0, 1), act("out", 2, 3))).isFalse();
    assertThat(InPlace.lifetimesAllow(act("in", 0, 2), act("out", 1, 3))).isFalse();
    // a one-row life is refused (can_membuf_inplace_alloc wants end > start)
    assertThat(InPlace.lifetimesAllow(act("in", 2, 2), act("out", 2, 3))).isFalse();
    // the output wraps [2, 0] in 4 rows and ends before the input's start 1: they meet in row 2
    assertThat(InPlace.lifetimesAllow(act("in", 1, 2), act("out", 2, 0))).isTrue();
    // wrapping output [2, 1] also meets the input [1, 2] in row 1: no
    assertThat(InPlace.lifetimesAllow(act("in", 1, 2), act("out", 2, 1))).isFalse();
    // the input wraps [3, 1], the output [1, 2] ends before 3
    assertThat(InPlace.lifetimesAllow(act("in", 3, 1), act("out", 1, 2))).isTrue();
    // both wrap: no
    assertThat(InPlace.lifetimesAllow(act("in", 3, 1), act("out", 1, 0))).isFalse();
    // a held buffer lives in every row
    LmemBuffer held = new LmemBuffer("w", Kind.WEIGHT, 0, 2, 64, true);
    assertThat(InPlace.lifetimesAllow(held, act("out", 2, 3))).isFalse();
  }

  /** x [0, 2] -> add -> y [2, 3], z [0, 3] alongside; 4 rows, EU 16, 256 bytes in 4 banks. */
  private static LmemInstance pair() {
    return new LmemInstance(
        "pair",
        256,
        4,
        64,
        16,
        List.of(act("x", 0, 2), act("y", 2, 3), act("z", 0, 3)),
        List.of(
            new Timestep(List.of(), List.of(0)),
            new Timestep(List.of(), List.of()),
            new Timestep(
                List.of(new Timestep.TiuOp("add", List.of(0), List.of(1), List.of())), List.of()),
            new Timestep(List.of(), List.of(1))),
        List.of(new InPlace(0, 1)));
  }

  @Test
  void aPairMayStartAtTheSameAddressButNotOverlapOtherwise() {
    LmemInstance inst = pair();
    LmemValidator v = new LmemValidator();
    // y written over x: valid; apart: valid
    assertThat(v.validate(inst, new LmemSolution(new long[] {0, 0, 64}))).isEmpty();
    assertThat(v.validate(inst, new LmemSolution(new long[] {0, 128, 64}))).isEmpty();
    // y 16 bytes into x: both live in row 2 and share bytes [16, 64) at different addresses
    List<Violation> bad = v.validate(inst, new LmemSolution(new long[] {0, 16, 128}));
    assertThat(bad).extracting(Violation::rule).containsExactly("overlap");
    // z is no partner of x: the same address is an overlap
    assertThat(v.validate(inst, new LmemSolution(new long[] {0, 128, 0})))
        .extracting(Violation::rule)
        .containsExactly("overlap");
    // the max-live bound counts the pair once where both live: row 2 holds x ~ y and z
    assertThat(LmemLowerBounds.maxLive(inst)).isEqualTo(128);
  }

  @Test
  void anInstanceRefusesAPairWhoseLivesDoNotAllowIt() {
    assertThatThrownBy(
            () ->
                new LmemInstance(
                    "bad",
                    256,
                    4,
                    64,
                    16,
                    List.of(act("x", 0, 1), act("y", 2, 3)),
                    List.of(
                        new Timestep(List.of(), List.of()),
                        new Timestep(List.of(), List.of()),
                        new Timestep(List.of(), List.of()),
                        new Timestep(List.of(), List.of())),
                    List.of(new InPlace(0, 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "LMEM instance 'bad': in-place pair ('x', 'y'): the input must end in the timestep"
                + " where the output starts, the two meeting there only, and neither may be held");
  }
}
