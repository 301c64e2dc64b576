package io.github.memplan.datasets.zoo;

/** The zoo entry {@code resnet18}: {@link ResNet} with depth 18, batch 1, 1x3x224x224. */
public final class ResNet18 extends ResNet {
  public ResNet18() {
    super(18, 1, 224);
  }
}
