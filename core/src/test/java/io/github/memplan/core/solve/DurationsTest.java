package io.github.memplan.core.solve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CLI's duration syntax, which planner parameters share. */
class DurationsTest {
  @Test
  void shortFormsIsoAndNone() {
    Map<String, Duration> cases = new LinkedHashMap<>();
    cases.put("500ms", Duration.ofMillis(500));
    cases.put("60s", Duration.ofSeconds(60));
    cases.put("2m", Duration.ofMinutes(2));
    cases.put("1h", Duration.ofHours(1));
    cases.put(" 0s ", Duration.ZERO);
    cases.put("PT1M", Duration.ofMinutes(1));
    cases.put("pt1.5s", Duration.ofMillis(1500));
    cases.forEach(
        (text, expected) -> assertThat(Durations.parse(text)).as(text).isEqualTo(expected));
    assertThat(Durations.parse("none")).isNull();
    assertThat(Durations.parse("NONE")).isNull();
  }

  @Test
  void anythingElseIsOneLine() {
    // no space before the unit, lower-case units only, whole numbers only
    for (String bad : new String[] {"", "60", "1 s", "10S", "1.5s", "s", "soon", "PT"}) {
      assertThatThrownBy(() -> Durations.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("'" + bad + "' is not a duration (e.g. 500ms, 60s, 2m, 1h, PT1M or none)");
    }
    for (String negative : new String[] {"-5s", "PT-1S"}) {
      assertThatThrownBy(() -> Durations.parse(negative))
          .as(negative)
          .hasMessageContaining("' is ");
    }
    assertThatThrownBy(() -> Durations.parse("PT-1S")).hasMessage("'PT-1S' is a negative duration");
    assertThatThrownBy(() -> Durations.parse("9199999999999999999h"))
        .hasMessage("'9199999999999999999h' is too long a duration");
  }
}
