package io.github.memplan.datasets.zoo;

/** The zoo entry {@code resnet50}: {@link ResNet} with depth 50, batch 1, 1x3x224x224. */
public final class ResNet50 extends ResNet {
  public ResNet50() {
    super(50, 1, 224);
  }
}
