package io.github.memplan.datasets.zoo;

/** The zoo entry {@code resnet101}: {@link ResNet} with depth 101, batch 1, 1x3x224x224. */
public final class ResNet101 extends ResNet {
  public ResNet101() {
    super(101, 1, 224);
  }
}
