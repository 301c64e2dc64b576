package io.github.memplan.datasets.zoo;

/** The zoo entry {@code resnet34}: {@link ResNet} with depth 34, batch 1, 1x3x224x224. */
public final class ResNet34 extends ResNet {
  public ResNet34() {
    super(34, 1, 224);
  }
}
