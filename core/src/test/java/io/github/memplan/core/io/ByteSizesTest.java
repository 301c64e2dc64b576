package io.github.memplan.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ByteSizesTest {
  @Test
  void plainBytesAndBinaryUnits() {
    assertThat(ByteSizes.parse("0")).isZero();
    assertThat(ByteSizes.parse("1048576")).isEqualTo(1 << 20);
    assertThat(ByteSizes.parse("1MiB")).isEqualTo(1 << 20);
    assertThat(ByteSizes.parse("16GiB")).isEqualTo(16L << 30);
    assertThat(ByteSizes.parse(" 3 KiB ")).isEqualTo(3072);
    assertThat(ByteSizes.parse("2TiB")).isEqualTo(2L << 40);
    assertThat(ByteSizes.parse("12B")).isEqualTo(12);
  }

  @Test
  void decimalUnitsFractionsAndSignsAreRefusedNotGuessed() {
    for (String bad : new String[] {"", "1GB", "1.5MiB", "-1", "1mib", "KiB"}) {
      assertThatThrownBy(() -> ByteSizes.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              InputText.quote(bad)
                  + " is not a size (bytes, or a number with KiB, MiB, GiB or TiB)");
    }
  }

  @Test
  void aSizeBeyondALongIsOneLineNotAnOverflow() {
    for (String big : new String[] {"99999999999999999999", "9000000TiB", "8388608TiB"}) {
      assertThatThrownBy(() -> ByteSizes.parse(big))
          .as(big)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(InputText.quote(big) + " is too large a size");
    }
    assertThat(ByteSizes.parse("8388607TiB")).isEqualTo(8388607L << 40);
  }
}
