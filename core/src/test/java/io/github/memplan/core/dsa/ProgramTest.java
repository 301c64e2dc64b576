package io.github.memplan.core.dsa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProgramTest {

  private static Step step(String name, List<String> in, List<String> out) {
    return new Step(name, "Op", in, out, false);
  }

  @Test
  void fromIntervalsMakesOneStepPerBusyTimestep() {
    List<Buffer> bs =
        List.of(Buffer.of("a", 0, 3, 4), Buffer.of("b", 1, 4, 4), Buffer.of("c", 3, 5, 4));
    Program p = Program.fromIntervals(bs);
    assertThat(p.steps()).extracting(Step::name).containsExactly("t0", "t1", "t2", "t3", "t4");
    // every timestep 0..4 has a birth or a last use; outputs: the buffers born at t; inputs: those
    // whose last timestep is t (upper - 1 == t)
    assertThat(p.steps())
        .extracting(Step::outputs)
        .containsExactly(List.of("a"), List.of("b"), List.of(), List.of("c"), List.of());
    assertThat(p.steps())
        .extracting(Step::inputs)
        .containsExactly(List.of(), List.of(), List.of("a"), List.of("b"), List.of("c"));
    assertThat(p.steps()).noneMatch(Step::inPlace);
    assertThat(p.aliasOf()).isEmpty();
    assertThat(p.useCounts()).containsExactlyInAnyOrderEntriesOf(Map.of("a", 1, "b", 1, "c", 1));
  }

  @Test
  void aSingleTimestepBufferIsReadByTheNextStep() {
    // s lives [2,3) only: step t2 defines it, so it cannot also read it; t3 reads it instead
    List<Buffer> bs = List.of(Buffer.of("a", 0, 4, 4), Buffer.of("s", 2, 3, 4));
    Program p = Program.fromIntervals(bs);
    assertThat(p.steps()).extracting(Step::name).containsExactly("t0", "t2", "t3");
    assertThat(p.steps().get(1).outputs()).containsExactly("s");
    assertThat(p.steps().get(1).inputs()).doesNotContain("s");
    assertThat(p.steps().get(2).inputs()).containsExactly("a", "s");
    for (Step s : p.steps()) {
      for (String in : s.inputs()) {
        assertThat(s.outputs()).as(s.name()).doesNotContain(in);
      }
    }
  }

  @Test
  void aSingleTimestepBufferAtTheEndAddsAStepPastTheHorizon() {
    List<Buffer> bs = List.of(Buffer.of("a", 0, 2, 4), Buffer.of("s", 1, 2, 4));
    Program p = Program.fromIntervals(bs);
    assertThat(p.steps()).extracting(Step::name).containsExactly("t0", "t1", "t2");
    assertThat(p.steps().get(1).inputs()).containsExactly("a");
    assertThat(p.steps().get(2).inputs()).containsExactly("s");
  }

  @Test
  void idleTimestepsAreLeftOut() {
    Program p =
        Program.fromIntervals(List.of(Buffer.of("a", 3, 5, 1), Buffer.of("b", 1000, 1_048_576, 1)));
    assertThat(p.steps()).extracting(Step::name).containsExactly("t3", "t4", "t1000", "t1048575");
    assertThat(p.steps().get(0).outputs()).containsExactly("a");
    assertThat(p.steps().get(1).inputs()).containsExactly("a");
    assertThat(p.steps().get(3).inputs()).containsExactly("b");
  }

  @Test
  void fromIntervalsIsAcceptedByItsInstance() {
    List<Buffer> bs =
        List.of(
            Buffer.of("a", 0, 1, 4),
            Buffer.of("b", 0, 3, 4),
            Buffer.of("c", 1, 2, 4),
            Buffer.of("d", 2, 3, 4));
    DsaInstance inst = new DsaInstance("x", bs, DsaInstance.UNBOUNDED, Program.fromIntervals(bs));
    assertThat(inst.programIfKnown()).isPresent();
    assertThat(inst.programOrIntervals()).isEqualTo(Program.fromIntervals(bs));
    assertThat(DsaInstance.of("y", bs).programIfKnown()).isEmpty();
    assertThat(DsaInstance.of("y", bs).programOrIntervals()).isEqualTo(Program.fromIntervals(bs));
  }

  @Test
  void emptyIntervalsGiveNoSteps() {
    assertThat(Program.fromIntervals(List.of()).steps()).isEmpty();
  }

  @Test
  void bufferOfFollowsAliases() {
    Program p =
        new Program(
            List.of(
                step("def", List.of(), List.of("a")),
                new Step("reshape", "Reshape", List.of("a"), List.of("a2"), true),
                step("use", List.of("a2"), List.of())),
            Map.of("a2", "a"));
    assertThat(p.bufferOf("a2")).isEqualTo("a");
    assertThat(p.bufferOf("a")).isEqualTo("a");
    DsaInstance inst = new DsaInstance("x", List.of(Buffer.of("a", 0, 3, 4)), 100, p);
    assertThat(inst.program()).isSameAs(p);
    assertThat(p.useCounts()).containsExactlyInAnyOrderEntriesOf(Map.of("a", 1, "a2", 1));
  }

  @Test
  void aValueReadTwiceCountsTwice() {
    Program p =
        new Program(
            List.of(
                step("def", List.of(), List.of("a")), step("add", List.of("a", "a"), List.of())),
            Map.of());
    assertThat(p.useCounts()).containsEntry("a", 2);
  }

  @Test
  void checkRejectsReadsBeforeDefinition() {
    Program p =
        new Program(
            List.of(step("use", List.of("a"), List.of()), step("def", List.of(), List.of("a"))),
            Map.of());
    assertThatThrownBy(() -> p.checkAgainst(List.of(Buffer.of("a", 0, 2, 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'use' reads 'a' before it is defined");
  }

  @Test
  void checkRejectsAStepReadingItsOwnOutput() {
    Program p = new Program(List.of(step("loop", List.of("a"), List.of("a"))), Map.of());
    assertThatThrownBy(() -> p.checkAgainst(List.of(Buffer.of("a", 0, 1, 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'loop' reads 'a' before it is defined");
  }

  @Test
  void checkRejectsDoubleDefinitionUnknownBuffersAndUndefinedBuffers() {
    List<Buffer> bs = List.of(Buffer.of("a", 0, 2, 1));
    Program twice =
        new Program(
            List.of(step("d1", List.of(), List.of("a")), step("d2", List.of(), List.of("a"))),
            Map.of());
    assertThatThrownBy(() -> twice.checkAgainst(bs))
        .hasMessageContaining("'a' is defined twice (again by 'd2')");
    Program unknown = new Program(List.of(step("d", List.of(), List.of("a", "zz"))), Map.of());
    assertThatThrownBy(() -> unknown.checkAgainst(bs))
        .hasMessageContaining("'zz' of step 'd' has no buffer 'zz'");
    Program danglingAlias =
        new Program(List.of(step("d", List.of(), List.of("a", "v"))), Map.of("v", "nope"));
    assertThatThrownBy(() -> danglingAlias.checkAgainst(bs))
        .hasMessageContaining("no buffer 'nope'");
    Program none = new Program(List.of(step("d", List.of(), List.of())), Map.of());
    assertThatThrownBy(() -> none.checkAgainst(bs))
        .hasMessageContaining("buffer 'a' is defined by no program step");
  }

  @Test
  void anInstanceChecksItsProgram() {
    Program none = new Program(List.of(), Map.of());
    assertThatThrownBy(
            () ->
                new DsaInstance("x", List.of(Buffer.of("a", 0, 1, 1)), DsaInstance.UNBOUNDED, none))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a'");
  }

  @Test
  void stepsAndAliasesAreImmutableCopies() {
    java.util.ArrayList<Step> steps = new java.util.ArrayList<>();
    steps.add(step("d", List.of(), List.of("a")));
    java.util.HashMap<String, String> alias = new java.util.HashMap<>();
    Program p = new Program(steps, alias);
    steps.clear();
    alias.put("x", "a");
    assertThat(p.steps()).hasSize(1);
    assertThat(p.aliasOf()).isEmpty();
    assertThatThrownBy(() -> p.steps().clear()).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void inPlaceStepsNeedAnInput() {
    assertThatThrownBy(() -> new Step("r", "Reshape", List.of(), List.of("x"), true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'r'");
  }

  private static Program concatProgram(long offsetOfQ) {
    return new Program(
        List.of(
            step("dq", List.of(), List.of("q")),
            step("dp", List.of(), List.of("p")),
            new Step("cat", "Concat", List.of("p", "q"), List.of("cat"), true),
            step("use", List.of("cat"), List.of())),
        Map.of("q", "p", "cat", "p"),
        Map.of("q", offsetOfQ));
  }

  @Test
  void aliasesCarryTheirOffsetInTheBuffer() {
    Program p = concatProgram(4);
    assertThat(List.of(p.bufferOf("q"), p.bufferOf("cat"), p.bufferOf("p")))
        .containsExactly("p", "p", "p");
    assertThat(List.of(p.offsetOf("q"), p.offsetOf("cat"), p.offsetOf("p")))
        .containsExactly(4L, 0L, 0L);
    // an alias defined by an ordinary step, before its buffer's own value, is fine
    DsaInstance inst = new DsaInstance("x", List.of(Buffer.of("p", 0, 4, 8)), 100, p);
    assertThat(inst.program().offsetOf("q")).isEqualTo(4);
    // an alias may start at the very end of its buffer (a zero-byte member)
    new DsaInstance("x", List.of(Buffer.of("p", 0, 4, 4)), 100, p);
    // the two-argument form has no offsets
    assertThat(new Program(p.steps(), p.aliasOf()).offsetOf("q")).isZero();
  }

  @Test
  void checkRejectsAliasesOutsideTheirBufferOrThatAreBuffers() {
    assertThatThrownBy(() -> concatProgram(9).checkAgainst(List.of(Buffer.of("p", 0, 4, 8))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("alias 'q' starts at offset 9, past the end of its buffer 'p' (8");
    assertThatThrownBy(
            () ->
                concatProgram(4)
                    .checkAgainst(List.of(Buffer.of("p", 0, 4, 8), Buffer.of("q", 0, 4, 8))))
        .hasMessageContaining("'q' is a buffer and also an alias of 'p'");
  }

  @Test
  void offsetsMustBelongToAliasesAndBeNonNegative() {
    assertThatThrownBy(() -> concatProgram(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("alias 'q' has a negative offset -1");
    assertThatThrownBy(() -> new Program(List.of(), Map.of(), Map.of("v", 3L)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'v' has an alias offset but is no alias");
  }
}
