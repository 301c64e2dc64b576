package io.github.memplan.experiments.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class UnitsTest {
  @Test
  void durations() {
    assertThat(Units.parseDuration("60s")).isEqualTo(Duration.ofSeconds(60));
    assertThat(Units.parseDuration("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(Units.parseDuration("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Units.parseDuration("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Units.parseDuration("PT1M")).isEqualTo(Duration.ofMinutes(1));
    assertThat(Units.parseDuration("pt1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(Units.parseDuration("none")).isNull();
    for (String bad : new String[] {"", "60", "1 s", "-5s", "PT-1S", "1.5s", "s"}) {
      assertThatThrownBy(() -> Units.parseDuration(bad))
          .as(bad)
          .isInstanceOf(TypeConversionException.class);
    }
    // a long of hours (or minutes) overflows a Duration's seconds: one line, not an
    // ArithmeticException (the fuzzer's 9199999999999999999h)
    for (String tooLong : new String[] {"9199999999999999999h", "9223372036854775807m"}) {
      assertThatThrownBy(() -> Units.parseDuration(tooLong))
          .as(tooLong)
          .isInstanceOf(TypeConversionException.class)
          .hasMessage("'" + tooLong + "' is too long a duration");
    }
  }

  @Test
  void sizesAreCoresSyntaxFailingAsPicocliConversions() {
    // the syntax itself is core.io.ByteSizes' (ByteSizesTest)
    assertThat(Units.parseSize("16GiB")).isEqualTo(16L << 30);
    for (String bad : new String[] {"1GB", "9000000TiB"}) {
      assertThatThrownBy(() -> Units.parseSize(bad))
          .as(bad)
          .isInstanceOf(TypeConversionException.class);
    }
  }

  @Test
  void humanBytes() {
    assertThat(Units.humanBytes(512)).isEqualTo("512 B");
    assertThat(Units.humanBytes(1536)).isEqualTo("1.50 KiB");
    assertThat(Units.humanBytes(2048)).isEqualTo("2 KiB");
    assertThat(Units.humanBytes((1L << 20) - 1)).isEqualTo("1024.00 KiB");
    assertThat(Units.humanBytes(16L << 30)).isEqualTo("16 GiB");
    assertThat(Units.humanBytes(7827456)).isEqualTo("7.46 MiB");
    assertThat(Units.humanBytes(3L << 40)).isEqualTo("3 TiB");
    assertThat(Units.humanBytes(5000L << 40)).isEqualTo("5000 TiB");
  }
}
