package io.github.memplan.core.solve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class OutcomeTest {

  @ParameterizedTest
  @EnumSource(Status.class)
  void aSolutionIsPresentExactlyWhenTheStatusHasOne(Status status) {
    if (status.hasSolution()) {
      assertThat(new Outcome<>(status, "s", OptionalLong.empty(), Map.of(), "").solutionIfAny())
          .contains("s");
      assertThatThrownBy(
              () -> new Outcome<String>(status, null, OptionalLong.empty(), Map.of(), ""))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(status + " needs a solution");
    } else {
      assertThat(
              new Outcome<String>(status, null, OptionalLong.empty(), Map.of(), "").solutionIfAny())
          .isEmpty();
      assertThatThrownBy(() -> new Outcome<>(status, "s", OptionalLong.empty(), Map.of(), ""))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(status + " must not carry one");
    }
  }

  @Test
  void onlyOptimalAndFeasibleCarrySolutions() {
    assertThat(Status.values())
        .filteredOn(Status::hasSolution)
        .containsExactlyInAnyOrder(Status.OPTIMAL, Status.FEASIBLE);
  }

  @Test
  void factoriesSetStatusBoundAndMessage() {
    Outcome<String> opt = Outcome.optimal("s", 42);
    assertThat(opt.status()).isEqualTo(Status.OPTIMAL);
    assertThat(opt.lowerBound()).hasValue(42);
    assertThat(opt.message()).isEmpty();
    Outcome<String> feas = Outcome.feasible("s", OptionalLong.of(7));
    assertThat(feas.status()).isEqualTo(Status.FEASIBLE);
    assertThat(feas.lowerBound()).hasValue(7);
    Outcome<String> inf = Outcome.infeasible("too small");
    assertThat(inf.status()).isEqualTo(Status.INFEASIBLE);
    assertThat(inf.solution()).isNull();
    assertThat(inf.message()).isEqualTo("too small");
    Outcome<String> none = Outcome.noSolution(OptionalLong.of(3), "time");
    assertThat(none.status()).isEqualTo(Status.NO_SOLUTION_IN_BUDGET);
    assertThat(none.lowerBound()).hasValue(3);
    Outcome<String> unplaced = Outcome.failedToPlace(OptionalLong.of(3), "over the capacity");
    assertThat(unplaced.status()).isEqualTo(Status.FAILED_TO_PLACE);
    assertThat(unplaced.status().hasSolution()).isFalse();
    assertThat(unplaced.solution()).isNull();
    assertThat(unplaced.lowerBound()).hasValue(3);
    Outcome<String> err = Outcome.error("boom");
    assertThat(err.status()).isEqualTo(Status.ERROR);
    assertThat(err.message()).isEqualTo("boom");
  }

  @Test
  void nullsAreRejectedOrNormalised() {
    assertThatThrownBy(() -> new Outcome<>(null, "s", OptionalLong.empty(), Map.of(), ""))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new Outcome<>(Status.FEASIBLE, "s", null, Map.of(), ""))
        .isInstanceOf(NullPointerException.class);
    Outcome<String> o = new Outcome<>(Status.FEASIBLE, "s", OptionalLong.empty(), null, null);
    assertThat(o.stats()).isEmpty();
    assertThat(o.message()).isEmpty();
  }

  @Test
  void statsAreSortedImmutableCopies() {
    Map<String, Double> stats = new HashMap<>();
    stats.put("nodes", 10.0);
    stats.put("bound-gap", 0.5);
    stats.put("moves", 3.0);
    Outcome<String> o = new Outcome<>(Status.FEASIBLE, "s", OptionalLong.empty(), stats, "");
    stats.put("late", 1.0);
    assertThat(o.stats().keySet()).containsExactly("bound-gap", "moves", "nodes");
    assertThatThrownBy(() -> o.stats().put("x", 1.0))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void withStatsMergesAndLaterValuesWin() {
    Outcome<String> o =
        Outcome.feasible("s", OptionalLong.empty()).withStats(Map.of("nodes", 1, "moves", 2L));
    Outcome<String> p = o.withStats(Map.of("nodes", 5.5));
    assertThat(p.stats()).containsExactlyInAnyOrderEntriesOf(Map.of("moves", 2.0, "nodes", 5.5));
    assertThat(List.copyOf(p.stats().keySet())).containsExactly("moves", "nodes");
    assertThat(o.stats()).containsEntry("nodes", 1.0);
    assertThat(p.status()).isEqualTo(o.status());
    assertThat(p.solution()).isEqualTo(o.solution());
  }

  @Test
  void withMessageKeepsTheRest() {
    Outcome<String> o = Outcome.optimal("s", 4).withStats(Map.of("n", 1));
    Outcome<String> m = o.withMessage("note");
    assertThat(m.message()).isEqualTo("note");
    assertThat(m.stats()).isEqualTo(o.stats());
    assertThat(m.lowerBound()).isEqualTo(o.lowerBound());
    assertThat(m.status()).isEqualTo(Status.OPTIMAL);
  }
}
