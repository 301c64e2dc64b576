package io.github.memplan.datasets.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.memplan.core.ir.Macs;
import org.junit.jupiter.api.Test;

/** MAC counts of the zoo against the papers' published figures. */
class MacsTest {
  @Test
  void resnet18IsAbout1Point8GMacs() {
    // He et al. 2016, Table 1: 1.8 x 10^9 FLOPs (multiply-adds); torchvision reports 1.814 GMACs
    assertThat((double) Macs.of(new ResNet18().build())).isCloseTo(1.814e9, within(0.01e9));
  }

  @Test
  void mobilenetV2IsAbout300MMadds() {
    // Sandler et al. 2018, Table 4: 300M multiply-adds at 224x224, width 1.0
    assertThat((double) Macs.of(new MobileNetV2().build())).isCloseTo(300e6, within(6e6));
  }
}
