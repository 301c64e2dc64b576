package io.github.memplan.core.solve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BudgetTest {

  @Test
  void unlimitedIsNeverExhaustedUntilCancelled() {
    Budget b = Budget.unlimited();
    assertThat(b.exhausted()).isFalse();
    assertThat(b.exhausted(Long.MAX_VALUE - 1)).isFalse();
    assertThat(b.limit()).isEmpty();
    assertThat(b.stepCap()).isEqualTo(Long.MAX_VALUE);
    assertThat(b.remaining()).isGreaterThanOrEqualTo(Duration.ofDays(365));
    assertThat(b.isCancelled()).isFalse();
    b.cancel();
    assertThat(b.isCancelled()).isTrue();
    assertThat(b.exhausted()).isTrue();
    assertThat(b.exhausted(0)).isTrue();
    assertThat(b.toString()).contains("cancelled");
  }

  @Test
  void aBudgetKeepingBackRunsOutThatMuchEarlierAndSharesCancellation() {
    Budget b = Budget.of(Duration.ofHours(1));
    Budget phase = b.keepingBack(Duration.ofMinutes(20));
    assertThat(phase.remaining())
        .isLessThanOrEqualTo(Duration.ofMinutes(40))
        .isGreaterThan(Duration.ofMinutes(39));
    assertThat(phase.limit()).isEqualTo(b.limit());
    assertThat(phase.exhausted()).isFalse();
    // a reserve longer than what is left: the phase has no time at all, the budget still has
    assertThat(b.keepingBack(Duration.ofHours(2)).exhausted()).isTrue();
    assertThat(b.keepingBack(Duration.ofDays(365 * 1000)).exhausted()).isTrue();
    assertThat(b.exhausted()).isFalse();
    // one cancellation, seen by both
    phase.cancel();
    assertThat(b.isCancelled()).isTrue();
    assertThat(b.exhausted()).isTrue();
    assertThat(Budget.unlimited().keepingBack(Duration.ofHours(1)).exhausted()).isFalse();
  }

  @Test
  void aZeroDurationBudgetIsExhaustedAtOnce() {
    Budget b = Budget.of(Duration.ZERO);
    assertThat(b.exhausted()).isTrue();
    assertThat(b.exhausted(0)).isTrue();
    assertThat(b.remaining()).isEqualTo(Duration.ZERO);
    assertThat(b.limit()).contains(Duration.ZERO);
  }

  @Test
  void aGenerousDeadlineIsNotExhaustedYet() {
    Budget b = Budget.of(Duration.ofHours(1));
    assertThat(b.exhausted()).isFalse();
    assertThat(b.remaining()).isPositive().isLessThanOrEqualTo(Duration.ofHours(1));
  }

  @Test
  void aHugeDeadlineSaturatesInsteadOfOverflowing() {
    Budget b = Budget.of(Duration.ofSeconds(Long.MAX_VALUE));
    assertThat(b.exhausted()).isFalse();
    Budget c = Budget.of(Duration.ofNanos(Long.MAX_VALUE));
    assertThat(c.exhausted()).isFalse();
  }

  @Test
  void theStepCapCountsSteps() {
    Budget b = Budget.of(null, 10);
    assertThat(b.limit()).isEmpty();
    assertThat(b.exhausted(9)).isFalse();
    assertThat(b.exhausted(10)).isTrue();
    assertThat(b.exhausted()).isFalse(); // steps are not considered
    assertThat(Budget.of(null, 0).exhausted(0)).isTrue();
    assertThat(b.toString()).contains("steps=10");
  }

  @Test
  void negativeLimitsFail() {
    assertThatThrownBy(() -> Budget.of(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative");
    assertThatThrownBy(() -> Budget.of(Duration.ZERO, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative");
  }

  @Test
  void cancellationIsVisibleFromAnotherThread() throws InterruptedException {
    Budget b = Budget.unlimited();
    Thread t = new Thread(b::cancel);
    t.start();
    t.join();
    assertThat(b.exhausted()).isTrue();
  }

  @Test
  void solveContextDerivesItsGeneratorFromTheSeed() {
    SolveContext a = SolveContext.of(42, Budget.unlimited());
    SolveContext b = SolveContext.of(42, Budget.unlimited());
    assertThat(a.random().nextLong()).isEqualTo(b.random().nextLong());
    assertThat(a.seed()).isEqualTo(42);
    SolveContext c = a.withBudget(Budget.of(Duration.ZERO));
    assertThat(c.seed()).isEqualTo(42);
    assertThat(c.budget().exhausted()).isTrue();
    // a fresh generator: the same first value as a new context with the seed
    assertThat(c.random().nextLong())
        .isEqualTo(SolveContext.of(42, Budget.unlimited()).random().nextLong());
    ProgressListener l = (o, bd, n) -> {};
    assertThat(a.withProgress(l).progress()).isSameAs(l);
    assertThat(SolveContext.unlimited().seed()).isZero();
    assertThatThrownBy(() -> new SolveContext(0, null, Budget.unlimited(), ProgressListener.NONE))
        .isInstanceOf(NullPointerException.class);
  }
}
